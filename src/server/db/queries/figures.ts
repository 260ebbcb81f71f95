import { sql } from 'kysely';
import type { Db } from '../connection';

/**
 * The dashboard's and the customer page's figures, as SQL aggregates over the stored totals (scale 4): nothing
 * loads every document. Turnover is excluding tax (HT) of issued standard invoices less issued credit notes; deposit
 * invoices are advances that the final invoice already counts, so they are left out.
 */
const HT = sql<number>`(subtotal - discount)`;
/** 1 for a credit note on a deposit invoice: it cancels an advance, which turnover never counted. */
// A primary-key lookup per credit note: not a list of every deposit of the table built for each query.
export const creditOfDeposit = sql<number>`(case when type = 'credit' and exists (select 1 from documents d where d.id = documents.corrects_id and d.kind = 'deposit') then 1 else 0 end)`;

export async function sumTurnover(
  db: Db,
  params: { organizationId: number; currency: string; from: string; to: string; customerId?: number },
): Promise<number> {
  let query = db
    .selectFrom('documents')
    .select(sql<number>`coalesce(sum(case when type = 'credit' then -${HT} else ${HT} end), 0)`.as('ht'))
    .where('organization_id', '=', params.organizationId)
    .where('currency', '=', params.currency)
    .where('number', 'is not', null)
    .where('kind', '=', 'standard')
    .where('type', 'in', ['invoice', 'credit'])
    .where(creditOfDeposit, '=', 0)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to);
  if (params.customerId) query = query.where('customer_id', '=', params.customerId);
  return Number((await query.executeTakeFirstOrThrow()).ht);
}

/** Turnover per month (1 to 12) of a year, from the days kept by the summaries (migration 0064). */
export async function monthlyTurnover(db: Db, params: { organizationId: number; currency: string; year: number }): Promise<number[]> {
  const rows = await db
    .selectFrom('summary_document_days')
    .select([sql<string>`substr(date, 6, 2)`.as('month'), sql<number>`sum(case when type = 'credit' then -ht else ht end)`.as('ht')])
    .where('organization_id', '=', params.organizationId)
    .where('date', '>=', `${params.year}-01-01`)
    .where('date', '<=', `${params.year}-12-31`)
    .where('kind', '=', 'standard')
    .where('deposit_credit', '=', 0)
    .where('currency', '=', params.currency)
    .groupBy(sql`substr(date, 6, 2)`)
    .execute();
  const months = Array<number>(12).fill(0);
  for (const r of rows) months[Number(r.month) - 1] = Number(r.ht);
  return months;
}

/**
 * What customers still owe on issued invoices (TTC), and the part of it past due, from the open invoices kept by
 * the summaries per maturity (migration 0064; '' is an invoice without maturity, never overdue).
 */
export async function sumReceivables(db: Db, params: { organizationId: number; currency: string; today: string; customerId?: number }) {
  const overdue = sql<boolean>`maturity <> '' and maturity < ${params.today}`;
  let query = db
    .selectFrom(params.customerId ? 'summary_receivables' : 'summary_receivable_days')
    .select([
      sql<number>`coalesce(sum(amount_due), 0)`.as('outstanding'),
      sql<number>`coalesce(sum(count), 0)`.as('open_count'),
      sql<number>`coalesce(sum(case when ${overdue} then amount_due else 0 end), 0)`.as('overdue'),
      sql<number>`coalesce(sum(case when ${overdue} then count else 0 end), 0)`.as('overdue_count'),
    ])
    .where('organization_id', '=', params.organizationId)
    .where('currency', '=', params.currency);
  if (params.customerId) query = query.where(sql.ref('customer_key'), '=', params.customerId);
  const row = await query.executeTakeFirstOrThrow();
  return {
    outstanding: Number(row.outstanding),
    openCount: Number(row.open_count),
    overdue: Number(row.overdue),
    overdueCount: Number(row.overdue_count),
  };
}

