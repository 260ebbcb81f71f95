import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../connection';
import type { BankTransactionsTable } from '../schema';
import { containsText } from './like';
import { OPEN_STATUSES } from '../../../shared/document-status';

/** The reads and writes of bank accounts, their statement lines and what the lines paid. */

export type BankAccountRow = Awaited<ReturnType<typeof listBankAccountRows>>[number];
export type BankTransactionRow = Selectable<BankTransactionsTable>;

export function listBankAccountRows(db: Db, organizationId: number) {
  return db
    .selectFrom('bank_accounts as a')
    .select((eb) => [
      'a.id',
      'a.name',
      'a.iban',
      'a.bic',
      'a.is_default',
      'a.csv_mapping',
      'a.statement_balance',
      'a.statement_balance_date',
      'a.created_at',
      'a.updated_at',
      eb
        .selectFrom('bank_transactions as t')
        .whereRef('t.account_id', '=', 'a.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('transactions'),
      eb
        .selectFrom('bank_transactions as t')
        .whereRef('t.account_id', '=', 'a.id')
        .where('t.status', 'in', ['unmatched', 'suggested'])
        .select(eb.fn.countAll<number>().as('n'))
        .as('to_review'),
      eb
        .selectFrom('bank_transactions as t')
        .whereRef('t.account_id', '=', 'a.id')
        .select((inner) => inner.fn.max('t.date').as('d'))
        .as('last_date'),
    ])
    .where('a.organization_id', '=', organizationId)
    .orderBy('a.is_default', 'desc')
    .orderBy('a.name')
    .execute();
}

export async function findBankAccountRow(db: Db, organizationId: number, id: number) {
  return (await listBankAccountRows(db, organizationId)).find((a) => a.id === id);
}

// async: without a connection it rejects like its neighbours in a Promise.all, rather than throwing before they are awaited.
export async function findDefaultBankAccount(db: Db, organizationId: number) {
  return db
    .selectFrom('bank_accounts')
    .select(['id', 'name', 'iban', 'bic'])
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', 1)
    .executeTakeFirst();
}

export async function fingerprintsOf(db: Db, accountId: number, fingerprints: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let start = 0; start < fingerprints.length; start += 500) {
    const rows = await db
      .selectFrom('bank_transactions')
      .select('fingerprint')
      .where('account_id', '=', accountId)
      .where('fingerprint', 'in', fingerprints.slice(start, start + 500))
      .execute();
    for (const row of rows) known.add(row.fingerprint);
  }
  return known;
}

export async function insertTransactions(db: Db, rows: Insertable<BankTransactionsTable>[]): Promise<number> {
  let inserted = 0;
  // Under SQLite's cap of bound parameters per statement (17 columns a row).
  for (let start = 0; start < rows.length; start += 50) {
    const chunk = rows.slice(start, start + 50);
    const result = await db
      .insertInto('bank_transactions')
      .values(chunk)
      .onConflict((oc) => oc.columns(['account_id', 'fingerprint']).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

export type TransactionFilter = { organizationId: number; accountId?: number; status?: string; from?: string; to?: string };

function filtered(db: Db, f: TransactionFilter) {
  let query = db.selectFrom('bank_transactions').where('organization_id', '=', f.organizationId);
  if (f.accountId !== undefined) query = query.where('account_id', '=', f.accountId);
  if (f.status !== undefined) query = query.where('status', '=', f.status);
  if (f.from !== undefined) query = query.where('date', '>=', f.from);
  if (f.to !== undefined) query = query.where('date', '<=', f.to);
  return query;
}

export async function listTransactionRows(db: Db, f: TransactionFilter & { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    filtered(db, f).selectAll().orderBy('date', 'desc').orderBy('id', 'desc').offset(f.offset).limit(f.limit).execute(),
    filtered(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findTransactionRow(db: Db, organizationId: number, id: number) {
  return db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function listMatchesOf(db: Db, organizationId: number, transactionIds: number[]) {
  if (transactionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('bank_matches as m')
    .leftJoin('documents as d', (j) => j.onRef('d.id', '=', 'm.target_id').on('m.kind', '=', 'invoice'))
    .leftJoin('expenses as e', (j) => j.onRef('e.id', '=', 'm.target_id').on('m.kind', '=', 'expense'))
    .leftJoin('payments as p', 'p.id', 'm.payment_id')
    .select(['m.transaction_id', 'm.kind', 'm.target_id', 'm.amount', 'p.fee', 'd.number', 'e.supplier'])
    .where('m.organization_id', '=', organizationId)
    .where('m.transaction_id', 'in', transactionIds)
    .orderBy('m.id')
    .execute();
}

/** Issued invoices with something left to pay, for the matcher. */
export function listOpenInvoices(db: Db, organizationId: number) {
  return db
    .selectFrom('documents')
    .select(['id', 'number', 'customer_name', 'currency', 'amount_due', 'date'])
    .where('organization_id', '=', organizationId)
    .where('type', '=', 'invoice')
    .where('status', 'in', OPEN_STATUSES)
    .where('amount_due', '>', 0)
    .execute();
}

/**
 * An organisation's expenses not yet paid, with what the bank will show: the invoice's total less what it says was
 * paid before it.
 */
function unpaidExpenses(db: Db, organizationId: number) {
  return db
    .selectFrom('expenses')
    .select((eb) => [
      'id',
      'supplier',
      'invoice_number',
      'currency',
      eb(eb.ref('amount'), '-', eb.ref('prepaid_amount')).as('amount'),
      'date',
    ])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'unpaid')
    .where('kind', '=', 'expense');
}

/** Expenses not yet paid, for the matcher. */
export function listUnpaidExpenses(db: Db, organizationId: number) {
  return unpaidExpenses(db, organizationId).execute();
}

/** Open invoices in a currency whose number or customer contains `search`, oldest first: what a credit could pay by hand. */
export function searchOpenInvoices(db: Db, params: { organizationId: number; currency: string; search: string; limit: number }) {
  return db
    .selectFrom('documents')
    .select(['id', 'number', 'customer_name', 'currency', 'amount_due', 'date'])
    .where('organization_id', '=', params.organizationId)
    .where('type', '=', 'invoice')
    .where('status', 'in', OPEN_STATUSES)
    .where('amount_due', '>', 0)
    .where('currency', '=', params.currency)
    .$if(params.search !== '', (q) =>
      q.where((eb) => eb.or([containsText('number', params.search), containsText('customer_name', params.search)])),
    )
    .orderBy('date')
    .orderBy('id')
    .limit(params.limit)
    .execute();
}

/** Unpaid expenses in a currency whose supplier, label or invoice number contains `search`: what a debit could pay. */
export function searchUnpaidExpenses(db: Db, params: { organizationId: number; currency: string; search: string; limit: number }) {
  return unpaidExpenses(db, params.organizationId)
    .where('currency', '=', params.currency)
    .$if(params.search !== '', (q) =>
      q.where((eb) =>
        eb.or([
          containsText('supplier', params.search),
          containsText('label', params.search),
          containsText('invoice_number', params.search),
        ]),
      ),
    )
    .orderBy('date')
    .orderBy('id')
    .limit(params.limit)
    .execute();
}
