import type { Updateable } from 'kysely';
import type { Db } from '../connection';
import type { EinvoiceFlowsTable } from '../schema';

/** The outbox of outgoing flows (migration 0045, services/einvoice-outbox.ts). Times are ISO instants. */

const flowColumns = [
  'id',
  'organization_id',
  'document_id',
  'tracking_id',
  'state',
  'syntax',
  'profile',
  'attempts',
  'polls',
  'next_attempt_at',
  'uncertain',
  'flow_id',
  'ack_status',
  'reasons',
  'last_error',
  'last_request_id',
  'last_attempt_at',
  'submitted_at',
  'acknowledged_at',
] as const;

/** The states the outbox works on: a submission to make, or an acknowledgement to read. */
const ACTIVE = ['pending', 'submitted'];

/**
 * The outbox's two queues: invoices and credit notes (migration 0045), lifecycle messages (migration 0047). Both hold
 * the same outbox columns, which the queries below name through the first one's type.
 */
export type OutboxTable = 'einvoice_flows' | 'einvoice_status_flows';
const queue = (table: OutboxTable = 'einvoice_flows') => table as 'einvoice_flows';

export async function findFlowOfDocument(db: Db, params: { organizationId: number; documentId: number }) {
  return db
    .selectFrom('einvoice_flows')
    .select(flowColumns)
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .executeTakeFirst();
}
export type FlowRow = NonNullable<Awaited<ReturnType<typeof findFlowOfDocument>>>;

export async function findFlow(db: Db, params: { id: number }): Promise<FlowRow | undefined> {
  return db.selectFrom('einvoice_flows').select(flowColumns).where('id', '=', params.id).executeTakeFirst();
}

/** Queues a document's submission once: false when it already has one (its unique key). */
export async function insertFlow(
  db: Db,
  params: { organizationId: number; documentId: number; trackingId: string; now: string },
): Promise<boolean> {
  const result = await db
    .insertInto('einvoice_flows')
    .values({
      organization_id: params.organizationId,
      document_id: params.documentId,
      tracking_id: params.trackingId,
      state: 'pending',
      next_attempt_at: params.now,
      created_at: params.now,
      updated_at: params.now,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'document_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** What is due at `now` and held by nobody (or by a holder whose lease lapsed: a crash), soonest first. */
export async function dueFlowIds(db: Db, params: { now: string; limit: number; table?: OutboxTable }): Promise<number[]> {
  const rows = await db
    .selectFrom(queue(params.table))
    .select('id')
    .where('state', 'in', ACTIVE)
    .where('next_attempt_at', '<=', params.now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', params.now)]))
    .orderBy('next_attempt_at')
    .limit(params.limit)
    .execute();
  return rows.map((r) => r.id);
}

/** When the outbox has something to do next (null: nothing waits). */
export async function nextFlowDueAt(db: Db, table?: OutboxTable): Promise<string | null> {
  const row = await db
    .selectFrom(queue(table))
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('state', 'in', ACTIVE)
    .executeTakeFirst();
  return row?.at ?? null;
}

/**
 * Takes a due row for one attempt: one UPDATE whose WHERE only one process can satisfy (SQLite serialises writes;
 * PostgreSQL re-checks the WHERE on the row it locked), so two processes never work on the same submission.
 */
export async function claimFlow(
  db: Db,
  params: { id: number; holder: string; now: string; until: string; table?: OutboxTable },
): Promise<boolean> {
  const result = await db
    .updateTable(queue(params.table))
    .set({ lease_holder: params.holder, lease_until: params.until })
    .where('id', '=', params.id)
    .where('state', 'in', ACTIVE)
    .where('next_attempt_at', '<=', params.now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', params.now)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

type FlowChanges = Omit<Updateable<EinvoiceFlowsTable>, 'id' | 'organization_id' | 'document_id' | 'tracking_id' | 'created_at'>;

/**
 * Writes what the holder of a claim learnt, only while it still holds it (a lease taken over meanwhile wins), and
 * releases the claim unless `keepLease`. False when the claim was lost.
 */
export async function updateClaimedFlow(
  db: Db,
  params: { id: number; holder: string; now: string; changes: FlowChanges; keepLease?: boolean; table?: OutboxTable },
): Promise<boolean> {
  const release = params.keepLease ? {} : { lease_holder: null, lease_until: null };
  const result = await db
    .updateTable(queue(params.table))
    .set({ ...params.changes, ...release, updated_at: params.now })
    .where('id', '=', params.id)
    .where('lease_holder', '=', params.holder)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** « Renvoyer » (and the first « Transmettre » of a queued one): due now, with a fresh count of attempts if it had given up. */
export async function makeFlowDueNow(db: Db, params: { id: number; now: string; restart: boolean }): Promise<void> {
  await db
    .updateTable('einvoice_flows')
    .set({
      next_attempt_at: params.now,
      updated_at: params.now,
      // A refused flow stays refused on the platform: the next submission is a new flow, with its own id.
      ...(params.restart ? { state: 'pending', attempts: 0, flow_id: null, ack_status: null, reasons: '[]' } : {}),
    })
    .where('id', '=', params.id)
    .where('state', 'in', params.restart ? ['error', 'to_resend'] : ACTIVE)
    .execute();
}
