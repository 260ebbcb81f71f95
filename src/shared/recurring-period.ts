import type { Frequency } from './recurrence';

/**
 * The period placeholders a recurring invoice's line texts may carry, replaced in French by the
 * occurrence they are made for: « Abonnement {month} {year} » → « Abonnement novembre 2026 ».
 */
export const PERIOD_PLACEHOLDERS = ['{month}', '{year}', '{period}'] as const;

const MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];

/** What `{period}` reads for each frequency: the week, the month, the quarter or the year of the occurrence. */
function periodText(date: string, frequency: Frequency): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  switch (frequency) {
    case 'weekly':
      return `semaine du ${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`;
    case 'monthly':
      return `${MONTHS[m - 1]} ${y}`;
    case 'quarterly':
      return `${Math.ceil(m / 3) === 1 ? '1er' : `${Math.ceil(m / 3)}e`} trimestre ${y}`;
    case 'yearly':
      return String(y);
  }
}

export function fillPeriod(text: string, date: string, frequency: Frequency): string {
  if (!text.includes('{')) return text;
  const [y, m] = date.split('-').map(Number) as [number, number];
  return text
    .replaceAll('{month}', MONTHS[m - 1] ?? '')
    .replaceAll('{year}', String(y))
    .replaceAll('{period}', periodText(date, frequency));
}
