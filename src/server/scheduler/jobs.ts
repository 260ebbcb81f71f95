import type { Db } from '../db/connection';
import { occurrencesBetween } from '../../shared/recurrence';
import { activeRecurringExpenses, recordOccurrences } from '../db/queries/recurring-expenses';
import { pollAllPlatforms } from '../services/einvoice-send';
import { runPaymentReminders } from '../services/payment-reminders';
import type { Job, JobDeps } from './scheduler';
import { activeRecurringInvoices } from '../db/queries/recurring-invoices';
import { makeOccurrence } from '../services/recurring-invoices';
import { logger } from '../logger';
import { sendAppointmentReminders } from '../services/appointment-reminders';
import { todayIso } from '../services/document-record';
import { deliverDue } from '../services/webhook-delivery';
import { emitEvent, purgeWebhookLog } from '../services/webhooks';
import { notifyEndpointDisabled } from '../services/webhook-notice';
import { WEBHOOK_LOG_RETENTION_DAYS } from '../../shared/schemas/webhook';
import { getExpense } from '../services/expenses';
import { plural, pluralWord } from '../../shared/french';
import { settlePlanChanges } from '../services/subscriptions';
import { syncAllOrganizations } from '../services/einvoice-inbox';
import { closeAuditPeriods } from '../services/audit-closings';

/** Makes every due occurrence of every running recurring expense into an expense, exactly once. */
export async function generateRecurringExpenses(db: Db, now: Date): Promise<string> {
  const today = todayIso(now); // an occurrence falls due on its French calendar date
  let created = 0;
  for (const recurring of await activeRecurringExpenses(db)) {
    const dates = occurrencesBetween(recurring, recurring.generated_until, today);
    const organizationId = recurring.organizationId;
    created += await recordOccurrences(db, {
      organizationId,
      recurring,
      dates,
      onCreated: (trx, id) => emitEvent(trx, organizationId, 'expense.created', () => getExpense(trx, organizationId, id)).then(() => {}),
    });
  }
  return `${plural(created, 'dépense')} ${pluralWord(created, 'créée')}`;
}

/** A job that mails or reaches the platform needs the app's services, which a bare scheduler lacks. */
function needs(deps: JobDeps | undefined): JobDeps {
  if (!deps) throw new Error('Cette tâche a besoin du serveur (e-mail, PDF, plateforme) : lancez-la avec npm run jobs:run');
  return deps;
}

/** Reads the approved platform's lifecycle statuses of every transmitted invoice. */
export async function pollEinvoiceStatuses(_db: Db, _now: Date, deps?: JobDeps): Promise<string> {
  const { db, einvoice } = needs(deps);
  const report = await pollAllPlatforms(db, einvoice.connector);
  return `Statuts relevés : ${report.recorded} ; refusés (transition impossible) : ${report.refused}`;
}

/**
 * Makes every due occurrence of every running recurring invoice, oldest first across organisations'
 * models, each exactly once (services/recurring-invoices.ts makeOccurrence). An occurrence the model cannot make
 * (an archived customer…) is logged and tried again at the next run; the others go on.
 */
export async function generateRecurringInvoices(db: Db, now: Date, deps?: JobDeps): Promise<string> {
  const app = needs(deps);
  const today = todayIso(now); // an occurrence falls due on its French calendar date
  const due = (await activeRecurringInvoices(db))
    .flatMap((r) => occurrencesBetween(r, r.generated_until, today).map((date) => ({ r, date })))
    .sort((a, b) => a.date.localeCompare(b.date) || a.r.id - b.r.id);
  let created = 0;
  let failed = 0;
  for (const { r, date } of due) {
    try {
      if (await makeOccurrence({ ...app, db }, r, date, today)) created++;
    } catch (error) {
      failed++;
      logger.error(`recurring invoice ${r.id}: occurrence ${date} not made`, error);
    }
  }
  const made = `${plural(created, 'facture')} ${pluralWord(created, 'générée')}`;
  return failed > 0 ? `${made}, ${failed} en échec` : made;
}

/** Sends the webhook deliveries due: the retries, and any event the kick after its commit missed. */
export async function deliverWebhooks(db: Db, now: Date, deps?: JobDeps): Promise<string> {
  const { env, mailer } = needs(deps);
  const { delivered, failed } = await deliverDue(db, now, {
    allowPrivate: env.outbound.allowPrivate,
    planLimits: env.planLimits,
    onDisabled: notifyEndpointDisabled({ db, mailer, appUrl: env.appUrl }),
  });
  return `Webhooks : ${delivered} envoyé${delivered > 1 ? 's' : ''}, ${failed} en échec`;
}

/** Deletes the webhook deliveries older than the log's retention. */
export async function purgeWebhookDeliveries(db: Db, now: Date): Promise<string> {
  const purged = await purgeWebhookLog(db, now);
  return `${plural(purged, 'envoi')} de plus de ${WEBHOOK_LOG_RETENTION_DAYS} jours ${pluralWord(purged, 'supprimé')}`;
}

/** Applies the plan changes whose moment came: a smaller plan once the usage fits, a period of ours ended. */
export async function settlePlans(db: Db, now: Date, deps?: JobDeps): Promise<string> {
  const { env, payments } = needs(deps);
  const { moved, failed } = await settlePlanChanges({ db, env, payments }, now);
  const made = `${plural(moved, 'changement')} de formule ${pluralWord(moved, 'appliqué')}`;
  return failed > 0 ? `${made}, ${failed} en échec` : made;
}

/** Every timed job of the product: one scheduler, one lease per job, one list. */
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
  // Every five minutes: a supplier invoice or a customer's refusal is seen the same morning, without hammering the platform.
  {
    name: 'einvoice-inbox',
    label: 'Réception des flux de la plateforme agréée',
    pattern: '*/5 * * * *',
    run: (_db, _now, deps) => syncAllOrganizations(needs(deps)),
  },
  { name: 'recurring-invoices', label: 'Factures récurrentes', pattern: '10 * * * *', run: generateRecurringInvoices },
  // Every five minutes: a reminder is due some minutes before its appointment, at most five late.
  {
    name: 'appointment-reminders',
    label: 'Rappels de rendez-vous',
    pattern: '*/5 * * * *',
    run: (db, now, deps) => sendAppointmentReminders(db, now, needs(deps)),
  },
  // Every minute: the first retry of a failed delivery is due a minute after it.
  { name: 'webhooks', label: 'Envoi des webhooks', pattern: '* * * * *', run: deliverWebhooks },
  // Daily, at night: the delivery log is bounded by its retention.
  { name: 'webhooks-purge', label: 'Purge du journal des webhooks', pattern: '40 3 * * *', run: purgeWebhookDeliveries },
  // Hourly: a month's document count starts again at midnight, Paris time; a freed seat is also settled at once.
  { name: 'plan-changes', label: 'Changements de formule', pattern: '15 * * * *', run: settlePlans },
  // Just after midnight, Paris time: the day (and on the first, the month; on 1 January, the year) that ended is
  // closed and signed. At start too: a period that ended while the server was down is closed then.
  { name: 'audit-closings', label: 'Clôtures du journal', pattern: '5 0 * * *', run: (db, now) => closeAuditPeriods(db, now) },
];
