import { useSnapshot } from 'valtio';
import { css, cx } from '../../../../../styled-system/css';
import { formatMoney } from '../../../../shared/format';
import type { CurrencyFormat } from '../../../../shared/schemas/settings';
import type { LineTotals } from '../../../../shared/totals';
import { addLine, clearError, editor, removeLine, toggleLine } from '../../../stores/document-editor';
import { confirm } from '../../../stores/confirm';
import { Button } from '../../../components/ui/button';
import { Field, Input, Textarea } from '../../../components/ui/field';
import { AmountInput } from '../../../components/ui/amount-input';
import { Select } from '../../../components/ui/select';
import { ChevronRightIcon, CloseIcon } from '../../../components/icons';
import { ItemPicker } from './item-picker';
import { TaxChoice } from '../../../components/tax-choice';
import { defaultRate, type TaxRules } from '../../../../shared/vat';
import { shownAmount, typedNumber, type LineDraft } from './form-state';
import { percentText, unitWord } from '../../../../shared/french';

const styles = {
  panel: css({
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'lg',
    bg: 'bg.surface',
    '&[data-invalid]': { borderColor: 'danger' },
  }),
  summary: css({ display: 'grid', gridTemplateColumns: 'auto 1fr auto auto', alignItems: 'center', gap: '3', px: '3', py: '2' }),
  toggle: css({
    display: 'flex',
    alignItems: 'center',
    gap: '2',
    textAlign: 'left',
    cursor: 'pointer',
    minW: '0',
    fontSize: 'sm',
    fontWeight: '600',
  }),
  muted: css({ color: 'fg.muted', fontWeight: '400', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }),
  amount: css({ fontVariantNumeric: 'tabular-nums', fontWeight: '700', fontSize: 'sm', textAlign: 'right', whiteSpace: 'nowrap' }),
  body: css({
    minW: '0',
    borderTopWidth: '1px',
    borderColor: 'border.default',
    p: '3',
    display: 'grid',
    gridTemplateColumns: { base: '1fr 1fr', md: 'repeat(6, 1fr)' },
    gap: '3',
  }),
  wide: css({ gridColumn: { base: '1 / -1', md: 'span 3' } }),
  full: css({ gridColumn: '1 / -1' }),
  // « Prestation de service » needs two columns to be read whole.
  double: css({ gridColumn: { base: '1 / -1', md: 'span 2' } }),
  area: css({ minH: '16' }),
};

interface Props {
  currencyFormat: CurrencyFormat;
  currency: string;
  units: { id: number; name: string }[];
  taxes: { id: number; title: string; rate: number }[];
  rules: TaxRules;
  lines: LineTotals[];
  readOnly?: boolean;
}

