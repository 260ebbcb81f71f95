import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Db } from '../connection';
import type { Database, ExpensesTable } from '../schema';
import type { Expense, ExpenseKind, ExpenseRecord, ExpenseVat, ReverseCharge } from '../../../shared/schemas/expense';
import { fromStoredUnits, sum, toStoredUnits, type MoneyInput } from '../../../shared/money';
import { nowIso } from '../../clock';
import { containsText } from './like';
import { foreignVatReason } from '../../../shared/foreign-vat';

const COLUMNS = [
  'expenses.id',
  'expenses.date',
  'expenses.supplier',
  'expenses.supplier_siren',
  'expenses.supplier_vat_number',
  'expenses.supplier_country',
  'expenses.prepaid_amount',
  'expenses.payment_terms',
  'expenses.category',
  'expenses.label',
  'expenses.amount',
  'expenses.vat',
  'expenses.vat_total',
  'expenses.deductible_vat',
  'expenses.currency',
  'expenses.payment_method',
  'expenses.status',
  'expenses.paid_at',
  'expenses.due_date',
  'expenses.invoice_number',
  'expenses.note',
  'expenses.tags',
  'expenses.receipt_name',
  'expenses.receipt_type',
  'expenses.receipt_size',
  'expenses.source',
  'expenses.recurring_id',
  'expenses.kind',
  'expenses.reverse_charge',
  'expenses.preceding_invoice_number',
  'expenses.category_to_check',
  'expenses.created_at',
  'expenses.updated_at',
] as const;

type Row = Pick<
  Selectable<ExpensesTable>,
  | 'id'
  | 'date'
  | 'supplier'
  | 'supplier_siren'
  | 'supplier_vat_number'
  | 'supplier_country'
  | 'prepaid_amount'
  | 'payment_terms'
  | 'category'
  | 'label'
  | 'amount'
  | 'vat'
  | 'vat_total'
  | 'deductible_vat'
  | 'currency'
  | 'payment_method'
  | 'status'
  | 'paid_at'
  | 'due_date'
  | 'invoice_number'
  | 'note'
  | 'tags'
  | 'receipt_name'
  | 'receipt_type'
  | 'receipt_size'
  | 'source'
  | 'recurring_id'
  | 'kind'
  | 'reverse_charge'
  | 'preceding_invoice_number'
  | 'category_to_check'
  | 'created_at'
  | 'updated_at'
> & {
  category_label: string | null;
  category_account: string | null;
  corrects_id: number | null;
  corrects_number: string | null;
  corrects_date: string | null;
};

type StoredVat = { rate: number; amount: number; deductible: boolean };

