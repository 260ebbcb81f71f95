import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../connection';
import type { BankTransactionsTable } from '../schema';

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

export function findDefaultBankAccount(db: Db, organizationId: number) {
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
    .select(['m.transaction_id', 'm.kind', 'm.target_id', 'm.amount', 'd.number', 'e.supplier'])
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
    .where('status', 'in', ['unpaid', 'partial'])
    .where('amount_due', '>', 0)
    .execute();
}

/** Expenses not yet paid, for the matcher. */
export function listUnpaidExpenses(db: Db, organizationId: number) {
  return db
    .selectFrom('expenses')
    .select(['id', 'supplier', 'invoice_number', 'currency', 'amount', 'date'])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'unpaid')
    .where('kind', '=', 'expense')
    .execute();
}