/** Items are rows in expandable panels; adding expands the new row; removing asks first. */
export function LinePanels({ currencyFormat, currency, units, taxes, rules, lines, readOnly }: Props) {
  const snap = useSnapshot(editor, { sync: true });
  const form = snap.form;
  if (!form) return null;
  const money = (n: number) => formatMoney(n, currencyFormat, currency);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      {(form.items ?? []).length === 0 && (
        <p className={css({ color: 'fg.muted', fontSize: 'sm', py: '3' })}>
          Aucune ligne pour l’instant : ajoutez un article du catalogue ou une ligne libre.
        </p>
      )}
      {(form.items ?? []).map((line, index) => {
        // The schema's client-only key (every line the editor makes or loads has one).
        const key = line.key ?? `line-${index}`;
        const open = snap.expanded.includes(key);
        const invalid = Object.keys(snap.errors).some((path) => path.startsWith(`items.${index}.`));
        return (
          <div key={key} className={styles.panel} data-invalid={invalid || undefined} data-line={index}>
            <div className={styles.summary}>
              <button
                type="button"
                className={styles.toggle}
                aria-expanded={open}
                aria-controls={`${key}-body`}
                onClick={() => toggleLine(key)}
              >
                <ChevronRightIcon style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 0.15s' }} />
                <span>{index + 1}.</span>
              </button>
              <button type="button" className={cx(styles.toggle, styles.muted)} onClick={() => toggleLine(key)} tabIndex={-1}>
                {line.item || 'Nouvelle ligne'} · {shownAmount(line.quantity) || '0'} {unitWord(line.quantity ?? 0, line.unit ?? '')} ×{' '}
                {money(typedNumber(line.unit_price))}
                {typedNumber(line.discount_value) > 0 &&
                  ` · remise ${line.discount_type === 'amount' ? money(typedNumber(line.discount_value)) : percentText(shownAmount(line.discount_value))}`}
              </button>
              <span className={styles.amount}>{money(lines[index]?.gross_total ?? 0)}</span>
              {!readOnly && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Supprimer la ligne ${index + 1}`}
                  onClick={async () => {
                    if (await confirm('Voulez-vous vraiment supprimer ?')) removeLine(key);
                  }}
                >
                  <CloseIcon />
                </Button>
              )}
            </div>
            {open && (
              <LineFields
                id={`${key}-body`}
                index={index}
                line={line as LineDraft}
                units={units}
                taxes={taxes}
                rules={rules}
                readOnly={readOnly}
                isLast={index === (form.items ?? []).length - 1}
              />
            )}
          </div>
        );
      })}
      {!readOnly && (
        <div>
          <Button variant="outline" onClick={() => addLine(defaultLine(taxes, units, rules.vat))}>
            Ajouter une ligne
          </Button>
        </div>
      )}
    </div>
  );
}

/** A new line carries the normal rate (none under the franchise en base) and the first unit, as most lines do. */
export const defaultLine = (taxes: { title: string; rate: number }[], units: { name: string }[], vat: boolean) => {
  const normal = defaultRate(taxes, vat);
  return { taxes: normal ? [{ title: normal.title, rate: normal.rate }] : [], unit: units[0]?.name ?? 'u' };
};

/** The line's typed fields; a discount of 0 shows as empty, as the form leaves it. */
type TextField = 'item' | 'code' | 'sku' | 'quantity' | 'discount_value';
const ZERO_AS_EMPTY: ReadonlySet<TextField> = new Set(['discount_value']);

const DISCOUNT_TYPES = [
  { value: 'percent', label: '%' },
  { value: 'amount', label: 'Montant' },
] as const;
const KINDS = [
  { value: 'service', label: 'Prestation de service' },
  { value: 'goods', label: 'Vente de biens' },
] as const;

function LineFields({
  id,
  index,
  line,
  units,
  taxes,
  rules,
  readOnly,
  isLast,
}: {
  id: string;
  index: number;
  line: LineDraft;
  units: { id: number; name: string }[];
  taxes: { id: number; title: string; rate: number }[];
  rules: TaxRules;
  readOnly?: boolean;
  isLast: boolean;
}) {
  // Synchronous snapshots for inputs (valtio): otherwise the caret jumps to the end while typing.
  const snap = useSnapshot(editor, { sync: true });
  const target = (): LineDraft => {
    const line = editor.form?.items?.[index];
    if (!line) throw new Error(`Ligne ${index + 1} introuvable`);
    return line;
  };
  const error = (field: string) => snap.errors[`items.${index}.${field}`];
  const write = (field: keyof LineDraft & string) => (value: string) => {
    clearError(`items.${index}.${field}`);
    (target() as unknown as Record<string, unknown>)[field] = value;
  };
  // Keyboard (documents issue): Enter in a text box of the last row adds a row. Only a typed field's Enter: on a
  // select it opens or picks (and the select's portalled list still bubbles here through React), in the description
  // it starts a new line.
  const onKeyDown = (event: React.KeyboardEvent) => {
    const typedIn = event.target instanceof HTMLInputElement && event.target.type !== 'radio' && event.target.type !== 'checkbox';
    if (event.key !== 'Enter' || !isLast || readOnly || !typedIn) return;
    event.preventDefault();
    addLine(defaultLine(taxes, units, rules.vat));
  };
  // The line's fields are compact (size inline): a line is a row of the document, not a form card.
  const input = (
    field: TextField,
    label: string,
    extra: Omit<React.InputHTMLAttributes<HTMLInputElement>, 'size'> = {},
    className?: string,
  ) => (
    <Field label={label} size="inline" error={error(field)} readOnly={readOnly} className={className}>
      <Input
        size="inline"
        value={shownAmount(line[field], ZERO_AS_EMPTY.has(field))}
        onChange={(e) => write(field)(e.target.value)}
        {...extra}
      />
    </Field>
  );
  const choice = (
    field: 'unit' | 'discount_type' | 'kind',
    label: string,
    options: readonly { value: string; label: string }[],
    className?: string,
  ) => (
    <Field label={label} size="inline" error={error(field)} disabled={readOnly} className={className}>
      <Select size="inline" value={String(line[field] ?? '')} onChange={write(field)} options={options} disabled={readOnly} />
    </Field>
  );
  return (
    // The line's fields as one group: Enter typed in any of them bubbles here.
    <fieldset id={id} className={styles.body} onKeyDown={onKeyDown}>
      {!readOnly && (
        <div className={styles.full}>
          <ItemPicker
            taxes={taxes}
            onPick={(item) => {
              Object.assign(target(), {
                code: item.code,
                sku: item.sku,
                item: item.name,
                description: item.description,
                unit: item.unit,
                // The catalogue's number as is, like a loaded line's: the field shows it the French way.
                unit_price: item.unit_price,
                kind: item.kind,
                // Under the franchise en base a catalogue rate is not carried over (CGI art. 293 B).
                taxes: rules.vat ? item.taxes : [],
              });
            }}
          />
        </div>
      )}
      {input('item', 'Désignation', { autoFocus: !line.item && !readOnly, placeholder: 'Ex. Développement du site' }, styles.wide)}
      {input('code', 'Code')}
      {input('sku', 'Référence')}
      <Field label="Description" size="inline" readOnly={readOnly} className={styles.full}>
        <Textarea
          size="inline"
          className={styles.area}
          value={line.description}
          onChange={(e) => write('description')(e.target.value)}
          rows={2}
        />
      </Field>
      {input('quantity', 'Quantité', { inputMode: 'decimal' })}
      {choice(
        'unit',
        'Unité',
        [...new Set([line.unit ?? '', ...units.map((u) => u.name)])].filter(Boolean).map((name) => ({ value: name, label: name })),
      )}
      <Field label="Prix unitaire" size="inline" error={error('unit_price')} readOnly={readOnly}>
        {/* Tidied once typed: '1200.5' reads back as '1 200,50'. */}
        <AmountInput size="inline" placeholder="0,00" value={shownAmount(line.unit_price)} onChange={write('unit_price')} />
      </Field>
      {choice('discount_type', 'Type de remise', DISCOUNT_TYPES)}
      {input('discount_value', 'Remise', { inputMode: 'decimal', placeholder: '0' })}
      {choice('kind', 'Nature', KINDS, styles.double)}
      <div className={styles.full}>
        <TaxChoice
          label="TVA"
          name={`${id}-tax`}
          rates={taxes}
          value={(line.taxes ?? []).map((t) => ({ title: t.title, rate: typedNumber(t.rate) }))}
          onChange={(next) => {
            clearError(`items.${index}.taxes`);
            target().taxes = next;
          }}
          rules={rules}
          readOnly={readOnly}
          error={error('taxes')}
        />
      </div>
    </fieldset>
  );
}
