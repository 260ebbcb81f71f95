import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { Field, Input } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { type Comparison, openingPeriod, type PeriodKind, periodOf } from '../../../shared/report-period';
import { parisToday } from '../../../shared/paris-date';

/** The period picker of /reports: a month, a quarter, a year or two dates, and what the figures are compared with. */

const styles = {
  controls: css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-end' }),
  field: css({ minW: '40', flex: { base: '1 1 40%', sm: '0 0 auto' } }),
};

const KINDS: Record<PeriodKind, string> = { month: 'Mois', quarter: 'Trimestre', year: 'Année', custom: 'Personnalisée' };
const COMPARISONS: Record<Comparison, string> = {
  previous_year: 'L’année précédente',
  previous_period: 'La période précédente',
  none: 'Rien',
};

export const today = parisToday();
const defaultAnchor = (kind: PeriodKind) =>
  kind === 'month'
    ? today.slice(0, 7)
    : kind === 'quarter'
      ? `${today.slice(0, 4)}-Q${Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 1}`
      : today.slice(0, 4);
const years = Array.from({ length: 8 }, (_, i) => String(Number(today.slice(0, 4)) - i));
const KIND_OPTIONS = Object.entries(KINDS).map(([value, label]) => ({ value, label }));
const QUARTER_OPTIONS = years.flatMap((y) => [4, 3, 2, 1].map((q) => ({ value: `${y}-Q${q}`, label: `T${q} ${y}` })));
const YEAR_OPTIONS = years.map((y) => ({ value: y, label: y }));
const COMPARISON_OPTIONS = Object.entries(COMPARISONS).map(([value, label]) => ({ value, label }));

/** What was picked and what follows from it: the range asked, the one compared (or null), the chart's grouping. */
export function usePeriod() {
  const opening = openingPeriod(today);
  const [kind, setKind] = useState<PeriodKind>(opening.kind);
  const [anchor, setAnchor] = useState(opening.anchor);
  const [custom, setCustom] = useState(opening.custom);
  const [comparison, setComparison] = useState<Comparison>(opening.comparison);
  const picked = { kind, anchor, custom, comparison };
  const { range, compared, group } = periodOf(picked);
  return {
    picked,
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
    compared,
    group,
  };
}

export function PeriodPicker({ picked, set }: Pick<ReturnType<typeof usePeriod>, 'picked' | 'set'>) {
  const { kind, anchor, custom, comparison } = picked;
  return (
    <div className={styles.controls}>
      <Field label="Période" className={styles.field}>
        <Select value={kind} options={KIND_OPTIONS} onChange={(next) => set.kind(next as PeriodKind)} />
      </Field>
      {kind === 'month' && (
        <Field label="Mois" className={styles.field}>
          <Input type="month" value={anchor} onChange={(e) => e.target.value && set.anchor(e.target.value)} />
        </Field>
      )}
      {kind === 'quarter' && (
        <Field label="Trimestre" className={styles.field}>
          <Select value={anchor} options={QUARTER_OPTIONS} onChange={set.anchor} />
        </Field>
      )}
      {kind === 'year' && (
        <Field label="Année" className={styles.field}>
          <Select value={anchor} options={YEAR_OPTIONS} onChange={set.anchor} />
        </Field>
      )}
      {kind === 'custom' && (
        <>
          <Field label="Du" className={styles.field}>
            <Input type="date" value={custom.from} onChange={(e) => set.custom({ ...custom, from: e.target.value })} />
          </Field>
          <Field label="Au" className={styles.field}>
            <Input type="date" value={custom.to} onChange={(e) => set.custom({ ...custom, to: e.target.value })} />
          </Field>
        </>
      )}
      <Field label="Comparer avec" className={styles.field}>
        <Select value={comparison} options={COMPARISON_OPTIONS} onChange={(next) => set.comparison(next as Comparison)} />
      </Field>
    </div>
  );
}
