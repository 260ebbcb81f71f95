import type { ReportGroup } from './schemas/reports';
import { frenchDateFormat } from './french-date-format';

/** The period picker of /reports: a month, a quarter, a year or two dates, and what it is compared with. */
export type PeriodKind = 'month' | 'quarter' | 'year' | 'custom';
export type Comparison = 'previous_year' | 'previous_period' | 'none';

export interface ReportPeriod {
  kind: PeriodKind;
  /** 'YYYY-MM' for a month, 'YYYY-Qn' for a quarter, 'YYYY' for a year. */
  anchor: string;
  from: string;
  to: string;
}

const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const monthsBetween = (from: string, to: string) =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) + 1;

/** The first and last days of the period picked. */
export function rangeOf(kind: PeriodKind, anchor: string, custom: { from: string; to: string }): { from: string; to: string } {
  const y = Number(anchor.slice(0, 4));
  if (kind === 'month') {
    const m = Number(anchor.slice(5, 7)) - 1;
    return { from: iso(y, m, 1), to: iso(y, m + 1, 0) };
  }
  if (kind === 'quarter') {
    const q = (Number(anchor.slice(6)) - 1) * 3;
    return { from: iso(y, q, 1), to: iso(y, q + 3, 0) };
  }
  if (kind === 'year') return { from: iso(y, 0, 1), to: iso(y, 11, 31) };
  return custom;
}

/** The period the figures are set beside: the same one a year earlier, or the one just before, as long. */
export function comparedRange(range: { from: string; to: string }, comparison: Comparison): { from: string; to: string } | null {
  if (comparison === 'none') return null;
  const shift = (date: string, months: number, end: boolean) => {
    const y = Number(date.slice(0, 4));
    const m = Number(date.slice(5, 7)) - 1 - months;
    // Whole months stay whole months (28 February ↔ 29 February); a custom day keeps its day.
    const lastDay = iso(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0) === date;
    return end && lastDay ? iso(y, m + 1, 0) : iso(y, m, Number(date.slice(8, 10)));
  };
  const months = comparison === 'previous_year' ? 12 : monthsBetween(range.from, range.to);
  return { from: shift(range.from, months, false), to: shift(range.to, months, true) };
}

/** Months for up to two years, quarters up to five, years beyond: a chart stays readable. */
export function groupOf(range: { from: string; to: string }): ReportGroup {
  const months = monthsBetween(range.from, range.to);
  return months <= 24 ? 'month' : months <= 60 ? 'quarter' : 'year';
}

/** Every period key between two dates, as the server names them ('2026-03', '2026-T1', '2026'), empty ones included. */
export function periodKeys(range: { from: string; to: string }, group: ReportGroup): string[] {
  const keys: string[] = [];
  let y = Number(range.from.slice(0, 4));
  let m = Number(range.from.slice(5, 7)) - 1;
  const end = Number(range.to.slice(0, 4)) * 12 + Number(range.to.slice(5, 7)) - 1;
  while (y * 12 + m <= end) {
    const key =
      group === 'year' ? String(y) : group === 'quarter' ? `${y}-T${Math.floor(m / 3) + 1}` : `${y}-${String(m + 1).padStart(2, '0')}`;
    if (keys.at(-1) !== key) keys.push(key);
    m += 1;
    if (m === 12) [y, m] = [y + 1, 0];
  }
  return keys;
}

const monthLabel = frenchDateFormat({ month: 'short', year: 'numeric' });
/** '2026-03' → 'mars 2026', '2026-T1' → 'T1 2026', '2026' → '2026'. */
export function periodLabel(key: string): string {
  if (/^\d{4}-\d{2}$/.test(key)) return monthLabel.format(new Date(`${key}-01T00:00:00Z`));
  if (/^\d{4}-T\d$/.test(key)) return `${key.slice(5)} ${key.slice(0, 4)}`;
  return key;
}

const shortMonth = frenchDateFormat({ month: 'short' });
/**
 * What the axis of a chart over these periods writes: « avr. » under a month, « T2 » under a quarter, the year once
 * on a second line where it starts (or changes); the tooltips and the table keep the full label (periodLabel).
 */
export function periodAxis(keys: string[]): { ticks: string[]; groups: (string | null)[] } {
  return {
    ticks: keys.map((key) => {
      if (/^\d{4}-\d{2}$/.test(key)) return shortMonth.format(new Date(`${key}-01T00:00:00Z`));
      if (/^\d{4}-T\d$/.test(key)) return key.slice(5);
      return key;
    }),
    groups: keys.map((key, i) => {
      if (/^\d{4}$/.test(key)) return null;
      const year = key.slice(0, 4);
      return i === 0 || keys[i - 1]?.slice(0, 4) !== year ? year : null;
    }),
  };
}

/** A pick of the period picker: the kind, its anchor ('2026', '2026-Q2', '2026-03'), two dates, the comparison. */
export interface PickedPeriod {
  kind: PeriodKind;
  anchor: string;
  custom: { from: string; to: string };
  comparison: Comparison;
}

/** The period the statistics open on: this year, beside the previous one. */
export function openingPeriod(today: string): PickedPeriod {
  return {
    kind: 'year',
    anchor: today.slice(0, 4),
    custom: { from: `${today.slice(0, 4)}-01-01`, to: today },
    comparison: 'previous_year',
  };
}

/** What follows from a pick: the range asked, the one compared (or null), the chart's grouping. */
export function periodOf(picked: PickedPeriod) {
  const range = rangeOf(picked.kind, picked.anchor, picked.custom);
  return { range, compared: comparedRange(range, picked.comparison), group: groupOf(range) };
}
