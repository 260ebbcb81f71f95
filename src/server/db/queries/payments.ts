import { sql } from 'kysely';
import type { Db } from '../connection';
import { nowIso } from '../../clock';

/** A payment row as answered: `reversed_by_id` names the counter-entry that cancelled it, if any (derived, never stored). */
const selectPayments = (db: Db, organizationId: number) =>
  db
    .selectFrom('payments as p')
    .leftJoin('payments as r', 'r.reverses_id', 'p.id')
    .select([
      'p.id',
      'p.document_id',
      'p.date',
      'p.amount',
      'p.method',
      'p.reference',
      'p.note',
      'p.reverses_id',
      'r.id as reversed_by_id',
      'p.fee',
      'p.fee_currency',
      'p.created_at',
      'p.updated_at',
    ])
    .where('p.organization_id', '=', organizationId);

export type PaymentRow = Awaited<ReturnType<typeof listPayments>>[number];

export async function listPayments(db: Db, params: { organizationId: number; documentId: number }) {
  return selectPayments(db, params.organizationId)
    .where('p.document_id', '=', params.documentId)
    .orderBy('p.date')
    .orderBy('p.id')
    .execute();
}

export async function findPayment(db: Db, params: { organizationId: number; documentId: number; id: number }) {
  return selectPayments(db, params.organizationId)
    .where('p.document_id', '=', params.documentId)
    .where('p.id', '=', params.id)
    .executeTakeFirst();
}

/** Total received on a document (scale 4): counter-entries are negative, so a reversed payment counts for nothing. */
export async function sumPayments(db: Db, params: { organizationId: number; documentId: number }): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('sum'))
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}

export interface PaymentValues {
  date: string;
  amount: number;
  method: string;
  reference: string;
  note: string;
  reverses_id?: number | null;
  /** A card payment's processor fee (stored units) and its currency: kept for the bank journal, not deducted. */
  fee?: number;
  fee_currency?: string | null;
}

/** Payments are only ever inserted: a recorded payment is never rewritten nor deleted. */
export async function insertPayment(
  db: Db,
  params: { organizationId: number; documentId: number; values: PaymentValues },
): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('payments')
    .values({ organization_id: params.organizationId, document_id: params.documentId, ...params.values, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
