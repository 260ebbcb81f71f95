import { sql, type Selectable } from 'kysely';
import type { Db } from '../connection';
import type { PaymentsTable } from '../schema';
import { nowIso } from '../../clock';

export type PaymentRow = Selectable<PaymentsTable>;
const COLUMNS = ['id', 'document_id', 'date', 'amount', 'method', 'reference', 'note', 'created_at', 'updated_at'] as const;

export async function listPayments(db: Db, params: { organizationId: number; documentId: number }) {
  return db
    .selectFrom('payments')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .orderBy('date')
    .orderBy('id')
    .execute();
}

export async function findPayment(db: Db, params: { organizationId: number; documentId: number; id: number }) {
  return db
    .selectFrom('payments')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .where('id', '=', params.id)
    .executeTakeFirst();
}

/** Total received on a document (scale 4), optionally leaving one payment out (the one being edited). */
export async function sumPayments(db: Db, params: { organizationId: number; documentId: number; exceptId?: number }): Promise<number> {
  let query = db
    .selectFrom('payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('sum'))
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId);
  if (params.exceptId) query = query.where('id', '!=', params.exceptId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.sum);
}

export interface PaymentValues {
  date: string;
  amount: number;
  method: string;
  reference: string;
  note: string;
}

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

export async function updatePayment(db: Db, params: { organizationId: number; id: number; values: PaymentValues }): Promise<void> {
  await db
    .updateTable('payments')
    .set({ ...params.values, updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function deletePayment(db: Db, params: { organizationId: number; id: number }): Promise<void> {
  await db.deleteFrom('payments').where('organization_id', '=', params.organizationId).where('id', '=', params.id).execute();
}
