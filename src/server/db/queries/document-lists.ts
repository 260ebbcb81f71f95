import { type SqlBool, sql } from 'kysely';
import type { Db } from '../connection';
import { isOneOfIds, isPostgres } from '../dialect';
import type { DocumentsTable } from '../schema';
import { documentIdsLookup, searchedAmount } from './search';
import {
  countProbedMatches,
  type DocumentMatches,
  type DocumentProbes,
  densePostgresMatches,
  documentMatches,
  isProbedMatch,
  probedCountKey,
  walksPage,
  windowCheck,
  windowRows,
} from './document-matches';
import { DocumentCounts, documentCountsOf } from './document-counts';
import { countByTypeAndStatus } from './summaries';
import { storedStatus } from './document-mapping';
import { fromStoredUnits, toStoredUnits } from '../../../shared/money';
import { effectiveStatus, OPEN_STATUSES } from '../../../shared/document-status';
import type { DocumentListEntry } from '../../../shared/schemas/document-model';

/** Documents read by the many: the list, the summaries of linked documents, deposits and credit notes and their sums. */

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

/** A window's columns: the list's, and the counter it may be sorted by. */
const WINDOW_COLUMNS = Object.fromEntries([...LIST_COLUMNS, 'documents.counter'].map((c) => [c.slice('documents.'.length), c])) as {
  [C in (typeof LIST_COLUMNS)[number] | 'documents.counter' as C extends `documents.${infer N}` ? N : never]: C;
};
const SORT_KEYS = { date: 'date', number: 'counter', customer: 'customer_name', total: 'total', maturity: 'maturity' } as const;

const SORT_COLUMNS = {
  date: 'documents.date',
  number: 'documents.counter',
  customer: 'documents.customer_name',
  total: 'documents.total',
  maturity: 'documents.maturity',
} as const;

/**
 * The orders an index of the organisation's documents gives, each ending with (date, id): documents_org_date_idx,
 * documents_org_total_idx, and those of migration 0079 (counter, customer name, due date).
 */
const INDEXED_SORTS = new Set<DocumentListParams['sortBy']>(['date', 'number', 'customer', 'total', 'maturity']);

interface SearchFilter {
  /** The organisation's documents whose number or customer has the typed words, or whose number contains the text. */
  matches: DocumentMatches | null;
  amount: number | null;
  /** The page walks the list's order and checks each row through the indexes (a common word, document-matches.ts). */
  walked: boolean;
  /** The organisation's documents, for the share of them a common word matches (0 when not read). */
  documents: number;
  /**
   * Every document of the organisation matches (its word is in every heading, as 'Facture' may be): the search filters
   * nothing, and the list is paged and counted as without it (the kept counts answer the total).
   */
  everything: boolean;
}

/** Words through the full-text index (number, customer), and a typed amount on the total (its own index). */
async function searchFilter(db: Db, p: DocumentListParams): Promise<SearchFilter | null> {
  if (!p.search) return null;
  const matches = await documentMatches(db, p.organizationId, p.search, p.type);
  const amount = searchedAmount(p.search);
  const many = matches && 'lookup' in matches ? matches : null;
  if (!many) return { matches, amount, walked: false, documents: 0, everything: false };
  const documents = await countByTypeAndStatus(db, { organizationId: p.organizationId, today: p.today });
  const probes = many.probes;
  if (!probes) {
    const walked = many.perRow !== null && INDEXED_SORTS.has(p.sortBy) && (await densePostgresMatches(db, many.lookup, documents));
    return { matches, amount, walked, documents, everything: false };
  }
  // The index's count of the word is exact when it stands for one indexed word (document-matches.ts).
  const everything = probes.atLeast === probes.atMost && probes.atLeast >= documents;
  // Another filter may keep few of the word's matches ('facture' among credit notes): an unbounded walk would then
  // check every row of the filter's range (5 s at 1 000 000), so such pages are read through a window (windowedPage).
  const walked =
    countedByIndexes(p) && walksPage(probes, { rowsBefore: p.offset + p.limit, documents, indexed: INDEXED_SORTS.has(p.sortBy) });
  return { matches, amount, walked, documents, everything };
}

