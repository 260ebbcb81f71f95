import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../connection';
import type { DocumentItemsTable, DocumentsTable } from '../schema';
import { containsText } from './like';
import { fromStoredUnits, isMoneyLike, toStoredUnits, toUnits4 } from '../../../shared/money';
import { effectiveStatus } from '../../../shared/document-status';
import { customerPartySchema, sellerPartySchema, type CustomerParty, type SellerParty } from '../../../shared/schemas/document-parties';
import { depositRequestSchema, keyValueSchema, taxLineSchema } from '../../../shared/schemas/document';
import {
  lineAmountsSchema,
  taxGroupSchema,
  type DocumentLine,
  type DocumentListEntry,
  type StoredDocument,
  type StoredTotals,
} from '../../../shared/schemas/document-model';
import { z } from 'zod';

/**
 * The one place a document crosses between its rows and its domain shape (shared/schemas/document-model.ts):
 * amounts stored as INTEGER ten-thousandths (migration 0007) come back as JSON numbers in major units, JSON columns
 * are parsed with their schemas, decimal inputs stored as text come back as numbers. Services never see a row.
 */
type DocumentRow = Selectable<DocumentsTable>;
type DocumentItemRow = Selectable<DocumentItemsTable>;
type DocumentColumns = Updateable<Omit<DocumentsTable, 'id' | 'organization_id' | 'uuid' | 'created_at'>>;
type NewDocumentItemRow = Omit<Insertable<DocumentItemsTable>, 'id' | 'document_id' | 'position'>;

/** A line as written: what was typed and its amounts; the id only once stored. */
export type NewDocumentLine = Omit<DocumentLine, 'id'> & { id?: number };

const FORM_KEYS = [
  'type',
  'date',
  'maturity',
  'sale_date',
  'condition',
  'header',
  'footer',
  'terms',
  'note',
  'discount_type',
  'discount_value',
  'shipping',
  'shipping_details',
  'vat_exemption',
  'additional_info',
  'deposit_request',
  'customer_id',
  'order_id',
  'currency',
  'price_mode',
] as const satisfies readonly (keyof StoredDocument)[];

/** What a save writes: the form's fields, its lines with their amounts and every total, computed once by the service. */
export type DocumentContent = Pick<StoredDocument, (typeof FORM_KEYS)[number] | 'totals'> & { items: NewDocumentLine[] };

/** The document's own fields a service may change beside its content. */
export type DocumentChanges = Partial<
  Pick<
    StoredDocument,
    | 'status'
    | 'number'
    | 'counter'
    | 'customer_name'
    | 'seller'
    | 'customer'
    | 'legal_mentions'
    | 'issued_at'
    | 'sent_at'
    | 'viewed_at'
    | 'updated_at'
    | 'deducted_by_id'
  >
> & {
  content?: DocumentContent;
  /** An invoice's balance, from its payments and credit notes. */
  balance?: { paid: number; amount_due: number };
};

export type NewDocument = Omit<StoredDocument, 'id' | keyof DocumentContent> & { content: DocumentContent };

const json = <T extends z.ZodType>(schema: T, text: string): z.output<T> => schema.parse(JSON.parse(text));
const jsonOrNull = <T extends z.ZodType>(schema: T, text: string | null): z.output<T> | null => (text === null ? null : json(schema, text));

function lineOfRow(r: DocumentItemRow): DocumentLine {
  return {
    id: r.id,
    code: r.code || null,
    sku: r.sku || null,
    item: r.item,
    description: r.description,
    quantity: Number(r.quantity),
    unit: r.unit,
    unit_price: Number(r.unit_price),
    discount_type: r.discount_type === 'amount' ? 'amount' : 'percent',
    discount_value: Number(r.discount_value),
    taxes: json(z.array(taxLineSchema), r.taxes),
    kind: r.kind === 'goods' ? 'goods' : 'service',
    ...(r.amounts === null ? ZERO_AMOUNTS : json(lineAmountsSchema, r.amounts)),
  };
}
const ZERO_AMOUNTS = { price: 0, net_price: 0, subtotal: 0, discount: 0, gross_total: 0, tax: 0, total: 0 };

function lineColumns(line: NewDocumentLine): NewDocumentItemRow {
  return {
    code: line.code ?? '',
    sku: line.sku ?? '',
    item: line.item,
    description: line.description,
    quantity: String(line.quantity),
    unit: line.unit,
    unit_price: String(line.unit_price),
    discount_type: line.discount_type,
    discount_value: String(line.discount_value),
    taxes: JSON.stringify(line.taxes),
    kind: line.kind,
    amounts: JSON.stringify({
      price: line.price,
      net_price: line.net_price,
      subtotal: line.subtotal,
      discount: line.discount,
      gross_total: line.gross_total,
      tax: line.tax,
      total: line.total,
    }),
  };
}

