import type { PERIODS } from './schemas/filters';

export type Period = (typeof PERIODS)[number];

/** French labels of the list filter's periods. */
export const PERIOD_LABELS: Record<Period, string> = {
  this_month: 'Ce mois-ci',
  last_month: 'Le mois dernier',
  this_quarter: 'Ce trimestre',
  this_year: 'Cette année',
  last_year: 'L’année dernière',
  custom: 'Personnalisée',
};

const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);

/** The first and last days (YYYY-MM-DD, inclusive) of a period around `today`; `custom` takes the given bounds. */
export function periodRange(period: Period, today: string, custom: { from?: string; to?: string } = {}): { from?: string; to?: string } {
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1];
  switch (period) {
    case 'this_month':
      return { from: iso(y, m, 1), to: iso(y, m + 1, 0) };
    case 'last_month':
      return { from: iso(y, m - 1, 1), to: iso(y, m, 0) };
    case 'this_quarter': {
      const q = Math.floor(m / 3) * 3;
      return { from: iso(y, q, 1), to: iso(y, q + 3, 0) };
    }
    case 'this_year':
      return { from: iso(y, 0, 1), to: iso(y, 11, 31) };
    case 'last_year':
      return { from: iso(y - 1, 0, 1), to: iso(y - 1, 11, 31) };
    case 'custom':
      return { from: custom.from, to: custom.to };
  }
}