/**
 * A few matches are read by id and sorted. Many (a common word: 'Client' matches every document of the bench) are,
 * for a page, checked while the list's index is walked in its order, which stops at the page: `+` hides the primary
 * key from the planner, which would otherwise read and sort every match (220 ms for 100 000 matches, 55 ms walked).
 * SQLite checks each walked row through the indexes by rowid when the matches are dense enough for the page to come
 * after a few checks (`walked`), else reads the lookup once into a temporary index for the statement (110 ms for
 * 1 000 000 matches); PostgreSQL hashes it once, or for dense matches reads each walked row's entry by primary key. A count has no order to keep: it reads each match by its primary key,
 * not every document of the organisation (0.5 s instead of 0.8 s for 1 000 000 matches).
 */
function isMatch(db: Db, search: SearchFilter, matches: DocumentMatches, use: 'page' | 'count') {
  if ('ids' in matches) {
    return matches.ids.length > 0 ? isOneOfIds(db, sql<number>`documents.id`, matches.ids) : null;
  }
  if (use === 'page' && search.walked && matches.probes) return isProbedMatch(matches.probes, sql`documents.id`);
  if (use === 'page' && search.walked && matches.perRow) return matches.perRow(sql`documents.id`);
  const walked = use === 'page' && !isPostgres(db);
  return sql<SqlBool>`${walked ? sql`+documents.id` : sql`documents.id`} in (${matches.lookup})`;
}