/** The one row → answer mapping: stored units back to amounts, JSON columns back to arrays. */
function fromRow(row: Row): ExpenseRecord {
  const vat = (JSON.parse(row.vat) as StoredVat[]).map((v) => ({
    rate: v.rate,
    amount: fromStoredUnits(v.amount),
    deductible: v.deductible,
  }));
  return {
    id: row.id,
    date: row.date,
    supplier: row.supplier,
    supplier_siren: row.supplier_siren,
    supplier_vat_number: row.supplier_vat_number,
    supplier_country: row.supplier_country,
    prepaid_amount: fromStoredUnits(row.prepaid_amount),
    payment_terms: row.payment_terms,
    vat_note:
      row.reverse_charge === '' && vat.some((v) => !v.deductible && v.amount !== 0)
        ? (foreignVatReason(row.supplier_country, row.supplier_vat_number) ?? '')
        : '',
    category: row.category,
    category_label: row.category_label ?? row.category,
    category_account: row.category_account ?? '',
    label: row.label,
    amount: fromStoredUnits(row.amount),
    vat,
    vat_total: fromStoredUnits(row.vat_total),
    deductible_vat: fromStoredUnits(row.deductible_vat),
    net: fromStoredUnits(row.amount - row.vat_total),
    currency: row.currency,
    payment_method: row.payment_method,
    status: row.status as ExpenseRecord['status'],
    paid_at: row.paid_at,
    due_date: row.due_date,
    invoice_number: row.invoice_number,
    note: row.note,
    tags: JSON.parse(row.tags) as string[],
    receipt: row.receipt_name ? { filename: row.receipt_name, content_type: row.receipt_type ?? '', size: row.receipt_size ?? 0 } : null,
    source: row.source as ExpenseRecord['source'],
    recurring_id: row.recurring_id,
    kind: row.kind as ExpenseRecord['kind'],
    reverse_charge: row.reverse_charge as ExpenseRecord['reverse_charge'],
    preceding_invoice_number: row.preceding_invoice_number,
    corrects:
      row.corrects_id !== null ? { id: row.corrects_id, invoice_number: row.corrects_number ?? '', date: row.corrects_date ?? '' } : null,
    category_to_check: row.category_to_check === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The amounts as stored: the VAT total and its deductible part are computed here, once per write. A credit note's
 * are stored negative (migration 0033), so that every sum of expenses counts it against them.
 */
export function amountColumns(e: { amount: number; vat: ExpenseVat[]; kind?: ExpenseKind; reverse_charge?: ReverseCharge }) {
  const sign = e.kind === 'credit_note' ? -1 : 1;
  const units = (n: MoneyInput) => sign * toStoredUnits(n) || 0; // never -0
  const vat: StoredVat[] = e.vat.map((v) => ({ rate: v.rate, amount: units(v.amount), deductible: v.deductible }));
  // Self-assessed VAT was paid to no supplier: the amount is all HT, owed and deducted through the VAT return only.
  const paid = e.reverse_charge ? [] : e.vat;
  return {
    amount: units(e.amount),
    vat: JSON.stringify(vat),
    vat_total: units(sum(paid.map((v) => v.amount))),
    deductible_vat: units(sum(paid.filter((v) => v.deductible).map((v) => v.amount))),
  };
}

function toColumns(e: Expense) {
  return {
    date: e.date,
    supplier: e.supplier,
    supplier_siren: e.supplier_siren.replace(/\D/g, ''),
    supplier_vat_number: e.supplier_vat_number,
    supplier_country: e.supplier_country,
    prepaid_amount: toStoredUnits(e.prepaid_amount),
    payment_terms: e.payment_terms,
    category: e.category,
    label: e.label,
    ...amountColumns(e),
    currency: e.currency,
    payment_method: e.payment_method,
    status: e.status,
    // Paid on its date unless told otherwise; an unpaid expense has no paid date.
    paid_at: e.status === 'paid' ? (e.paid_at ?? e.date) : null,
    due_date: e.due_date ?? null,
    invoice_number: e.invoice_number,
    note: e.note,
    tags: JSON.stringify([...new Set(e.tags)]),
    kind: e.kind,
    reverse_charge: e.reverse_charge,
    preceding_invoice_number: e.kind === 'credit_note' ? e.preceding_invoice_number : '',
  };
}

/** What the service decides beside the fields typed: the invoice a credit note corrects, the category to check. */
export interface ExpenseLinks {
  correctsId: number | null;
  categoryToCheck: boolean;
}

export interface ExpenseOrigin {
  /** 'einvoice': a file the user imported; 'platform': a supplier invoice received from the Plateforme Agréée. */
  source: 'manual' | 'recurring' | 'einvoice' | 'platform';
  sourceSha256?: string;
  recurringId?: number;
  occurrenceDate?: string;
}

export async function insertExpense(
  db: Db,
  params: { organizationId: number; expense: Expense; links: ExpenseLinks; origin?: ExpenseOrigin },
): Promise<number> {
  const now = nowIso();
  const origin = params.origin ?? { source: 'manual' };
  const row = await db
    .insertInto('expenses')
    .values({
      organization_id: params.organizationId,
      ...toColumns(params.expense),
      corrects_id: params.links.correctsId,
      category_to_check: params.links.categoryToCheck ? 1 : 0,
      source: origin.source,
      source_sha256: origin.sourceSha256 ?? null,
      recurring_id: origin.recurringId ?? null,
      occurrence_date: origin.occurrenceDate ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateExpense(
  db: Db,
  params: { organizationId: number; id: number; expense: Expense; links: ExpenseLinks },
): Promise<boolean> {
  const result = await db
    .updateTable('expenses')
    .set({
      ...toColumns(params.expense),
      corrects_id: params.links.correctsId,
      category_to_check: params.links.categoryToCheck ? 1 : 0,
      updated_at: nowIso(),
    })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteExpenseRow(db: Db, params: { organizationId: number; id: number }): Promise<boolean> {
  const result = await db
    .deleteFrom('expenses')
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

function selectExpenses(db: Db, organizationId: number) {
  return db
    .selectFrom('expenses')
    .leftJoin('expense_categories as c', (join) =>
      join.onRef('c.organization_id', '=', 'expenses.organization_id').onRef('c.code', '=', 'expenses.category'),
    )
    .leftJoin('expenses as corrected', (join) =>
      join.onRef('corrected.organization_id', '=', 'expenses.organization_id').onRef('corrected.id', '=', 'expenses.corrects_id'),
    )
    .where('expenses.organization_id', '=', organizationId);
}

/** The answer's columns: the expense, its category's label and account, the invoice a credit note corrects. */
const RECORD_COLUMNS = [
  ...COLUMNS,
  'c.label as category_label',
  'c.account as category_account',
  'corrected.id as corrects_id',
  'corrected.invoice_number as corrects_number',
  'corrected.date as corrects_date',
] as const;

type Supplier = { supplier: string; siren: string; vatNumber: string };

/**
 * The same supplier on both sides — the same SIREN, VAT number or name (case aside), whichever both know: a credit
 * note and the invoice it corrects are matched on it and on the invoice's number (BT-25).
 */
function sameSupplier(eb: ExpressionBuilder<Database, 'expenses'>, s: Supplier) {
  const siren = s.siren.replace(/\D/g, '').slice(0, 9);
  return eb.or([
    eb(eb.fn('lower', ['supplier']), '=', eb.fn('lower', [eb.val(s.supplier.trim())])),
    ...(siren ? [eb(eb.fn('substr', ['supplier_siren', eb.val(1), eb.val(9)]), '=', siren)] : []),
    ...(s.vatNumber ? [eb('supplier_vat_number', '=', s.vatNumber)] : []),
  ]);
}

/** The supplier invoice (not a credit note) a credit note corrects, the most recent should the number repeat. */
export async function findSupplierInvoiceId(
  db: Db,
  params: Supplier & { organizationId: number; number: string; excludeId?: number },
): Promise<number | null> {
  let query = db
    .selectFrom('expenses')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('kind', '=', 'expense')
    .where('invoice_number', '=', params.number)
    .where((eb) => sameSupplier(eb, params));
  if (params.excludeId !== undefined) query = query.where('id', '!=', params.excludeId);
  const row = await query.orderBy('date', 'desc').orderBy('id', 'desc').executeTakeFirst();
  return row?.id ?? null;
}

/**
 * A supplier invoice recorded after its credit note (the credit note imported first): the credit notes that name it
 * and are linked to nothing yet are linked to it.
 */
/** An invoice deleted, or turned into a credit note, corrected by nothing any more: its credit notes wait again. */
export async function unlinkCreditNotes(db: Db, params: { organizationId: number; invoiceId: number }): Promise<void> {
  await db
    .updateTable('expenses')
    .set({ corrects_id: null })
    .where('organization_id', '=', params.organizationId)
    .where('corrects_id', '=', params.invoiceId)
    .execute();
}

export async function linkWaitingCreditNotes(
  db: Db,
  params: Supplier & { organizationId: number; number: string; invoiceId: number },
): Promise<void> {
  await db
    .updateTable('expenses')
    .set({ corrects_id: params.invoiceId })
    .where('organization_id', '=', params.organizationId)
    .where('kind', '=', 'credit_note')
    .where('corrects_id', 'is', null)
    .where('preceding_invoice_number', '=', params.number)
    .where((eb) => sameSupplier(eb, params))
    .execute();
}

export async function findExpense(db: Db, params: { organizationId: number; id: number }): Promise<ExpenseRecord | undefined> {
  const row = await selectExpenses(db, params.organizationId)
    .select(RECORD_COLUMNS)
    .where('expenses.id', '=', params.id)
    .executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** Where the receipt's file lies (never answered to a client). */
export async function findReceiptFile(db: Db, params: { organizationId: number; id: number }) {
  return db
    .selectFrom('expenses')
    .select(['receipt_path', 'receipt_name', 'receipt_type', 'receipt_size'])
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
}

export async function setReceipt(
  db: Db,
  params: { organizationId: number; id: number; receipt: { path: string; name: string; type: string; size: number } | null },
): Promise<void> {
  const r = params.receipt;
  await db
    .updateTable('expenses')
    .set({
      receipt_path: r?.path ?? null,
      receipt_name: r?.name ?? null,
      receipt_type: r?.type ?? null,
      receipt_size: r?.size ?? null,
      updated_at: nowIso(),
    })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function findImportedExpenseId(db: Db, params: { organizationId: number; sha256: string }): Promise<number | undefined> {
  const row = await db
    .selectFrom('expenses')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('source_sha256', '=', params.sha256)
    .executeTakeFirst();
  return row?.id;
}

/** The expenses carrying a supplier's invoice number, with who issued them: an invoice imported twice is found among them. */
export function expensesWithInvoiceNumber(db: Db, params: { organizationId: number; invoiceNumber: string }) {
  return db
    .selectFrom('expenses')
    .select(['id', 'supplier', 'supplier_siren', 'supplier_vat_number'])
    .where('organization_id', '=', params.organizationId)
    .where('invoice_number', '=', params.invoiceNumber)
    .orderBy('id')
    .execute();
}

export interface ExpenseListParams {
  organizationId: number;
  search?: string;
  from?: string;
  to?: string;
  category?: string;
  supplier?: string;
  status?: 'paid' | 'unpaid';
  kind?: ExpenseKind;
  toCheck?: boolean;
  minAmount?: number;
  maxAmount?: number;
  sortBy: 'date' | 'supplier' | 'category' | 'amount';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

function filtered(db: Db, params: ExpenseListParams) {
  let query = selectExpenses(db, params.organizationId);
  if (params.from) query = query.where('expenses.date', '>=', params.from);
  if (params.to) query = query.where('expenses.date', '<=', params.to);
  if (params.category) query = query.where('expenses.category', '=', params.category);
  if (params.supplier) query = query.where(containsText('expenses.supplier', params.supplier));
  if (params.status) query = query.where('expenses.status', '=', params.status);
  if (params.kind) query = query.where('expenses.kind', '=', params.kind);
  if (params.toCheck !== undefined) query = query.where('expenses.category_to_check', '=', params.toCheck ? 1 : 0);
  if (params.minAmount !== undefined) query = query.where('expenses.amount', '>=', toStoredUnits(params.minAmount));
  if (params.maxAmount !== undefined) query = query.where('expenses.amount', '<=', toStoredUnits(params.maxAmount));
  if (params.search) {
    const search = params.search;
    query = query.where((eb) =>
      eb.or([
        containsText('expenses.supplier', search),
        containsText('expenses.label', search),
        containsText('expenses.invoice_number', search),
        containsText('expenses.note', search),
        containsText('expenses.tags', search),
        containsText('c.label', search),
      ]),
    );
  }
  return query;
}

const SORT_COLUMNS = { date: 'expenses.date', supplier: 'expenses.supplier', category: 'c.label', amount: 'expenses.amount' } as const;

/** One page of the filtered expenses, their count and the sums of the whole filtered set per currency. */
export async function listExpenses(db: Db, params: ExpenseListParams) {
  const query = filtered(db, params);
  const sums = await query
    .select((eb) => [
      'expenses.currency',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('expenses.amount').as('amount'),
      eb.fn.sum<number>('expenses.vat_total').as('vat'),
      eb.fn.sum<number>('expenses.deductible_vat').as('deductible_vat'),
    ])
    .groupBy('expenses.currency')
    .orderBy('expenses.currency')
    .execute();
  const rows = await query
    .select(RECORD_COLUMNS)
    .orderBy(sql.ref(SORT_COLUMNS[params.sortBy]), params.sortOrder)
    .orderBy('expenses.id', params.sortOrder)
    .limit(params.limit)
    .offset(params.offset)
    .execute();
  return {
    total: sums.reduce((n, s) => n + Number(s.count), 0),
    data: rows.map(fromRow),
    sums: sums.map((s) => ({
      currency: s.currency,
      count: Number(s.count),
      amount: fromStoredUnits(Number(s.amount)),
      vat: fromStoredUnits(Number(s.vat)),
      deductible_vat: fromStoredUnits(Number(s.deductible_vat)),
    })),
  };
}

/** Every expense of the filtered set, for the CSV export (no page). */
export async function allExpenses(db: Db, params: Omit<ExpenseListParams, 'offset' | 'limit'>): Promise<ExpenseRecord[]> {
  const rows = await filtered(db, { ...params, offset: 0, limit: 0 })
    .select(RECORD_COLUMNS)
    .orderBy(sql.ref(SORT_COLUMNS[params.sortBy]), params.sortOrder)
    .orderBy('expenses.id', params.sortOrder)
    .execute();
  return rows.map(fromRow);
}

/** Past suppliers, most used first, for the form's suggestions. */
export async function listSuppliers(db: Db, params: { organizationId: number; search?: string; limit: number }) {
  let query = db
    .selectFrom('expenses')
    .select((eb) => ['supplier', eb.fn.max('supplier_siren').as('siren'), eb.fn.max('supplier_vat_number').as('vat_number')])
    .select((eb) => eb.fn.countAll<number>().as('uses'))
    .where('organization_id', '=', params.organizationId);
  if (params.search) query = query.where(containsText('supplier', params.search));
  const rows = await query.groupBy('supplier').orderBy('uses', 'desc').orderBy('supplier').limit(params.limit).execute();
  return rows.map((r) => ({ name: r.supplier, siren: String(r.siren ?? ''), vat_number: String(r.vat_number ?? '') }));
}
