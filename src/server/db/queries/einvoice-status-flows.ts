import type { Insertable } from 'kysely';
import type { Db } from '../connection';
import type { EinvoiceStatusFlowsTable } from '../schema';

/** Lifecycle messages to the platform (migration 0047), worked through by the outbox (services/einvoice-outbox.ts). */

const statusFlowColumns = [
  'id',
  'organization_id',
  'tracking_id',
  'expense_id',
  'document_id',
  'status_entry_id',
  'status_code',
  'reason_code',
  'name',
  'xml',
  'state',
  'attempts',
  'polls',
  'next_attempt_at',
  'uncertain',
  'flow_id',
  'ack_status',
  'reasons',
  'last_error',
  'last_request_id',
  'submitted_at',
  'acknowledged_at',
  'created_at',
] as const;

export async function findStatusFlow(db: Db, params: { id: number }) {
  return db.selectFrom('einvoice_status_flows').select(statusFlowColumns).where('id', '=', params.id).executeTakeFirst();
}
export type StatusFlowRow = NonNullable<Awaited<ReturnType<typeof findStatusFlow>>>;

/** Queues one message: false when the same one is queued already (its unique keys). */
export async function insertStatusFlow(db: Db, values: Insertable<EinvoiceStatusFlowsTable>): Promise<boolean> {
  const result = await db
    .insertInto('einvoice_status_flows')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** The messages sent about a supplier invoice, oldest first. */
export async function listStatusFlowsOfExpense(db: Db, params: { organizationId: number; expenseId: number }) {
  return db
    .selectFrom('einvoice_status_flows')
    .select(statusFlowColumns)
    .where('organization_id', '=', params.organizationId)
    .where('expense_id', '=', params.expenseId)
    .orderBy('id')
    .execute();
}

/** The messages sent about one of the organisation's invoices, oldest first. */
export async function listStatusFlowsOfDocument(db: Db, params: { organizationId: number; documentId: number }) {
  return db
    .selectFrom('einvoice_status_flows')
    .select(statusFlowColumns)
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .orderBy('id')
    .execute();
}
