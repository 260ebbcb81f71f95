import type { Db } from '../connection';
import type { DocumentItemRow, DocumentRow } from './document-mapping';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * The reads of the FEC export: issued sales documents and payments of a period, as rows. Their mapping, entries and
 * text are built in a worker thread (services/fec-book.ts): here only SQL, page by page, so that the event loop serves
 * other requests between the pages of a year of invoices.
 */

/** Documents read per statement: a page of rows with their lines is about ten milliseconds of synchronous SQLite. */
const PAGE = 200;

/** Pages of ids, the event loop served between them. */
async function* idPages<T>(ids: number[], read: (page: number[]) => Promise<T>): AsyncGenerator<T> {
  for (let start = 0; start < ids.length; start += PAGE) {
    if (start > 0) await nextTurn();
    yield await read(ids.slice(start, start + PAGE));
  }
}

export type SaleRows = { documents: DocumentRow[]; items: DocumentItemRow[] };

/** The documents of `ids` with their lines, a page at a time, the event loop served between pages. */
function pagesOf(db: Db, organizationId: number, ids: number[]): AsyncGenerator<SaleRows> {
  return idPages(ids, async (page) => {
    const rows = await db
      .selectFrom('documents')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', 'in', page)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    const documents = page.flatMap((id) => byId.get(id) ?? []);
    const items = await db.selectFrom('document_items').selectAll().where('document_id', 'in', page).orderBy('position').execute();
    return { documents, items };
  });
}

/** A fiscal year: `from` null for the first one, which opens with the books. */
export type Period = { organizationId: number; from: string | null; to: string };

/** Invoices and credit notes issued (numbered) with a date in [from, to], oldest first. */
export async function* issuedSalePages(db: Db, params: Period): AsyncGenerator<SaleRows> {
  const ids = await db
    .selectFrom('documents')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('type', 'in', ['invoice', 'credit'])
    .where('number', 'is not', null)
    .$if(params.from !== null, (q) => q.where('date', '>=', params.from ?? ''))
    .where('date', '<=', params.to)
    .orderBy('date')
    .orderBy('counter')
    .execute();
  yield* pagesOf(
    db,
    params.organizationId,
    ids.map((r) => r.id),
  );
}

/** The issued deposit invoices that the given final invoices deduct. */
export async function* deductedDepositPages(db: Db, params: { organizationId: number; invoiceIds: number[] }): AsyncGenerator<SaleRows> {
  const ids: number[] = [];
  for (let start = 0; start < params.invoiceIds.length; start += PAGE) {
    const rows = await db
      .selectFrom('documents')
      .select('id')
      .where('organization_id', '=', params.organizationId)
      .where('kind', '=', 'deposit')
      .where('number', 'is not', null)
      .where('deducted_by_id', 'in', params.invoiceIds.slice(start, start + PAGE))
      .orderBy('counter')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  yield* pagesOf(db, params.organizationId, ids);
}

function paymentPage(db: Db, organizationId: number, ids: number[]) {
  return db
    .selectFrom('payments as p')
    .innerJoin('documents as d', (join) => join.onRef('d.id', '=', 'p.document_id').onRef('d.organization_id', '=', 'p.organization_id'))
    .select((eb) => [
      'p.id',
      'p.date',
      'p.amount',
      'p.method',
      'p.fee',
      'p.fee_currency',
      'p.created_at',
      'd.number',
      'd.currency',
      'd.exchange_rate',
      'd.customer_name',
      'd.customer_snapshot',
      // A reversal of a payment a bank line recorded: the line stays in the bank journal, the reversal is an OD.
      eb
        .exists(eb.selectFrom('bank_matches as m').select('m.id').whereRef('m.payment_id', '=', 'p.reverses_id'))
        .as('reverses_bank_payment'),
      // The fee the reversed payment's line kept: the reversal takes it back off bank charges.
      eb.selectFrom('payments as o').select('o.fee').whereRef('o.id', '=', 'p.reverses_id').as('reversed_fee'),
    ])
    .where('p.organization_id', '=', organizationId)
    .where('p.id', 'in', ids)
    .orderBy('p.date')
    .orderBy('p.id')
    .execute();
}

export type PaymentRow = Awaited<ReturnType<typeof paymentPage>>[number];

/**
 * Payments recorded by hand (and reversals) dated in [from, to], with the invoice they settle, in their order. A payment
 * a bank line recorded is left out: the line itself is the bank journal's entry (bankLinePages).
 */
export async function* paymentPagesOfPeriod(db: Db, params: Period): AsyncGenerator<PaymentRow[]> {
  const ids = await db
    .selectFrom('payments as p')
    .select('p.id')
    .where('p.organization_id', '=', params.organizationId)
    .$if(params.from !== null, (q) => q.where('p.date', '>=', params.from ?? ''))
    .where('p.date', '<=', params.to)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('bank_matches as m').select('m.id').whereRef('m.payment_id', '=', 'p.id'))),
    )
    .orderBy('p.date')
    .orderBy('p.id')
    .execute();
  yield* idPages(
    ids.map((r) => r.id),
    (page) => paymentPage(db, params.organizationId, page),
  );
}

const expenseColumns = [
  'e.id',
  'e.date',
  'e.supplier',
  'e.supplier_siren',
  'e.supplier_vat_number',
  'e.invoice_number',
  'e.label',
  'e.amount',
  'e.vat',
  'e.reverse_charge',
  'e.currency',
  'e.kind',
  'e.status',
  'e.paid_at',
  'e.created_at',
  'e.updated_at',
  'c.label as category_label',
  'c.account as category_account',
] as const;

