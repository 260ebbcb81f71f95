import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../connection';
import type { DocumentItemsTable, DocumentsTable } from '../schema';
import { containsText } from './like';

export type DocumentRow = Selectable<DocumentsTable>;
export type DocumentItemRow = Selectable<DocumentItemsTable>;
export type NewDocumentRow = Omit<Insertable<DocumentsTable>, 'id'>;
export type DocumentChanges = Updateable<Omit<DocumentsTable, 'id' | 'organization_id' | 'uuid' | 'created_at'>>;
export type NewDocumentItemRow = Omit<Insertable<DocumentItemsTable>, 'id' | 'document_id' | 'position'>;

/** The columns a list row answers: no snapshots, no long texts. */
const LIST_COLUMNS = [
  'documents.id',
  'documents.type',
  'documents.kind',
  'documents.status',
  'documents.number',
  'documents.uuid',
  'documents.date',
  'documents.maturity',
  'documents.customer_id',
  'documents.customer_name',
  'documents.currency',
  'documents.subtotal',
  'documents.tax',
  'documents.total',
  'documents.deposits',
  'documents.paid',
  'documents.amount_due',
  'documents.origin_id',
  'documents.corrects_id',
  'documents.sent_at',
  'documents.issued_at',
  'documents.created_at',
  'documents.updated_at',
] as const;
export type DocumentListRow = Pick<
  DocumentRow,
  | 'id'
  | 'type'
  | 'kind'
  | 'status'
  | 'number'
  | 'uuid'
  | 'date'
  | 'maturity'
  | 'customer_id'
  | 'customer_name'
  | 'currency'
  | 'subtotal'
  | 'tax'
  | 'total'
  | 'deposits'
  | 'paid'
  | 'amount_due'
  | 'origin_id'
  | 'corrects_id'
  | 'sent_at'
  | 'issued_at'
  | 'created_at'
  | 'updated_at'
>;

export async function insertDocument(db: Db, row: NewDocumentRow): Promise<number> {
  const inserted = await db.insertInto('documents').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** Updates a document; with `expected`, only while it still is as it was read (else nothing changes and 0 is answered). */
export async function updateDocument(
  db: Db,
  params: { organizationId: number; id: number; changes: DocumentChanges; expected?: { status: string; updated_at: string } },
): Promise<number> {
  let query = db
    .updateTable('documents')
    .set(params.changes)
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id);
  if (params.expected) query = query.where('status', '=', params.expected.status).where('updated_at', '=', params.expected.updated_at);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Replaces a document's lines, in the caller's transaction. */
export async function replaceDocumentItems(db: Db, params: { documentId: number; items: NewDocumentItemRow[] }): Promise<void> {
  await db.deleteFrom('document_items').where('document_id', '=', params.documentId).execute();
  if (params.items.length === 0) return;
  // SQLite caps bound parameters per statement: insert in chunks.
  for (let start = 0; start < params.items.length; start += 50) {
    const chunk = params.items
      .slice(start, start + 50)
      .map((item, k) => ({ ...item, document_id: params.documentId, position: start + k }));
    await db.insertInto('document_items').values(chunk).execute();
  }
}

export async function findDocumentRow(db: Db, params: { organizationId: number; id: number }): Promise<DocumentRow | undefined> {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
}

export async function findDocumentRowByUuid(db: Db, params: { uuid: string }): Promise<DocumentRow | undefined> {
  return db.selectFrom('documents').selectAll().where('uuid', '=', params.uuid).executeTakeFirst();
}

export async function findDocumentItems(db: Db, params: { documentId: number }): Promise<DocumentItemRow[]> {
  return db.selectFrom('document_items').selectAll().where('document_id', '=', params.documentId).orderBy('position').execute();
}

export async function deleteDocumentRow(
  db: Db,
  params: { organizationId: number; id: number; expected: { status: string; updated_at: string } },
): Promise<number> {
  const result = await db
    .deleteFrom('documents')
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .where('status', '=', params.expected.status)
    .where('updated_at', '=', params.expected.updated_at)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Documents made from this one (conversions, deposits, credit notes), for the links shown on both sides. */
export async function findLinkedDocuments(db: Db, params: { organizationId: number; id: number }) {
  return db
    .selectFrom('documents')
    .select(['id', 'type', 'kind', 'status', 'number', 'date', 'total', 'currency', 'origin_id', 'corrects_id'])
    .where('organization_id', '=', params.organizationId)
    .where((eb) => eb.or([eb('origin_id', '=', params.id), eb('corrects_id', '=', params.id)]))
    .orderBy('id')
    .execute();
}

export async function findDocumentSummary(db: Db, params: { organizationId: number; id: number }) {
  return db
    .selectFrom('documents')
    .select(['id', 'type', 'kind', 'status', 'number', 'date', 'total', 'currency', 'origin_id', 'corrects_id'])
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
}

/** The deposit invoices a final invoice deducts (each deposit is deducted by one final invoice only). */
export async function findDeductedDeposits(db: Db, params: { organizationId: number; invoiceId: number }) {
  return db
    .selectFrom('documents')
    .select(['id', 'number', 'date', 'total'])
    .where('organization_id', '=', params.organizationId)
    .where('deducted_by_id', '=', params.invoiceId)
    .where('kind', '=', 'deposit')
    .orderBy('id')
    .execute();
}

/** Deposit invoices drawn on these documents: issued and not yet deducted by a final invoice, and drafts. */
export async function findOpenDeposits(db: Db, params: { organizationId: number; originIds: number[] }) {
  if (params.originIds.length === 0) return [];
  return db
    .selectFrom('documents')
    .select(['id', 'number', 'date', 'total', 'status'])
    .where('organization_id', '=', params.organizationId)
    .where('origin_id', 'in', params.originIds)
    .where('kind', '=', 'deposit')
    .where('deducted_by_id', 'is', null)
    .where('status', '!=', 'canceled')
    .orderBy('id')
    .execute();
}

/** Marks deposits as deducted by a final invoice, in the caller's transaction. */
export async function claimDeposits(db: Db, params: { organizationId: number; depositIds: number[]; invoiceId: number }): Promise<void> {
  if (params.depositIds.length === 0) return;
  await db
    .updateTable('documents')
    .set({ deducted_by_id: params.invoiceId })
    .where('organization_id', '=', params.organizationId)
    .where('id', 'in', params.depositIds)
    .where('deducted_by_id', 'is', null)
    .execute();
}

/** The total of issued credit notes that correct an invoice (scale 4). */
export async function sumIssuedCredits(db: Db, params: { organizationId: number; invoiceId: number; exceptId?: number }): Promise<number> {
  let query = db
    .selectFrom('documents')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), sql<number>`0`).as('sum'))
    .where('organization_id', '=', params.organizationId)
    .where('corrects_id', '=', params.invoiceId)
    .where('type', '=', 'credit')
    .where('number', 'is not', null);
  if (params.exceptId) query = query.where('id', '!=', params.exceptId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.sum);
}