/** A customer's invoicing: billed (TTC of issued invoices, less credit notes) and received, in every currency used. */
export async function customerBalances(db: Db, params: { organizationId: number; customerId: number }) {
  const rows = await db
    .selectFrom('documents')
    .select([
      'currency',
      // A final invoice's deposits were billed by their own deposit invoices: counted once.
      sql<number>`coalesce(sum(case when type = 'invoice' then total - deposits when type = 'credit' then -total else 0 end), 0)`.as(
        'billed',
      ),
      sql<number>`coalesce(sum(case when type = 'invoice' then paid else 0 end), 0)`.as('paid'),
      sql<number>`coalesce(sum(case when type = 'invoice' and status in ('unpaid', 'partial') then amount_due else 0 end), 0)`.as(
        'outstanding',
      ),
      sql<number>`count(*)`.as('documents'),
    ])
    .where('organization_id', '=', params.organizationId)
    .where('customer_id', '=', params.customerId)
    .where('number', 'is not', null)
    .where('type', 'in', ['invoice', 'credit'])
    .groupBy('currency')
    .execute();
  return rows.map((r) => ({
    currency: r.currency,
    billed: Number(r.billed),
    paid: Number(r.paid),
    outstanding: Number(r.outstanding),
    documents: Number(r.documents),
  }));
}

/**
 * Money in and out over a period, in stored units of one currency. With a bank account whose statements were imported
 * (`source` 'bank'), what confirmed statement lines paid, on their booking date: the bank is the source of « payé ».
 * Otherwise ('payments'), the payments recorded on invoices (reversals netted) and the expenses marked paid. With the
 * balance the latest statements state, summed over the accounts that state one.
 */
export async function cashOfPeriod(db: Db, params: { organizationId: number; currency: string; from: string; to: string }) {
  const accounts = await db
    .selectFrom('bank_accounts as a')
    .select((eb) => [
      'a.statement_balance',
      'a.statement_balance_date',
      eb.exists(eb.selectFrom('bank_transactions as t').select('t.id').whereRef('t.account_id', '=', 'a.id')).as('has_lines'),
    ])
    .where('a.organization_id', '=', params.organizationId)
    .execute();
  const stated = accounts.filter((a) => a.statement_balance !== null);
  const balance = stated.length > 0 ? stated.reduce((sum, a) => sum + Number(a.statement_balance), 0) : null;
  const balanceDate =
    stated
      .map((a) => a.statement_balance_date ?? '')
      .sort()
      .at(-1) ?? null;
  if (accounts.some((a) => Boolean(a.has_lines))) {
    const row = await db
      .selectFrom('bank_matches as m')
      .innerJoin('bank_transactions as t', 't.id', 'm.transaction_id')
      .select([
        sql<number>`coalesce(sum(case when t.amount > 0 then m.amount else 0 end), 0)`.as('received'),
        sql<number>`coalesce(sum(case when t.amount < 0 then m.amount else 0 end), 0)`.as('paid'),
      ])
      .where('t.organization_id', '=', params.organizationId)
      .where('t.currency', '=', params.currency)
      .where('t.date', '>=', params.from)
      .where('t.date', '<=', params.to)
      .executeTakeFirstOrThrow();
    return { source: 'bank' as const, received: Number(row.received), paid: Number(row.paid), balance, balanceDate };
  }
  const [payments, expenses] = await Promise.all([
    db
      .selectFrom('payments as p')
      .innerJoin('documents as d', 'd.id', 'p.document_id')
      .select(sql<number>`coalesce(sum(p.amount), 0)`.as('received'))
      .where('p.organization_id', '=', params.organizationId)
      .where('d.currency', '=', params.currency)
      .where('p.date', '>=', params.from)
      .where('p.date', '<=', params.to)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('expenses')
      .select(sql<number>`coalesce(sum(amount), 0)`.as('paid'))
      .where('organization_id', '=', params.organizationId)
      .where('currency', '=', params.currency)
      .where('status', '=', 'paid')
      .where('paid_at', '>=', params.from)
      .where('paid_at', '<=', params.to)
      .executeTakeFirstOrThrow(),
  ]);
  return { source: 'payments' as const, received: Number(payments.received), paid: Number(expenses.paid), balance, balanceDate };
}
