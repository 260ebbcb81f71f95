/** What the statistics share between the server and the screens. */

import { addDays } from './payment-terms';

/**
 * The franchise en base thresholds (CGI art. 293 B) in force for 2025 and 2026, in euros of receipts over a calendar
 * year: sales of goods (and lodging) and services. The 2025 plan of a single 25 000 € threshold was abandoned.
 */
export const FRANCHISE_THRESHOLDS = { goods: 85_000, services: 37_500 } as const;

/** The longest period the DSO looks back on, and the shortest billing history it says anything about. */
export const DSO_MAX_DAYS = 365;
export const DSO_MIN_DAYS = 30;

/**
 * The period the DSO is computed on: the last 365 days, or fewer when the first invoice is more recent (a business
 * that began billing last week has no year of sales to divide by). Null when that history is shorter than 30 days:
 * receivables ÷ sales × days then measures how recently invoices were issued, not how fast customers pay.
 */
export function dsoPeriod(today: string, firstInvoice: string | null): { from: string; days: number } | null {
  if (!firstInvoice) return null;
  const yearAgo = addDays(today, -(DSO_MAX_DAYS - 1));
  const from = firstInvoice > yearAgo ? firstInvoice : yearAgo;
  const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  return days >= DSO_MIN_DAYS ? { from, days } : null;
}
