import { css } from '../../../styled-system/css';
import { PERIODS } from '../../shared/schemas/filters';
import { PERIOD_LABELS, type Period } from '../../shared/periods';
import { inputStyle } from './ui/text-field';
import { listStyles } from './ui/list';

type SetQuery = (patch: Record<string, string | undefined>) => void;

const styles = {
  ...listStyles,
  pair: css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2' }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', minW: '0' }),
  small: css({ fontSize: 'xs', color: 'fg.muted' }),
};

/**
 * The filter panels' « Période » (documents, expenses): a named period, or « custom » with its two dates. Every value
 * lives in the URL; leaving « custom » clears the dates.
 */
export function PeriodFilter({
  id,
  period,
  from,
  to,
  set,
}: {
  id: string;
  period: Period | undefined;
  from: string | undefined;
  to: string | undefined;
  set: SetQuery;
}) {
  return (
    <>
      <label className={styles.label} htmlFor={id}>
        Période
      </label>
      <select
        id={id}
        className={inputStyle}
        value={period ?? ''}
        onChange={(e) => set({ period: e.target.value, ...(e.target.value !== 'custom' && { from: '', to: '' }) })}
      >
        <option value="">Toutes les dates</option>
        {PERIODS.map((p) => (
          <option key={p} value={p}>
            {PERIOD_LABELS[p]}
          </option>
        ))}
      </select>
      {period === 'custom' && (
        <div className={styles.pair}>
          <label className={styles.field}>
            <span className={styles.small}>Du</span>
            <input className={inputStyle} type="date" value={from ?? ''} max={to} onChange={(e) => set({ from: e.target.value })} />
          </label>
          <label className={styles.field}>
            <span className={styles.small}>Au</span>
            <input className={inputStyle} type="date" value={to ?? ''} min={from} onChange={(e) => set({ to: e.target.value })} />
          </label>
        </div>
      )}
    </>
  );
}
