/**
 * The fiscal year (exercice) a FEC covers. The organisation gives the closing date of its first fiscal year; each later
 * year closes on the same day of the same month (the last day of February stays the last day of February). The first
 * year opens with the books, whatever its length (a first fiscal year may run up to 24 months); without a first closing
 * date, fiscal years are calendar years.
 */

export type FiscalYear = {
  /** YYYY-MM-DD, null for the first fiscal year: every entry up to its closing belongs to it. */
  from: string | null;
  /** YYYY-MM-DD: the closing date, which names the FEC (LPF art. A47 A-1). */
  to: string;
};

const pad = (n: number) => String(n).padStart(2, '0');
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The closing date in `year` of fiscal years closing like `firstClosing`. */
function closingIn(firstClosing: string, year: number): string {
  const [, m, d] = firstClosing.split('-').map(Number) as [number, number, number];
  const firstYear = Number(firstClosing.slice(0, 4));
  const endOfMonth = d === lastDayOf(firstYear, m);
  const day = endOfMonth ? lastDayOf(year, m) : Math.min(d, lastDayOf(year, m));
  return `${year}-${pad(m)}-${pad(day)}`;
}

/** The day after a YYYY-MM-DD date. */
export function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * The fiscal year closing in `year`, or the French reason there is none (a year before the first closing). `year` is
 * the calendar year of the closing date: what `GET /api/exports/fec?year=` names.
 */
export function fiscalYearClosingIn(firstClosing: string | null, year: number): FiscalYear | { error: string } {
  if (firstClosing === null) return { from: `${year}-01-01`, to: `${year}-12-31` };
  const firstYear = Number(firstClosing.slice(0, 4));
  if (year < firstYear) {
    const [y, m, d] = firstClosing.split('-');
    return {
      error: `Aucun exercice ne se clôt en ${year} : le premier exercice se clôt le ${d}/${m}/${y} (Paramètres → Comptabilité)`,
    };
  }
  if (year === firstYear) return { from: null, to: firstClosing };
  return { from: dayAfter(closingIn(firstClosing, year - 1)), to: closingIn(firstClosing, year) };
}