/** The list of filters, on the stored totals (no recomputation). `overdue`, `open` and `sent` are derived. */
function filteredDocuments(db: Db, p: DocumentListParams, search: SearchFilter | null, use: 'page' | 'count') {
  let query = db.selectFrom('documents').where('documents.organization_id', '=', p.organizationId);
  if (p.type) query = query.where('documents.type', '=', p.type);
  if (p.status === 'overdue') {
    query = query
      .where('documents.type', '=', 'invoice')
      .where('documents.status', 'in', OPEN_STATUSES)
      .where('documents.maturity', '<', p.today);
  } else if (p.status === 'open') {
    query = query.where('documents.type', '=', 'invoice').where('documents.status', 'in', OPEN_STATUSES);
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
  if (search && !search.everything) {
    const matched = search.matches && isMatch(db, search, search.matches, use);
    query = query.where((eb) =>
      eb.or([...(matched ? [matched] : []), ...(search.amount !== null ? [eb('documents.total', '=', search.amount)] : [])]),
    );
  }
  return query;
}

/** The list's order: its sort, then date and id (drafts have no number: they sort after or before the numbered ones by date). */
function ordered<Q extends { orderBy: (...args: never[]) => Q }>(query: Q, p: DocumentListParams): Q {
  // biome-ignore lint/suspicious/noExplicitAny: the same order on the documents table and on a window of it.
  let rows = query as any;
  rows = rows.orderBy(sql.ref(SORT_COLUMNS[p.sortBy]), p.sortOrder);
  if (p.sortBy !== 'date') rows = rows.orderBy('documents.date', p.sortOrder);
  return rows.orderBy('documents.id', p.sortOrder);
}

/**
 * A common word's page read from a window: the list's first rows in its order without the search (an index walk that
 * stops there), checked against the word's entries between the window's first and last ids, or one by one through the
 * indexes. The page is exact when the window holds it whole, or when the window is every row the other filters keep;
 * else null, and the page is read the whole way. A deep page (page 500: 5 000 matches before it) costs a few
 * milliseconds where every match read into a temporary index costs 0.2 s at 1 000 000 documents.
 */
async function windowedPage(db: Db, p: DocumentListParams, search: SearchFilter, probes: DocumentProbes) {
  const size = windowRows(probes, { rowsBefore: p.offset + p.limit, documents: search.documents });
  if (size === null) return null;
  const window = (columns: readonly (keyof typeof WINDOW_COLUMNS)[]) =>
    ordered(filteredDocuments(db, p, null, 'page').select(columns.map((c) => WINDOW_COLUMNS[c])), p).limit(size);
  const { rows: spans } = await sql<{ rows: number; first: number | null; last: number | null }>`select count(*) as rows,
    min(id) as first, max(id) as last from (${window([...new Set(['id', SORT_KEYS[p.sortBy], 'date'] as const)])}) spanned`.execute(db);
  const span = spans[0];
  if (!span || span.first === null || span.last === null) return [];
  const check = windowCheck({ rows: Number(span.rows), first: Number(span.first), last: Number(span.last) });
  if (check === null) return null;
  const words =
    check === 'range'
      ? sql<SqlBool>`documents.id in (${documentIdsLookup(db, p.organizationId, p.search ?? '', { spelled: probes.words, ids: [Number(span.first), Number(span.last)] })})`
      : isProbedMatch(probes, sql`documents.id`);
  const rows = await ordered(
    db
      .selectFrom(window(Object.keys(WINDOW_COLUMNS) as (keyof typeof WINDOW_COLUMNS)[]).as('documents'))
      .select(LIST_COLUMNS)
      .where((eb) => eb.or([words, ...(search.amount !== null ? [eb('documents.total', '=', search.amount)] : [])])),
    p,
  )
    .limit(p.limit)
    .offset(p.offset)
    .execute();
  return rows.length === p.limit || Number(span.rows) < size ? rows : null;
}

/** A page of the list, without its count (the dashboard's latest documents). */
export async function listDocumentPage(db: Db, p: DocumentListParams, search: SearchFilter | null = null): Promise<DocumentListEntry[]> {
  const filter = search ?? (await searchFilter(db, p));
  const probes =
    filter && !filter.everything && !filter.walked && filter.matches && 'probes' in filter.matches ? filter.matches.probes : null;
  const windowed = probes && filter ? await windowedPage(db, p, filter, probes) : null;
  const data =
    windowed ??
    (await ordered(filteredDocuments(db, p, filter, 'page').select(LIST_COLUMNS), p)
      .limit(p.limit)
      .offset(p.offset)
      .execute());
  return data.map((row) => ({
    ...row,
    status: effectiveStatus({ type: row.type, status: storedStatus(row.status), maturity: row.maturity }, p.today),
    subtotal: fromStoredUnits(row.subtotal),
    tax: fromStoredUnits(row.tax),
    total: fromStoredUnits(row.total),
    deposits: fromStoredUnits(row.deposits),
    paid: fromStoredUnits(row.paid),
    amount_due: fromStoredUnits(row.amount_due),
  }));
}

/** Filtered by type and status only: the kept counts (migration 0064) answer the total without walking the documents. */
const countedBySummaries = (p: DocumentListParams) =>
  !p.search && !p.from && !p.to && p.minAmount === undefined && p.maxAmount === undefined && !p.customerId;

/** Filtered by the search only: its indexes count the matches without reading a document (document-matches.ts). */
const countedByIndexes = (p: DocumentListParams) => countedBySummaries({ ...p, search: undefined }) && !p.type && !p.status;

/**
 * A page and the number of documents the filters match. The count is read only when the page cannot tell it: a page
 * that is neither full nor past the end ends the list, so the total is the rows before it plus its own; and a count
 * read before is reused until a document is written (document-counts.ts).
 */
export async function listDocuments(db: Db, p: DocumentListParams): Promise<{ total: number; data: DocumentListEntry[] }> {
  const search = await searchFilter(db, p);
  const data = await listDocumentPage(db, p, search);
  if (data.length < p.limit && (data.length > 0 || p.offset === 0)) return { total: p.offset + data.length, data };
  if (countedBySummaries(search?.everything ? { ...p, search: undefined } : p)) return { total: await countByTypeAndStatus(db, p), data };
  const filtered = filteredDocuments(db, p, search, 'count');
  const kept = documentCountsOf(db);
  const probes = search?.matches && 'probes' in search.matches ? search.matches.probes : null;
  // The search alone or among one type: the type is a word of the index (search.ts typeWordOf).
  if (search && probes && countedByIndexes({ ...p, type: undefined })) {
    const count = async () => (await countProbedMatches(db, probes, search.amount, p.type)) ?? (await countOf(filtered));
    const key = probedCountKey(probes, search.amount, p.type);
    return { total: kept instanceof DocumentCounts ? await kept.read(p.organizationId, key, count) : await count(), data };
  }
  if (kept) return { total: await kept.count(p.organizationId, filtered), data };
  return { total: await countOf(filtered), data };
}

async function countOf(filtered: ReturnType<typeof filteredDocuments>): Promise<number> {
  const counted = await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(counted.total);
}
