import type { Db } from '../db/connection';
import { occurrencesBetween } from '../../shared/recurrence';
import { activeRecurringExpenses, recordOccurrences } from '../db/queries/recurring-expenses';
import type { Job } from './scheduler';
import { activeRecurringInvoices } from '../db/queries/recurring-invoices';
import { makeOccurrence, type RecurringDeps } from '../services/recurring-invoices';
import { logger } from '../logger';

/** The calendar day in France at `now`: an occurrence falls due on its French date. */
export const parisDate = (now: Date): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(now);

/** Makes every due occurrence of every running recurring expense into an expense, exactly once. */
export async function generateRecurringExpenses(db: Db, now: Date): Promise<string> {
  const today = parisDate(now);
  let created = 0;
  for (const recurring of await activeRecurringExpenses(db)) {
    const dates = occurrencesBetween(recurring, recurring.generated_until, today);
    created += await recordOccurrences(db, { organizationId: recurring.organizationId, recurring, dates });
  }
  return `${created} dépense${created > 1 ? 's' : ''} créée${created > 1 ? 's' : ''}`;
}

/**
 * Makes every due occurrence of every running recurring invoice (issue 15 §3), oldest first across organisations'
 * models, each exactly once (services/recurring-invoices.ts makeOccurrence). An occurrence the model cannot make
 * (an archived customer…) is logged and tried again at the next run; the others go on.
 */
export async function generateRecurringInvoices(db: Db, now: Date, deps?: RecurringDeps): Promise<string> {
  if (!deps) throw new Error('recurring-invoices: the scheduler was built without the mailer and the archiver');
  const today = parisDate(now);
  const due = (await activeRecurringInvoices(db))
    .flatMap((r) => occurrencesBetween(r, r.generated_until, today).map((date) => ({ r, date })))
    .sort((a, b) => a.date.localeCompare(b.date) || a.r.id - b.r.id);
  let created = 0;
  let failed = 0;
  for (const { r, date } of due) {
    try {
      if (await makeOccurrence({ ...deps, db }, r, date, today)) created++;
    } catch (error) {
      failed++;
      logger.error(`recurring invoice ${r.id}: occurrence ${date} not made`, error);
    }
  }
  const made = `${created} facture${created > 1 ? 's' : ''} générée${created > 1 ? 's' : ''}`;
  return failed > 0 ? `${made}, ${failed} en échec` : made;
}

/** Every timed job of the product; reminders and recurring invoices (issue 15) join this list. */
export const JOBS: Job[] = [
  { name: 'recurring-expenses', pattern: '5 * * * *', run: generateRecurringExpenses },
  { name: 'recurring-invoices', pattern: '10 * * * *', run: generateRecurringInvoices },
];
