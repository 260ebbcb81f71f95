import type { Db } from '../db/connection';
import { occurrencesBetween } from '../../shared/recurrence';
import { activeRecurringExpenses, recordOccurrences } from '../db/queries/recurring-expenses';
import { pollAllPlatforms } from '../services/einvoice-send';
import { runPaymentReminders } from '../services/payment-reminders';
import type { Job, JobDeps } from './scheduler';

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

/** A job that mails or reaches the platform needs the app's services, which a bare scheduler lacks. */
function needs(deps: JobDeps | undefined): JobDeps {
  if (!deps) throw new Error('Cette tâche a besoin du serveur (e-mail, PDF, plateforme) : lancez-la avec npm run jobs:run');
  return deps;
}

/** Reads the approved platform's lifecycle statuses of every transmitted invoice (issue 13 §6). */
export async function pollEinvoiceStatuses(_db: Db, _now: Date, deps?: JobDeps): Promise<string> {
  const { db, einvoice } = needs(deps);
  const report = await pollAllPlatforms(db, einvoice.connector);
  return `Statuts relevés : ${report.recorded} ; refusés (transition impossible) : ${report.refused}`;
}

/** Every timed job of the product; reminders and recurring invoices (issue 15) join this list. */
export const JOBS: Job[] = [
  { name: 'recurring-expenses', label: 'Dépenses répétitives', pattern: '5 * * * *', run: generateRecurringExpenses },
  // Daily in the morning, and at each start (what fell due while down): a customer is not mailed in the night.
  {
    name: 'payment-reminders',
    label: 'Relances de paiement',
    pattern: '0 9 * * *',
    run: (_db, now, deps) => runPaymentReminders(needs(deps), now),
  },
  { name: 'einvoice-poll', label: 'Statuts des factures électroniques', pattern: '*/15 * * * *', run: pollEinvoiceStatuses },
];