function totalsOfRow(row: DocumentRow): StoredTotals {
  return {
    subtotal: fromStoredUnits(row.subtotal),
    discount: fromStoredUnits(row.discount),
    taxes: json(z.array(taxGroupSchema), row.tax_groups),
    tax: fromStoredUnits(row.tax),
    shipping: fromStoredUnits(row.shipping),
    total: fromStoredUnits(row.total),
    deposits: fromStoredUnits(row.deposits),
    paid: fromStoredUnits(row.paid),
    amount_due: fromStoredUnits(row.amount_due),
  };
}

function documentOfRow(row: DocumentRow, items: DocumentItemRow[]): StoredDocument {
  return {
    id: row.id,
    organization_id: row.organization_id,
    type: row.type,
    kind: row.kind,
    status: storedStatus(row.status),
    number: row.number,
    counter: row.counter,
    uuid: row.uuid,
    date: row.date,
    maturity: row.maturity,
    sale_date: row.sale_date,
    condition: row.condition,
    header: row.header,
    footer: row.footer,
    terms: row.terms,
    note: row.note,
    discount_type: row.discount_type === 'amount' || row.discount_type === 'percent' ? row.discount_type : null,
    discount_value: row.discount_value === null ? null : Number(row.discount_value),
    shipping: Number(row.shipping_fee),
    shipping_details: row.shipping_details,
    vat_exemption: row.vat_exemption,
    additional_info: json(z.array(keyValueSchema), row.additional_info),
    deposit_request: json(z.array(depositRequestSchema), row.deposit_request),
    customer_id: row.customer_id,
    order_id: row.order_id,
    currency: row.currency,
    price_mode: row.price_mode === 'ttc' ? 'ttc' : 'ht',
    items: items.map(lineOfRow),
    totals: totalsOfRow(row),
    customer_name: row.customer_name,
    origin_id: row.origin_id,
    corrects_id: row.corrects_id,
    deducted_by_id: row.deducted_by_id,
    seller: jsonOrNull(sellerPartySchema, row.seller_snapshot),
    customer: jsonOrNull(customerPartySchema, row.customer_snapshot),
    legal_mentions: json(z.array(z.string()), row.legal_mentions),
    issued_at: row.issued_at,
    sent_at: row.sent_at,
    viewed_at: row.viewed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const STATUSES = new Set(['draft', 'unpaid', 'partial', 'paid', 'canceled', 'pending', 'accepted', 'refused', 'converted', 'done']);
const storedStatus = (s: string): StoredDocument['status'] => {
  if (!STATUSES.has(s)) throw new Error(`Statut inconnu en base : ${s}`);
  return s as StoredDocument['status'];
};

function contentColumns(c: DocumentContent) {
  const t = c.totals;
  return {
    type: c.type,
    date: c.date,
    maturity: c.maturity,
    // Kept only when it differs from the issue date (CGI art. 242 nonies A, 7°).
    sale_date: c.sale_date && c.sale_date !== c.date ? c.sale_date : null,
    condition: c.condition,
    header: c.header,
    footer: c.footer,
    terms: c.terms,
    note: c.note,
    discount_type: c.discount_type,
    discount_value: c.discount_value === null ? null : String(c.discount_value),
    shipping_fee: String(c.shipping),
    shipping_details: c.shipping_details,
    vat_exemption: c.vat_exemption,
    additional_info: JSON.stringify(c.additional_info),
    deposit_request: JSON.stringify(c.deposit_request),
    customer_id: c.customer_id,
    order_id: c.order_id,
    currency: c.currency,
    price_mode: c.price_mode,
    tax_groups: JSON.stringify(t.taxes),
    subtotal: toStoredUnits(t.subtotal),
    discount: toStoredUnits(t.discount),
    tax: toStoredUnits(t.tax),
    shipping: toStoredUnits(t.shipping),
    total: toStoredUnits(t.total),
    deposits: toStoredUnits(t.deposits),
    paid: toStoredUnits(t.paid),
    amount_due: toStoredUnits(t.amount_due),
  };
}

function changeColumns(changes: DocumentChanges): DocumentColumns {
  const { content, balance, seller, customer, legal_mentions, ...own } = changes;
  return {
    ...own,
    ...(content ? contentColumns(content) : {}),
    ...(balance ? { paid: toStoredUnits(balance.paid), amount_due: toStoredUnits(balance.amount_due) } : {}),
    ...(seller !== undefined ? { seller_snapshot: partyJson(seller) } : {}),
    ...(customer !== undefined ? { customer_snapshot: partyJson(customer) } : {}),
    ...(legal_mentions !== undefined ? { legal_mentions: JSON.stringify(legal_mentions) } : {}),
  };
}
const partyJson = (party: SellerParty | CustomerParty | null) => (party === null ? null : JSON.stringify(party));

/** Writes a new document and its lines, in the caller's transaction. */
export async function insertDocument(db: Db, doc: NewDocument): Promise<number> {
  const { content, seller, customer, legal_mentions, ...own } = doc;
  const inserted = await db
    .insertInto('documents')
    .values({
      ...own,
      ...contentColumns(content),
      seller_snapshot: partyJson(seller),
      customer_snapshot: partyJson(customer),
      legal_mentions: JSON.stringify(legal_mentions),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await replaceDocumentItems(db, { documentId: inserted.id, items: content.items });
  return inserted.id;
}

/**
 * Updates a document (and its lines when the content changes: run it in a transaction then); with `expected`, only
 * while it still is as it was read (else nothing changes and 0 is answered).
 */
export async function updateDocument(
  db: Db,
  params: { organizationId: number; id: number; changes: DocumentChanges; expected?: { status: string; updated_at: string } },
): Promise<number> {
  let query = db
    .updateTable('documents')
    .set(changeColumns(params.changes))
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id);
  if (params.expected) query = query.where('status', '=', params.expected.status).where('updated_at', '=', params.expected.updated_at);
  const result = await query.executeTakeFirst();
  const changed = Number(result.numUpdatedRows);
  if (changed > 0 && params.changes.content) await replaceDocumentItems(db, { documentId: params.id, items: params.changes.content.items });
  return changed;
}

async function replaceDocumentItems(db: Db, params: { documentId: number; items: NewDocumentLine[] }): Promise<void> {
  await db.deleteFrom('document_items').where('document_id', '=', params.documentId).execute();
  // SQLite caps bound parameters per statement: insert in chunks.
  for (let start = 0; start < params.items.length; start += 50) {
    const chunk = params.items
      .slice(start, start + 50)
      .map((item, k) => ({ ...lineColumns(item), document_id: params.documentId, position: start + k }));
    await db.insertInto('document_items').values(chunk).execute();
  }
}

async function withItems(db: Db, row: DocumentRow | undefined): Promise<StoredDocument | undefined> {
  if (!row) return undefined;
  const items = await db.selectFrom('document_items').selectAll().where('document_id', '=', row.id).orderBy('position').execute();
  return documentOfRow(row, items);
}

export async function findDocument(db: Db, params: { organizationId: number; id: number }): Promise<StoredDocument | undefined> {
  const row = await db
    .selectFrom('documents')
    .selectAll()
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return withItems(db, row);
}

export async function findDocumentByUuid(db: Db, params: { uuid: string }): Promise<StoredDocument | undefined> {
  return withItems(db, await db.selectFrom('documents').selectAll().where('uuid', '=', params.uuid).executeTakeFirst());
}

/** The latest numbered document of a series, for chronological numbering. */
export async function findLatestNumbered(db: Db, params: { organizationId: number; type: DocumentsTable['type'] }) {
  return db
    .selectFrom('documents')
    .select(['date', 'number'])
    .where('organization_id', '=', params.organizationId)
    .where('type', '=', params.type)
    .where('number', 'is not', null)
    .orderBy('counter', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function numberTaken(db: Db, params: { organizationId: number; type: DocumentsTable['type']; number: string }) {
  const clash = await db
    .selectFrom('documents')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('type', '=', params.type)
    .where('number', '=', params.number)
    .executeTakeFirst();
  return clash !== undefined;
}

/** The total of the deposit invoices drawn on an origin, issued or this one, not canceled (major units). */
export async function sumDeposits(db: Db, params: { organizationId: number; originId: number; includingId: number }): Promise<number> {
  const issued = await db
    .selectFrom('documents')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), eb.val(0)).as('sum'))
    .where('organization_id', '=', params.organizationId)
    .where('origin_id', '=', params.originId)
    .where('kind', '=', 'deposit')
    .where((eb) => eb.or([eb('number', 'is not', null), eb('id', '=', params.includingId)]))
    .where('status', '!=', 'canceled')
    .executeTakeFirstOrThrow();
  return fromStoredUnits(Number(issued.sum));
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

/** The columns a list entry answers: no snapshots, no long texts. */
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
const SUMMARY_COLUMNS = [
  'id',
  'type',
  'kind',
  'status',
  'number',
  'date',
  'total',
  'currency',
  'origin_id',
  'corrects_id',
  'customer_name',
] as const;
const summaryOf = <T extends { total: number }>(row: T): T => ({ ...row, total: fromStoredUnits(row.total) });

/** Documents made from this one (conversions, deposits, credit notes), for the links shown on both sides. */
export async function findLinkedDocuments(db: Db, params: { organizationId: number; id: number }) {
  const rows = await db
    .selectFrom('documents')
    .select(SUMMARY_COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where((eb) => eb.or([eb('origin_id', '=', params.id), eb('corrects_id', '=', params.id)]))
    .orderBy('id')
    .execute();
  return rows.map(summaryOf);
}

export async function findDocumentSummary(db: Db, params: { organizationId: number; id: number }) {
  const row = await db
    .selectFrom('documents')
    .select(SUMMARY_COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return row && summaryOf(row);
}

/** The deposit invoices a final invoice deducts (each deposit is deducted by one final invoice only). */
export async function findDeductedDeposits(db: Db, params: { organizationId: number; invoiceId: number }) {
  const rows = await db
    .selectFrom('documents')
    .select(['id', 'number', 'date', 'total'])
    .where('organization_id', '=', params.organizationId)
    .where('deducted_by_id', '=', params.invoiceId)
    .where('kind', '=', 'deposit')
    .orderBy('id')
    .execute();
  return rows.map(summaryOf);
}

/** Deposit invoices drawn on these documents: issued and not yet deducted by a final invoice, and drafts. */
export async function findOpenDeposits(db: Db, params: { organizationId: number; originIds: number[] }) {
  if (params.originIds.length === 0) return [];
  const rows = await db
    .selectFrom('documents')
    .select(['id', 'number', 'date', 'total', 'status'])
    .where('organization_id', '=', params.organizationId)
    .where('origin_id', 'in', params.originIds)
    .where('kind', '=', 'deposit')
    .where('deducted_by_id', 'is', null)
    .where('status', '!=', 'canceled')
    .orderBy('id')
    .execute();
  return rows.map(summaryOf);
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

/** The total of issued credit notes that correct an invoice, in major units. */
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
  return fromStoredUnits(Number(row.sum));
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

/** An amount typed in a search box ('1 234,50') in stored units, or null when the text is not one. */
const searchedAmount = (search: string): number | null => (isMoneyLike(search) ? Number(toUnits4(search)) : null);

/** The list of SPEC §3 filters, on the stored totals (no recomputation). `overdue`, `open` and `sent` are derived. */
export async function listDocuments(db: Db, p: DocumentListParams): Promise<{ total: number; data: DocumentListEntry[] }> {
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
  if (p.minAmount !== undefined) query = query.where('documents.total', '>=', toStoredUnits(p.minAmount));
  if (p.maxAmount !== undefined) query = query.where('documents.total', '<=', toStoredUnits(p.maxAmount));
  if (p.customerId) query = query.where('documents.customer_id', '=', p.customerId);
  if (p.search) {
    const search = p.search;
    const amount = searchedAmount(search);
    query = query.where((eb) =>
      eb.or([
        containsText('documents.number', search),
        containsText('documents.customer_name', search),
        ...(amount !== null ? [eb('documents.total', '=', amount)] : []),
      ]),
    );
  }
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  let rows = query.select(LIST_COLUMNS);
  // Drafts have no number: they sort after (or before) the numbered ones by creation.
  rows = rows.orderBy(sql.ref(SORT_COLUMNS[p.sortBy]), p.sortOrder);
  if (p.sortBy !== 'date') rows = rows.orderBy('documents.date', p.sortOrder);
  const data = await rows.orderBy('documents.id', p.sortOrder).limit(p.limit).offset(p.offset).execute();
  return {
    total: Number(total),
    data: data.map((row) => ({
      ...row,
      status: effectiveStatus({ type: row.type, status: storedStatus(row.status), maturity: row.maturity }, p.today),
      subtotal: fromStoredUnits(row.subtotal),
      tax: fromStoredUnits(row.tax),
      total: fromStoredUnits(row.total),
      deposits: fromStoredUnits(row.deposits),
      paid: fromStoredUnits(row.paid),
      amount_due: fromStoredUnits(row.amount_due),
    })),
  };
}
