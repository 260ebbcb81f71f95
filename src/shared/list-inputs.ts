import type { DocumentType } from './schemas/document';
import { EXPENSE_SORT_FIELDS, PERIODS, SORT_FIELDS } from './list-fields';
import type { Period } from './periods';

// What each list asks the server for, read from its address. The page and the route's queries (route-queries.ts) build
// their input here, so the query started at navigation is the very one the page then reads from the cache.

type Query = Record<string, string>;

export const asPeriod = (value: string | undefined): Period | undefined =>
  (PERIODS as readonly string[]).includes(value ?? '') ? (value as Period) : undefined;

const amountOrNothing = (value: string | undefined) => (value && Number.isFinite(Number(value)) ? Number(value) : undefined);

/** The page and its size: 10 rows unless the address says otherwise. */
export function pageOf(query: Query): { page: number; per_page: number } {
  return { page: Number(query.page ?? 1) || 1, per_page: Number(query.per_page ?? 10) || 10 };
}

export function documentListInput(type: DocumentType, query: Query) {
  const sort_by = (SORT_FIELDS as readonly string[]).includes(query.sort_by ?? '')
    ? (query.sort_by as (typeof SORT_FIELDS)[number])
    : 'date';
  const period = asPeriod(query.period);
  return {
    type,
    status: query.status || undefined,
    search: query.search || undefined,
    period,
    from: period === 'custom' ? query.from || undefined : undefined,
    to: period === 'custom' ? query.to || undefined : undefined,
    min_amount: amountOrNothing(query.min_amount),
    max_amount: amountOrNothing(query.max_amount),
    customer: Number(query.customer) || undefined,
    sort_by,
    sort_order: query.sort_order === 'asc' ? ('asc' as const) : ('desc' as const),
    ...pageOf(query),
  };
}

export type CustomerSortKey = 'name' | 'number' | 'city' | 'created_at';

export function customerListInput(query: Query) {
  return {
    search: query.search,
    type: query.type === 'company' || query.type === 'individual' ? (query.type as 'company' | 'individual') : undefined,
    city: query.city,
    tag: Number(query.tag) || undefined,
    unpaid: query.unpaid === 'true' ? true : undefined,
    archived: query.archived === 'include' ? ('include' as const) : ('exclude' as const),
    sort_by: (query.sort_by as CustomerSortKey) ?? 'name',
    sort_order: query.sort_order === 'desc' ? ('desc' as const) : ('asc' as const),
    ...pageOf(query),
  };
}

export type ItemSortKey = 'name' | 'code' | 'unit_price' | 'created_at';

export function itemListInput(query: Query) {
  return {
    search: query.search,
    kind: query.kind === 'goods' || query.kind === 'service' ? (query.kind as 'goods' | 'service') : undefined,
    tag: Number(query.tag) || undefined,
    archived: query.archived === 'include' ? ('include' as const) : ('exclude' as const),
    sort_by: (query.sort_by as ItemSortKey) ?? 'name',
    sort_order: query.sort_order === 'desc' ? ('desc' as const) : ('asc' as const),
    ...pageOf(query),
  };
}

export type ExpenseSortKey = (typeof EXPENSE_SORT_FIELDS)[number];

/** The expense list's filters (also those of its CSV export and totals), without the page. */
export function expenseFilters(query: Query) {
  const period = asPeriod(query.period);
  return {
    search: query.search || undefined,
    period,
    from: period === 'custom' ? query.from || undefined : undefined,
    to: period === 'custom' ? query.to || undefined : undefined,
    category: query.category || undefined,
    supplier: query.supplier || undefined,
    status: query.status === 'paid' || query.status === 'unpaid' ? (query.status as 'paid' | 'unpaid') : undefined,
    kind: query.kind === 'expense' || query.kind === 'credit_note' ? (query.kind as 'expense' | 'credit_note') : undefined,
    to_check: query.to_check === 'true' ? true : undefined,
    min_amount: amountOrNothing(query.min_amount),
    max_amount: amountOrNothing(query.max_amount),
    sort_by: (EXPENSE_SORT_FIELDS as readonly string[]).includes(query.sort_by ?? '') ? (query.sort_by as ExpenseSortKey) : 'date',
    sort_order: query.sort_order === 'asc' ? ('asc' as const) : ('desc' as const),
  } as const;
}
