import { nowIso } from '../clock';
import { parisToday } from '../../shared/paris-date';

/** Today in Paris: business dates are French (shared/paris-date.ts). */
export const todayIso = parisToday;

/** Now, or just after `previous` when the clock has not moved past it: a document's `updated_at` is its version. */
export function laterThan(previous: string): string {
  const now = nowIso();
  const after = Date.parse(previous) + 1;
  return now > previous || Number.isNaN(after) ? now : new Date(after).toISOString();
}
