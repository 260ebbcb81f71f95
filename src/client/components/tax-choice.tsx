import { css } from '../../../styled-system/css';
import { FRANCHISE_MENTION, sameRate, type TaxRate, type TaxRules } from '../../shared/vat';
import { Button } from './ui/button';
import { Checkbox } from './ui/checkbox';
import { RadioGroup } from './ui/radio-group';

const styles = {
  note: css({ fontSize: 'sm', color: 'fg.muted', fontStyle: 'italic' }),
  warning: css({ fontSize: 'sm', color: 'warning', display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' }),
  checks: css({ display: 'flex', gap: '3', flexWrap: 'wrap', fontSize: 'sm', alignItems: 'center' }),
  legend: css({ fontWeight: '600', mb: '1' }),
  error: css({ fontSize: 'xs', color: 'danger' }),
};

const NONE = 'none';
const keyOf = (t: TaxRate) => `${t.title}\u0000${t.rate}`;

/**
 * The tax choice of a line or catalogue item (§6): one rate among the organisation's, or "Aucune", as a
 * radio group; checkboxes only when the organisation allows several taxes per line; under the franchise en base no
 * rate at all, the mention instead (and a way to take off a rate a line still carries).
 */
export function TaxChoice({
  label,
  rates,
  value,
  onChange,
  rules,
  readOnly,
  error,
  name,
}: {
  label: string;
  rates: readonly TaxRate[];
  value: readonly TaxRate[];
  onChange: (taxes: TaxRate[]) => void;
  rules: TaxRules;
  readOnly?: boolean;
  error?: string;
  name?: string;
}) {
  if (!rules.vat) {
    const charged = value.some((t) => t.rate > 0);
    return (
      <div>
        <p className={styles.legend}>{label}</p>
        <p className={styles.note} data-franchise="">
          {FRANCHISE_MENTION}
        </p>
        {charged && (
          <p className={styles.warning} role="alert">
            Cette ligne porte encore {value.map((t) => t.title).join(', ')} : la franchise en base n’en permet aucune.
            {!readOnly && (
              <Button size="sm" variant="outline" onClick={() => onChange([])}>
                Retirer la TVA
              </Button>
            )}
          </p>
        )}
        {error && <span className={styles.error}>{error}</span>}
      </div>
    );
  }
  // A rate the line carries but the organisation no longer lists stays shown, so the choice never hides it.
  const options = [...rates, ...value.filter((t) => !rates.some((r) => sameRate(r, t)))];
  if (rules.multiple) {
    return (
      <fieldset className={styles.checks}>
        <legend className={styles.legend}>{label}</legend>
        {options.map((t) => {
          const checked = value.some((x) => sameRate(x, t));
          return (
            <Checkbox
              key={keyOf(t)}
              checked={checked}
              disabled={readOnly}
              onChange={(on) => {
                const rest = value.filter((x) => !sameRate(x, t));
                onChange(on ? [...rest, { title: t.title, rate: t.rate }] : rest);
              }}
            >
              {t.title}
            </Checkbox>
          );
        })}
        {error && <span className={styles.error}>{error}</span>}
      </fieldset>
    );
  }
  const first = value[0];
  const current = value.length === 0 ? NONE : value.length === 1 && first ? keyOf(first) : '';
  return (
    <div>
      <RadioGroup
        label={label}
        name={name}
        options={[...options.map((t) => ({ value: keyOf(t), label: t.title })), { value: NONE, label: 'Aucune' }]}
        value={current}
        disabled={readOnly}
        onChange={(next) => {
          const rate = options.find((t) => keyOf(t) === next);
          onChange(rate ? [{ title: rate.title, rate: rate.rate }] : []);
        }}
      />
      {value.length > 1 && (
        <p className={styles.warning}>Cette ligne porte plusieurs taxes ({value.map((t) => t.title).join(', ')}) : choisissez-en une.</p>
      )}
      {error && <span className={styles.error}>{error}</span>}
    </div>
  );
}
