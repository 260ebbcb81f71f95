/**
 * Dates of a repeating rule (recurring expenses; recurring invoices may share it). Every occurrence is computed from
 * the start date, never from the previous one, so a 31st stays the 31st (or the month's last day) all year long.
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
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const MONTHS: Record<Exclude<Frequency, 'weekly'>, number> = { monthly: 1, quarterly: 3, yearly: 12 };

/** The n-th occurrence (0 = the start date). */
export function occurrenceAt(rule: RecurrenceRule, n: number): string {
  const [y, m, d] = rule.start_date.split('-').map(Number) as [number, number, number];
  if (rule.frequency === 'weekly') return iso(new Date(Date.UTC(y, m - 1, d + 7 * n)));
  const month = m - 1 + MONTHS[rule.frequency] * n;
  const lastDay = new Date(Date.UTC(y, month + 1, 0)).getUTCDate();
  return iso(new Date(Date.UTC(y, month, Math.min(d, lastDay))));
}

/** Occurrences after `after` (exclusive; none given = from the start) up to `until` (inclusive), within the end date. */
export function occurrencesBetween(rule: RecurrenceRule, after: string | null, until: string, max = 5000): string[] {
  const out: string[] = [];
  for (let n = 0; n < max; n++) {
    const date = occurrenceAt(rule, n);
    if (date > until || (rule.end_date && date > rule.end_date)) break;
    if (!after || date > after) out.push(date);
  }
  return out;
}

/** The next occurrence after `after` (null once the end date is passed). */
export function nextOccurrence(rule: RecurrenceRule, after: string | null): string | null {
  for (let n = 0; n < 100_000; n++) {
    const date = occurrenceAt(rule, n);
    if (rule.end_date && date > rule.end_date) return null;
    if (!after || date > after) return date;
  }
  return null;
}
