import { type Selectable, sql } from 'kysely';
import { isOneOfIds } from '../dialect';
import type { Db } from '../connection';
import type { PaymentRemindersTable } from '../schema';
import { OPEN_STATUSES } from '../../../shared/document-status';

export type PaymentReminderRow = Selectable<PaymentRemindersTable>;

/**
 * An organisation's issued invoices still to be paid, with a due date: those a reminder may concern.
 * `maturityOnOrBefore`: only those due on or before that day (a step can fall due for no other). The customer's
 * address as it is now, else the one frozen at issue.
 */
export async function listRemindableInvoices(db: Db, params: { organizationId: number; maturityOnOrBefore?: string }) {
  let query = db
    .selectFrom('documents')
    .leftJoin('customers', 'customers.id', 'documents.customer_id')
    .select([
      'documents.id',
      'documents.number',
      'documents.maturity',
      'documents.amount_due',
      'documents.currency',
      'documents.customer_name',
      'documents.customer_snapshot',
      'customers.email as customer_email',
    ])
    .where('documents.organization_id', '=', params.organizationId)
    .where('documents.type', '=', 'invoice')
    .where('documents.status', 'in', OPEN_STATUSES)
    .where('documents.amount_due', '>', 0)
    .where('documents.maturity', 'is not', null)
    .where('documents.number', 'is not', null);
  if (params.maturityOnOrBefore !== undefined) query = query.where('documents.maturity', '<=', params.maturityOnOrBefore);
  return query.orderBy('documents.maturity').orderBy('documents.id').execute();
}

/**
 * The reminders of these invoices, by invoice (step order within each). The ids are bound as one parameter: an
 * organisation may owe on more invoices than SQLite takes bound variables (32,766).
 */
export async function listRemindersOf(
  db: Db,
  params: { organizationId: number; documentIds: number[] },
): Promise<Map<number, PaymentReminderRow[]>> {
  const byDocument = new Map<number, PaymentReminderRow[]>();
  if (params.documentIds.length === 0) return byDocument;
  const rows = await db
    .selectFrom('payment_reminders')
    .selectAll()
    .where('organization_id', '=', params.organizationId)
    .where(isOneOfIds(db, sql.ref('document_id'), params.documentIds))
    .orderBy('step')
    .execute();
  for (const row of rows) byDocument.get(row.document_id)?.push(row) ?? byDocument.set(row.document_id, [row]);
  return byDocument;
}

/**
 * Takes the (document, step) row for sending: inserted, or taken back when its last attempt failed. Nothing when
 * the step is sent or being sent by someone else: the UNIQUE key and this one statement decide, whoever runs it.
 * A row left 'sending' by a process that died mid-send is never taken back: the mail may have left, and a customer
 * reminded twice is worse than a reminder that waits for the next step.
 */
export async function claimReminder(
  db: Db,
  params: { organizationId: number; documentId: number; step: number; trigger: 'automatic' | 'manual'; now: string },
): Promise<PaymentReminderRow | undefined> {
  return db
    .insertInto('payment_reminders')
    .values({
      organization_id: params.organizationId,
      document_id: params.documentId,
      step: params.step,
      status: 'sending',
      trigger: params.trigger,
      created_at: params.now,
      updated_at: params.now,
    })
    .onConflict((oc) =>
      oc
        .columns(['document_id', 'step'])
        .doUpdateSet({ status: 'sending', trigger: params.trigger, updated_at: params.now })
        .where('payment_reminders.status', '=', 'failed'),
    )
    .returningAll()
    .executeTakeFirst();
}

export async function finishReminder(
  db: Db,
  params: {
    id: number;
    status: 'sent' | 'failed';
    recipients: string;
    subject: string;
    error: string;
    sentAt: string | null;
    now: string;
  },
): Promise<void> {
  await db
    .updateTable('payment_reminders')
    .set((eb) => ({
      status: params.status,
      recipients: params.recipients,
      subject: params.subject,
      error: params.error,
      sent_at: params.sentAt,
      attempts: eb('attempts', '+', 1),
      updated_at: params.now,
    }))
    .where('id', '=', params.id)
    .execute();
}
