import type { Db } from '../connection';

/**
 * What the VAT return of a period reads (services/vat-return.ts): the sales whose VAT can move in the period — issued
 * invoices dated in it, invoices paid or credited in it — with everything their cumulative VAT depends on (their
 * credit notes, the deposits a final invoice deducts, their payments up to the period's end, their lines and tax
 * groups); and the expenses invoiced or paid in it. Amounts as stored (INTEGER units of 10^-4).
 */
export async function vatReturnSales(db: Db, params: { organizationId: number; from: string; to: string }) {
  const { organizationId, from, to } = params;
  const issued = () =>
    db
      .selectFrom('documents')
      .where('organization_id', '=', organizationId)
      .where('number', 'is not', null)
      .where('type', 'in', ['invoice', 'credit']);
  const [dated, paid, credited] = await Promise.all([
    issued().select('id').where('date', '>=', from).where('date', '<=', to).execute(),
    db
      .selectFrom('payments')
      .select('document_id as id')
      .distinct()
      .where('organization_id', '=', organizationId)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .execute(),
    issued().select('corrects_id as id').where('type', '=', 'credit').where('date', '>=', from).where('date', '<=', to).execute(),
  ]);
  const seeds = [...new Set([...dated, ...paid, ...credited].map((r) => r.id).filter((id): id is number => id !== null))];
  return vatSalesOf(db, { organizationId, ids: seeds, to });
}

/**
 * The sales `ids` with everything their cumulative VAT up to `to` depends on: their credit notes, the deposits a
 * final invoice deducts, their payments, lines and tax groups (the VAT ledger reads its owners with it).
 */
export async function vatSalesOf(db: Db, params: { organizationId: number; ids: readonly number[]; to: string }) {
  const { organizationId, ids: seeds, to } = params;
  if (seeds.length === 0) return { documents: [], lines: [], taxes: [], payments: [] };
  const issued = () =>
    db
      .selectFrom('documents')
      .where('organization_id', '=', organizationId)
      .where('number', 'is not', null)
      .where('type', 'in', ['invoice', 'credit']);
  const documents = [];
  // In slices: under SQLite's limit of bound parameters. One lookup per relation, each by its own index (an `or` of
  // the three read every document of the organisation up to the date).
  for (const ids of slices(seeds))
    for (const column of ['id', 'corrects_id', 'deducted_by_id'] as const)
      documents.push(
        ...(await issued()
          .select([
            'id',
            'number',
            'type',
            'kind',
            'date',
            'customer_name',
            'customer_snapshot',
            'currency',
            'exchange_rate',
            'total',
            'tax',
            'deposits',
            'corrects_id',
            'deducted_by_id',
          ])
          .where('date', '<=', to)
          .where(column, 'in', ids)
          .execute()),
      );
  const ids = [...new Set(documents.map((d) => d.id))];
  const lines = [];
  const taxes = [];
  const payments = [];
  for (const slice of slices(ids)) {
    const [l, t, p] = await Promise.all([
      db.selectFrom('document_items').select(['document_id', 'kind', 'taxes', 'net']).where('document_id', 'in', slice).execute(),
      db.selectFrom('document_taxes').select(['document_id', 'rate', 'base', 'amount']).where('document_id', 'in', slice).execute(),
      db
        .selectFrom('payments')
        .select(['document_id', 'date', 'amount'])
        .where('organization_id', '=', organizationId)
        .where('document_id', 'in', slice)
        .where('date', '<=', to)
        .execute(),
    ]);
    lines.push(...l);
    taxes.push(...t);
    payments.push(...p);
  }
  return { documents: [...new Map(documents.map((d) => [d.id, d])).values()], lines, taxes, payments };
}

/** Expenses in `currency` invoiced or paid in the period, with the account of their category. */
export async function vatReturnExpenses(db: Db, params: { organizationId: number; from: string; to: string; currency: string }) {
  const { from, to } = params;
  return expenseRows(db, params)
    .where((eb) =>
      eb.or([eb.and([eb('e.date', '>=', from), eb('e.date', '<=', to)]), eb.and([eb('e.paid_at', '>=', from), eb('e.paid_at', '<=', to)])]),
    )
    .orderBy('e.date')
    .orderBy('e.id')
    .execute();
}

/** The expenses `ids` in `currency` (the VAT ledger's owners), as the return reads them. */
export async function vatExpensesOf(db: Db, params: { organizationId: number; ids: readonly number[]; currency: string }) {
  const rows = [];
  for (const ids of slices(params.ids)) rows.push(...(await expenseRows(db, params).where('e.id', 'in', ids).execute()));
  return rows;
}

function expenseRows(db: Db, params: { organizationId: number; currency: string }) {
  return db
    .selectFrom('expenses as e')
    .leftJoin('expense_categories as c', (join) =>
      join.onRef('c.organization_id', '=', 'e.organization_id').onRef('c.code', '=', 'e.category'),
    )
    .select([
      'e.id',
      'e.date',
      'e.paid_at',
      'e.status',
      'e.supplier',
      'e.invoice_number',
      'e.label',
      'e.amount',
      'e.vat',
      'e.reverse_charge',
      'c.account',
    ])
    .where('e.organization_id', '=', params.organizationId)
    .where('e.currency', '=', params.currency);
}

/** The number and customer of documents `ids` (the pieces of a page of a line's operations). */
export async function vatDocumentNames(db: Db, params: { organizationId: number; ids: readonly number[] }) {
  if (params.ids.length === 0) return [];
  return db
    .selectFrom('documents')
    .select(['id', 'number', 'customer_name'])
    .where('organization_id', '=', params.organizationId)
    .where('id', 'in', params.ids)
    .execute();
}

/** The supplier's invoice number, label and supplier of expenses `ids` (the pieces of a page of a line's operations). */
export async function vatExpenseNames(db: Db, params: { organizationId: number; ids: readonly number[] }) {
  if (params.ids.length === 0) return [];
  return db
    .selectFrom('expenses')
    .select(['id', 'invoice_number', 'label', 'supplier'])
    .where('organization_id', '=', params.organizationId)
    .where('id', 'in', params.ids)
    .execute();
}

function slices<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
