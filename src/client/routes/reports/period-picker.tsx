import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { inputStyle } from '../../components/ui/text-field';
import { type Comparison, comparedRange, groupOf, type PeriodKind, rangeOf } from './report-period';

/** The period picker of /reports: a month, a quarter, a year or two dates, and what the figures are compared with. */

const styles = {
  controls: css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-end' }),
  field: css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm', fontWeight: '600', minW: '36' }),
};

const KINDS: Record<PeriodKind, string> = { month: 'Mois', quarter: 'Trimestre', year: 'Année', custom: 'Personnalisée' };
const COMPARISONS: Record<Comparison, string> = {
  previous_year: 'L’année précédente',
  previous_period: 'La période précédente',
  none: 'Rien',
};

export const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const defaultAnchor = (kind: PeriodKind) =>
  kind === 'month'
    ? today.slice(0, 7)
    : kind === 'quarter'
      ? `${today.slice(0, 4)}-Q${Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 1}`
      : today.slice(0, 4);
const years = Array.from({ length: 8 }, (_, i) => String(Number(today.slice(0, 4)) - i));

/** What was picked and what follows from it: the range asked, the one compared (or null), the chart's grouping. */
export function usePeriod() {
  const [kind, setKind] = useState<PeriodKind>('year');
  const [anchor, setAnchor] = useState(defaultAnchor('year'));
  const [custom, setCustom] = useState({ from: `${today.slice(0, 4)}-01-01`, to: today });
  const [comparison, setComparison] = useState<Comparison>('previous_year');
  const range = rangeOf(kind, anchor, custom);
  return {
    picked: { kind, anchor, custom, comparison },
    set: {
      kind: (next: PeriodKind) => {
        setKind(next);
        setAnchor(defaultAnchor(next));
      },
      anchor: setAnchor,
      custom: setCustom,
      comparison: setComparison,
    },
    range,
    valid: range.from <= range.to,
    compared: comparedRange(range, comparison),
    group: groupOf(range),
  };
}

export function PeriodPicker({ picked, set }: Pick<ReturnType<typeof usePeriod>, 'picked' | 'set'>) {
  const { kind, anchor, custom, comparison } = picked;
  return (
    <div className={styles.controls}>
      <div className={styles.field}>
        <label htmlFor="report-kind">Période</label>{' '}
        <select id="report-kind" className={inputStyle} value={kind} onChange={(e) => set.kind(e.target.value as PeriodKind)}>
          {Object.entries(KINDS).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {kind === 'month' && (
        <div className={styles.field}>
          <label htmlFor="report-month">Mois</label>{' '}
          <input
            id="report-month"
            type="month"
            className={inputStyle}
            value={anchor}
            onChange={(e) => e.target.value && set.anchor(e.target.value)}
          />
        </div>
      )}
      {kind === 'quarter' && (
        <div className={styles.field}>
          <label htmlFor="report-quarter">Trimestre</label>{' '}
          <select id="report-quarter" className={inputStyle} value={anchor} onChange={(e) => set.anchor(e.target.value)}>
            {years.flatMap((y) =>
              [4, 3, 2, 1].map((q) => (
                <option key={`${y}-Q${q}`} value={`${y}-Q${q}`}>
                  {`T${q} ${y}`}
                </option>
              )),
            )}
          </select>
        </div>
      )}
      {kind === 'year' && (
        <div className={styles.field}>
          <label htmlFor="report-year">Année</label>{' '}
          <select id="report-year" className={inputStyle} value={anchor} onChange={(e) => set.anchor(e.target.value)}>
            {years.map((y) => (
              <option key={y}>{y}</option>
            ))}
          </select>
        </div>
      )}
      {kind === 'custom' && (
        <>
          <div className={styles.field}>
            <label htmlFor="report-from">Du</label>{' '}
            <input
              id="report-from"
              type="date"
              className={inputStyle}
              value={custom.from}
              onChange={(e) => set.custom({ ...custom, from: e.target.value })}
            />
          </div>
          <div className={styles.field}>
            <label htmlFor="report-to">Au</label>{' '}
            <input
              id="report-to"
              type="date"
              className={inputStyle}
              value={custom.to}
              onChange={(e) => set.custom({ ...custom, to: e.target.value })}
            />
          </div>
        </>
      )}
      <div className={styles.field}>
        <label htmlFor="report-compare">Comparer avec</label>{' '}
        <select
          id="report-compare"
          className={inputStyle}
          value={comparison}
          onChange={(e) => set.comparison(e.target.value as Comparison)}
        >
          {Object.entries(COMPARISONS).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
