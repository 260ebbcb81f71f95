/**
 * Dates of a repeating rule (recurring expenses; recurring invoices may share it). Every occurrence is computed from
 * the start date, never from the previous one, so a 31st stays the 31st (or the month's last day) all year long.
 * `interval` makes it every N periods; `month_end` the last day of each month; `occurrences` a count instead of an end.
 */
export const FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const FREQUENCY_LABELS: Record<Frequency, string> = {
  weekly: 'Chaque semaine',
  monthly: 'Chaque mois',
  quarterly: 'Chaque trimestre',
  yearly: 'Chaque année',
};

export interface RecurrenceRule {
  frequency: Frequency;
  start_date: string;
  end_date?: string | null;
  /** Every N weeks, months, quarters or years (1 when not given). */
  interval?: number;
  /** Stops after this many occurrences (none given: no limit but the end date). */
  occurrences?: number | null;
  /** Months, quarters and years fall on the last day of their month, whatever the start date's day. */
  month_end?: boolean;
}

/** « Chaque mois », « Toutes les 2 semaines », « Tous les 3 mois (le dernier jour) »… */
export function frequencyLabel(rule: Pick<RecurrenceRule, 'frequency' | 'interval' | 'month_end'>): string {
  const n = rule.interval ?? 1;
  const every =
    n === 1
      ? FREQUENCY_LABELS[rule.frequency]
      : {
          weekly: `Toutes les ${n} semaines`,
          monthly: `Tous les ${n} mois`,
          quarterly: `Tous les ${n} trimestres`,
          yearly: `Tous les ${n} ans`,
        }[rule.frequency];
  return rule.month_end && rule.frequency !== 'weekly' ? `${every}, le dernier jour du mois` : every;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const MONTHS: Record<Exclude<Frequency, 'weekly'>, number> = { monthly: 1, quarterly: 3, yearly: 12 };

/** The n-th occurrence (0 = the start date). */
export function occurrenceAt(rule: RecurrenceRule, n: number): string {
  const [y, m, d] = rule.start_date.split('-').map(Number) as [number, number, number];
  const step = n * (rule.interval ?? 1);
  if (rule.frequency === 'weekly') return iso(new Date(Date.UTC(y, m - 1, d + 7 * step)));
  const month = m - 1 + MONTHS[rule.frequency] * step;
  const lastDay = new Date(Date.UTC(y, month + 1, 0)).getUTCDate();
  return iso(new Date(Date.UTC(y, month, rule.month_end ? lastDay : Math.min(d, lastDay))));
}

/** Past the end date or the number of occurrences: the rule makes no `n`-th occurrence. */
const isOver = (rule: RecurrenceRule, n: number, date: string) =>
  Boolean((rule.end_date && date > rule.end_date) || (rule.occurrences != null && n >= rule.occurrences));

/** Occurrences after `after` (exclusive; none given = from the start) up to `until` (inclusive), within the end date. */
export function occurrencesBetween(rule: RecurrenceRule, after: string | null, until: string, max = 5000): string[] {
  const out: string[] = [];
  for (let n = 0; n < max; n++) {
    const date = occurrenceAt(rule, n);
    if (date > until || isOver(rule, n, date)) break;
    if (!after || date > after) out.push(date);
  }
  return out;
}

/** The next occurrence after `after` (null once the end date is passed). */
export function nextOccurrence(rule: RecurrenceRule, after: string | null): string | null {
  for (let n = 0; n < 100_000; n++) {
    const date = occurrenceAt(rule, n);
    if (isOver(rule, n, date)) return null;
    if (!after || date > after) return date;
  }
  return null;
}
