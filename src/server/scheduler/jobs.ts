import type { Db } from '../db/connection';
import { occurrencesBetween } from '../../shared/recurrence';
import { activeRecurringExpenses, recordOccurrences } from '../db/queries/recurring-expenses';
import type { Job } from './scheduler';
import { sendAppointmentReminders } from '../services/appointment-reminders';

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

/** Every timed job of the product; reminders and recurring invoices (issue 15) join this list. */
export const JOBS: Job[] = [
  { name: 'recurring-expenses', pattern: '5 * * * *', run: generateRecurringExpenses },
  { name: 'appointment-reminders', pattern: '*/5 * * * *', run: sendAppointmentReminders },
];