function expensePage(db: Db, organizationId: number, ids: number[]) {
  return db
    .selectFrom('expenses as e')
    .leftJoin('expense_categories as c', (join) =>
      join.onRef('c.organization_id', '=', 'e.organization_id').onRef('c.code', '=', 'e.category'),
    )
    .select([...expenseColumns])
    .where('e.organization_id', '=', organizationId)
    .where('e.id', 'in', ids)
    .orderBy('e.date')
    .orderBy('e.id')
    .execute();
}

export type ExpenseRow = Awaited<ReturnType<typeof expensePage>>[number];

/** Expenses and supplier credit notes dated in [from, to]: the purchases journal. */
export async function* expensePagesOfPeriod(db: Db, params: Period): AsyncGenerator<ExpenseRow[]> {
  const ids = await db
    .selectFrom('expenses')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .$if(params.from !== null, (q) => q.where('date', '>=', params.from ?? ''))
    .where('date', '<=', params.to)
    .orderBy('date')
    .orderBy('id')
    .execute();
  yield* idPages(
    ids.map((r) => r.id),
    (page) => expensePage(db, params.organizationId, page),
  );
}

/** Expenses marked paid in [from, to] that no bank line paid: paid by hand, booked from their paid date. */
export async function* handPaidExpensePages(db: Db, params: Period): AsyncGenerator<ExpenseRow[]> {
  const ids = await db
    .selectFrom('expenses as e')
    .select('e.id')
    .where('e.organization_id', '=', params.organizationId)
    .where('e.status', '=', 'paid')
    .where('e.paid_at', 'is not', null)
    .$if(params.from !== null, (q) => q.where('e.paid_at', '>=', params.from ?? ''))
    .where('e.paid_at', '<=', params.to)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('bank_matches as m')
            .select('m.id')
            .where('m.kind', '=', 'expense')
            .whereRef('m.target_id', '=', 'e.id')
            .whereRef('m.organization_id', '=', 'e.organization_id'),
        ),
      ),
    )
    .orderBy('e.paid_at')
    .orderBy('e.id')
    .execute();
  yield* idPages(
    ids.map((r) => r.id),
    (page) => expensePage(db, params.organizationId, page),
  );
}

/**
 * Expenses paid in [from, to] (by hand or through a bank line), as the VAT return dates a payment (its paid date, else
 * its own date): the day the deductible VAT of services they bought leaves the waiting account.
 */
export async function* paidExpensePages(db: Db, params: Period): AsyncGenerator<ExpenseRow[]> {
  const ids = await db
    .selectFrom('expenses as e')
    .select('e.id')
    .where('e.organization_id', '=', params.organizationId)
    .where('e.status', '=', 'paid')
    .$if(params.from !== null, (q) => q.where((eb) => eb.fn.coalesce('e.paid_at', 'e.date'), '>=', params.from ?? ''))
    .where((eb) => eb.fn.coalesce('e.paid_at', 'e.date'), '<=', params.to)
    .orderBy('e.id')
    .execute();
  yield* idPages(
    ids.map((r) => r.id),
    (page) => expensePage(db, params.organizationId, page),
  );
}

/** The organisation's bank accounts, oldest first: each has its own 512 sub-account in the FEC. */
export function bankAccountsOf(db: Db, organizationId: number) {
  return db.selectFrom('bank_accounts').select(['id', 'name']).where('organization_id', '=', organizationId).orderBy('id').execute();
}

async function bankLinePage(db: Db, organizationId: number, ids: number[]) {
  const lines = await db
    .selectFrom('bank_transactions')
    .select(['id', 'account_id', 'date', 'amount', 'currency', 'label', 'reference', 'status', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .orderBy('date')
    .orderBy('id')
    .execute();
  const invoices = await db
    .selectFrom('bank_matches as m')
    .innerJoin('payments as p', (join) => join.onRef('p.id', '=', 'm.payment_id').onRef('p.organization_id', '=', 'm.organization_id'))
    .innerJoin('documents as d', (join) => join.onRef('d.id', '=', 'p.document_id').onRef('d.organization_id', '=', 'p.organization_id'))
    .select(['m.transaction_id', 'm.amount', 'p.fee', 'p.fee_currency', 'd.number', 'd.customer_name', 'd.customer_snapshot'])
    .where('m.organization_id', '=', organizationId)
    .where('m.kind', '=', 'invoice')
    .where('m.transaction_id', 'in', ids)
    .orderBy('m.id')
    .execute();
  const expenses = await db
    .selectFrom('bank_matches as m')
    .innerJoin('expenses as e', (join) => join.onRef('e.id', '=', 'm.target_id').onRef('e.organization_id', '=', 'm.organization_id'))
    .select(['m.transaction_id', 'm.amount', 'e.id', 'e.invoice_number', 'e.supplier', 'e.supplier_siren', 'e.supplier_vat_number'])
    .where('m.organization_id', '=', organizationId)
    .where('m.kind', '=', 'expense')
    .where('m.transaction_id', 'in', ids)
    .orderBy('m.id')
    .execute();
  return { lines, invoices, expenses };
}

export type BankLineRows = Awaited<ReturnType<typeof bankLinePage>>;

/** Every line of the organisation's statements dated in [from, to], with what it paid: the bank journal of a connected account. */
export async function* bankLinePages(db: Db, params: Period): AsyncGenerator<BankLineRows> {
  const ids = await db
    .selectFrom('bank_transactions')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .$if(params.from !== null, (q) => q.where('date', '>=', params.from ?? ''))
    .where('date', '<=', params.to)
    .orderBy('date')
    .orderBy('id')
    .execute();
  yield* idPages(
    ids.map((r) => r.id),
    (page) => bankLinePage(db, params.organizationId, page),
  );
}
