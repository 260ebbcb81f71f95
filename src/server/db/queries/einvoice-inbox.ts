import type { Insertable } from 'kysely';
import type { Db } from '../connection';
import type { EinvoiceReceivedFlowsTable } from '../schema';

/** The cursor of incoming flows and the flows handled (migration 0046, services/einvoice-inbox.ts). Times are ISO instants. */

/** The organisations whose invoices come through the platform's API: those the scheduler searches for. */
export async function organizationsReceivingFlows(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('einvoicing_settings').select('organization_id').where('mode', '=', 'afnor').execute();
  return rows.map((r) => r.organization_id);
}

export async function findInbox(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('einvoice_inbox')
    .select(['updated_after', 'lease_holder', 'lease_until', 'last_sync_at', 'last_error'])
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirst();
}

/**
 * Takes the organisation's search for one holder until `until`: the row is created on the first search, then one
 * UPDATE whose WHERE only one search can satisfy (a free or lapsed lease). False when another holds it.
 */
export async function claimInbox(db: Db, params: { organizationId: number; holder: string; now: string; until: string }): Promise<boolean> {
  await db
    .insertInto('einvoice_inbox')
    .values({ organization_id: params.organizationId, updated_at: params.now })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
  const result = await db
    .updateTable('einvoice_inbox')
    .set({ lease_holder: params.holder, lease_until: params.until })
    .where('organization_id', '=', params.organizationId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', params.now)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Moves the cursor forward (never back) and renews the lease, only while the holder still holds it: in the transaction
 * of a flow's effect, a lease taken over meanwhile makes the whole transaction roll back. False when it was lost.
 */
export async function advanceInbox(
  db: Db,
  params: { organizationId: number; holder: string; updatedAfter: string | null; now: string; until: string },
): Promise<boolean> {
  const current = await db
    .selectFrom('einvoice_inbox')
    .select(['updated_after', 'lease_holder'])
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirst();
  if (current?.lease_holder !== params.holder) return false;
  const next =
    params.updatedAfter !== null && (current.updated_after === null || params.updatedAfter > current.updated_after)
      ? params.updatedAfter
      : current.updated_after;
  const result = await db
    .updateTable('einvoice_inbox')
    .set({ updated_after: next, lease_until: params.until, updated_at: params.now })
    .where('organization_id', '=', params.organizationId)
    .where('lease_holder', '=', params.holder)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends a search: the lease given back, with its outcome ('' when it went through). */
export async function releaseInbox(db: Db, params: { organizationId: number; holder: string; now: string; error: string }): Promise<void> {
  await db
    .updateTable('einvoice_inbox')
    .set({ lease_holder: null, lease_until: null, last_sync_at: params.now, last_error: params.error, updated_at: params.now })
    .where('organization_id', '=', params.organizationId)
    .where('lease_holder', '=', params.holder)
    .execute();
}

const receivedColumns = [
  'id',
  'flow_id',
  'flow_type',
  'name',
  'state',
  'reason',
  'expense_id',
  'document_id',
  'status_code',
  'flow_updated_at',
  'received_at',
] as const;

/** Whether the flow was handled already (the search windows overlap on purpose). */
export async function isFlowReceived(db: Db, params: { organizationId: number; flowId: string }): Promise<boolean> {
  const row = await db
    .selectFrom('einvoice_received_flows')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('flow_id', '=', params.flowId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a flow as handled, once: false when another process recorded it first (its unique key). */
export async function insertReceivedFlow(db: Db, values: Insertable<EinvoiceReceivedFlowsTable>): Promise<boolean> {
  const result = await db
    .insertInto('einvoice_received_flows')
    .values(values)
    .onConflict((oc) => oc.columns(['organization_id', 'flow_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** What came in lately, the latest first, with the number of the invoice a status was about. */
export async function listReceivedFlows(db: Db, params: { organizationId: number; limit: number }) {
  return db
    .selectFrom('einvoice_received_flows as f')
    .leftJoin('documents as d', (j) => j.onRef('d.id', '=', 'f.document_id').onRef('d.organization_id', '=', 'f.organization_id'))
    .select(receivedColumns.map((c) => `f.${c}` as const))
    .select(['d.number as document_number', 'd.type as document_type'])
    .where('f.organization_id', '=', params.organizationId)
    .orderBy('f.received_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(params.limit)
    .execute();
}
export type ReceivedFlowRow = Awaited<ReturnType<typeof listReceivedFlows>>[number];

/** The flow an expense came from (a supplier invoice received from the platform). */
export async function findFlowOfExpense(db: Db, params: { organizationId: number; expenseId: number }) {
  return db
    .selectFrom('einvoice_received_flows')
    .select(receivedColumns)
    .where('organization_id', '=', params.organizationId)
    .where('expense_id', '=', params.expenseId)
    .where('state', '=', 'imported')
    .executeTakeFirst();
}
