import type { Selectable } from 'kysely';
import type { Db } from '../connection';
import type { AuditClosingsTable } from '../schema';

export type ClosingRow = Omit<Selectable<AuditClosingsTable>, 'id' | 'organization_id'>;
const COLUMNS = ['number', 'period', 'period_start', 'last_sequence', 'payload', 'signature', 'created_at'] as const;

/** Every closing of an organisation in number order, for verify and for the next closing's totals. */
export async function listClosings(db: Db, params: { organizationId: number }): Promise<ClosingRow[]> {
  return db
    .selectFrom('audit_closings')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .orderBy('number', 'asc')
    .execute();
}

/** A page of the closings, newest first. */
export async function listClosingPage(db: Db, params: { organizationId: number; offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('audit_closings')
      .select(COLUMNS)
      .where('organization_id', '=', params.organizationId)
      .orderBy('number', 'desc')
      .offset(params.offset)
      .limit(params.limit)
      .execute(),
    db
      .selectFrom('audit_closings')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('organization_id', '=', params.organizationId)
      .executeTakeFirstOrThrow(),
  ]);
  return { total: Number(count.count), rows };
}

export async function findClosing(db: Db, params: { organizationId: number; number: number }): Promise<ClosingRow | undefined> {
  return db
    .selectFrom('audit_closings')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('number', '=', params.number)
    .executeTakeFirst();
}

export async function insertClosing(db: Db, params: { organizationId: number; closing: ClosingRow }): Promise<void> {
  await db
    .insertInto('audit_closings')
    .values({ organization_id: params.organizationId, ...params.closing })
    .execute();
}

/** The seals left unsigned by migration 0055, to be signed once the key is at hand. */
export async function listUnsignedSeals(db: Db) {
  return db
    .selectFrom('audit_closings')
    .select(['organization_id', 'number', 'last_sequence'])
    .where('period', '=', 'legacy')
    .where('signature', '=', '')
    .orderBy('organization_id')
    .execute();
}

/** Signs a seal: the only update its trigger lets through, once (an empty signature before). */
export async function signSeal(db: Db, params: { organizationId: number; payload: string; signature: string }): Promise<void> {
  await db
    .updateTable('audit_closings')
    .set({ payload: params.payload, signature: params.signature })
    .where('organization_id', '=', params.organizationId)
    .where('number', '=', 1)
    .where('period', '=', 'legacy')
    .where('signature', '=', '')
    .execute();
}

/** The last entry appended before an instant (ISO), or 0: where a period's closing ends. */
export async function lastSequenceBefore(db: Db, params: { organizationId: number; before: string }): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('sequence').as('last'))
    .where('organization_id', '=', params.organizationId)
    .where('created_at', '<', params.before)
    .executeTakeFirst();
  return Number(row?.last ?? 0);
}

/** Entries in (after, through], content and hash, in order: the totals between two closings. */
export async function listEntriesBetween(db: Db, params: { organizationId: number; after: number; through: number }) {
  return db
    .selectFrom('audit_log')
    .select(['sequence', 'content', 'hash', 'created_at'])
    .where('organization_id', '=', params.organizationId)
    .where('sequence', '>', params.after)
    .where('sequence', '<=', params.through)
    .orderBy('sequence', 'asc')
    .execute();
}

/** Issued documents (numbered, out of draft): each must have its issue entry. */
export async function listIssuedDocuments(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('documents')
    .select(['id', 'type', 'number'])
    .where('organization_id', '=', params.organizationId)
    .where('status', '!=', 'draft')
    .where('number', 'is not', null)
    .orderBy('id')
    .execute();
}

/** Every payment and reversal row as its entry records it: a payment is never edited nor deleted, only reversed. */
export async function listPaymentFacts(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('payments')
    .select(['id', 'document_id', 'date', 'amount', 'method', 'reverses_id'])
    .where('organization_id', '=', params.organizationId)
    .orderBy('id')
    .execute();
}
export type PaymentFact = Awaited<ReturnType<typeof listPaymentFacts>>[number];

/** Every payment and reversal row: each must have its entry. */
export async function listPaymentIds(db: Db, params: { organizationId: number }): Promise<number[]> {
  const rows = await db.selectFrom('payments').select('id').where('organization_id', '=', params.organizationId).orderBy('id').execute();
  return rows.map((r) => r.id);
}
