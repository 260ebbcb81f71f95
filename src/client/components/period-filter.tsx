import { css } from '../../../styled-system/css';
import { PERIODS } from '../../shared/list-fields';
import { PERIOD_LABELS, type Period } from '../../shared/periods';
import { Field, Input } from './ui/field';
import { Select } from './ui/select';
import { listStyles } from './ui/list';

type SetQuery = (patch: Record<string, string | undefined>) => void;

const styles = {
  pair: css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2' }),
};

const OPTIONS = [{ value: '', label: 'Toutes les dates' }, ...PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))];

/**
 * The filter panels' « Période » (documents, expenses): a named period, or « custom » with its two dates. Every value
 * lives in the URL; leaving « custom » clears the dates.
 */
export function PeriodFilter({
  period,
  from,
  to,
  set,
}: {
  period: Period | undefined;
  from: string | undefined;
  to: string | undefined;
  set: SetQuery;
}) {
  return (
    <>
      {/* The panel's own label look (uppercase, like its other filters); the Field still ties it to the control. */}
      <Field label={<span className={listStyles.label}>Période</span>}>
        <Select
          value={period ?? ''}
          options={OPTIONS}
          onChange={(value) => set({ period: value, ...(value !== 'custom' && { from: '', to: '' }) })}
        />
      </Field>
      {period === 'custom' && (
        <div className={styles.pair}>
          <Field label="Du" size="sm">
            <Input type="date" value={from ?? ''} max={to} onChange={(e) => set({ from: e.target.value })} />
          </Field>
          <Field label="Au" size="sm">
            <Input type="date" value={to ?? ''} min={from} onChange={(e) => set({ to: e.target.value })} />
          </Field>
        </div>
      )}
    </>
  );
}