export interface DocumentListParams {
  organizationId: number;
  type?: DocumentsTable['type'];
  status?: string;
  search?: string;
  from?: string;
  to?: string;
  minAmount?: number;
  maxAmount?: number;
  customerId?: number;
  today: string;
  sortBy: 'date' | 'number' | 'customer' | 'total' | 'maturity';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const SORT_COLUMNS = {
  date: 'documents.date',
  number: 'documents.counter',
  customer: 'documents.customer_name',
  total: 'documents.total',
  maturity: 'documents.maturity',
} as const;

/** The list of SPEC §3 filters, on the stored totals (no recomputation). `overdue`, `open` and `sent` are derived. */
export async function listDocuments(db: Db, p: DocumentListParams): Promise<{ total: number; data: DocumentListRow[] }> {
  let query = db.selectFrom('documents').where('documents.organization_id', '=', p.organizationId);
  if (p.type) query = query.where('documents.type', '=', p.type);
  if (p.status === 'overdue') {
    query = query
      .where('documents.type', '=', 'invoice')
      .where('documents.status', 'in', ['unpaid', 'partial'])
      .where('documents.maturity', '<', p.today);
  } else if (p.status === 'open') {
    query = query.where('documents.type', '=', 'invoice').where('documents.status', 'in', ['unpaid', 'partial']);
  } else if (p.status === 'sent') {
    query = query.where('documents.sent_at', 'is not', null);
  } else if (p.status === 'unpaid' || p.status === 'partial') {
    // Overdue invoices are still unpaid: they are listed with them.
    query = query.where('documents.status', '=', p.status);
  } else if (p.status) {
    query = query.where('documents.status', '=', p.status);
  }
  if (p.from) query = query.where('documents.date', '>=', p.from);
  if (p.to) query = query.where('documents.date', '<=', p.to);
  if (p.minAmount !== undefined) query = query.where('documents.total', '>=', Math.round(p.minAmount * 1e4));
  if (p.maxAmount !== undefined) query = query.where('documents.total', '<=', Math.round(p.maxAmount * 1e4));
  if (p.customerId) query = query.where('documents.customer_id', '=', p.customerId);
  if (p.search) {
    const search = p.search;
    const amount = Number(search.replace(/\s/g, '').replace(',', '.'));
    query = query.where((eb) =>
      eb.or([
        containsText('documents.number', search),
        containsText('documents.customer_name', search),
        ...(search !== '' && Number.isFinite(amount) ? [eb('documents.total', '=', Math.round(amount * 1e4))] : []),
      ]),
    );
  }
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  let rows = query.select(LIST_COLUMNS);
  // Drafts have no number: they sort after (or before) the numbered ones by creation.
  rows = rows.orderBy(sql.ref(SORT_COLUMNS[p.sortBy]), p.sortOrder);
  if (p.sortBy !== 'date') rows = rows.orderBy('documents.date', p.sortOrder);
  const data = await rows.orderBy('documents.id', p.sortOrder).limit(p.limit).offset(p.offset).execute();
  return { total: Number(total), data };
}
