import { type Expression, sql, type RawBuilder } from 'kysely';
import type { Db } from '../connection';
import type { ReportGroup } from '../../../shared/schemas/reports';
import { creditOfDeposit } from './figures';
import { addDays } from '../../../shared/payment-terms';
import { firstDayAfter, monthSlices } from './month-slices';

/**
 * The statistics' aggregates, in SQL over the stored totals (INTEGER, scale 4). Each groups by currency
 * and rate of issue as well, so that the service converts a handful of sums to the base currency exactly
 * (exchange.ts) instead of every document. Turnover follows the dashboard's rule (figures.ts): issued standard
 * invoices less their credit notes, deposits being advances that the final invoice counts in full.
 */

/** The period key of a date: '2026-03', '2026-T1' or '2026'. */
function periodOf(group: ReportGroup, column = 'date'): RawBuilder<string> {
  const date = sql.ref(column);
  if (group === 'year') return sql<string>`substr(${date}, 1, 4)`;
  if (group === 'quarter') return sql<string>`substr(${date}, 1, 4) || '-T' || ((cast(substr(${date}, 6, 2) as integer) + 2) / 3)`;
  return sql<string>`substr(${date}, 1, 7)`;
}

const signed = (expr: RawBuilder<number> | string) =>
  sql<number>`sum(case when type = 'credit' then -(${typeof expr === 'string' ? sql.ref(expr) : expr}) else ${typeof expr === 'string' ? sql.ref(expr) : expr} end)`;

export interface RatedSum {
  currency: string;
  rate: string | null;
}

/**
 * Issued standard invoices and their credit notes: the documents turnover counts. The one statement of the rule: the
 * reports read it.
 */
export function countedInTurnover(db: Db, organizationId: number) {
  return (
    db
      .selectFrom('documents')
      // Qualified: the by-item and by-tag reports join tables with an organisation and a kind of their own.
      .where('documents.organization_id', '=', organizationId)
      .where('documents.type', 'in', ['invoice', 'credit'])
      .where('documents.number', 'is not', null)
      .where('documents.kind', '=', 'standard')
      .where(creditOfDeposit, '=', 0)
  );
}

/** The documents turnover counts in a period. */
function turnoverDocuments(db: Db, params: { organizationId: number; from: string; to: string }) {
  return countedInTurnover(db, params.organizationId).where('documents.date', '>=', params.from).where('documents.date', '<=', params.to);
}

/**
 * Turnover per month, quarter or year, from the days the summaries keep (migration 0064): a thousand rows for three
 * years instead of every document, with turnover's rule (countedInTurnover) as columns: standard documents, not a
 * credit note of a deposit. HT is TTC less VAT, as the by-customer report counts it; a rate kept as '' is none (null).
 */
export async function turnoverByPeriod(db: Db, params: { organizationId: number; from: string; to: string; group: ReportGroup }) {
  const period = periodOf(params.group);
  return db
    .selectFrom('summary_document_days')
    .select([
      period.as('period'),
      'currency',
      sql<string | null>`nullif(exchange_rate, '')`.as('rate'),
      sql<number>`sum(count)`.as('count'),
      signed(sql<number>`total - tax`).as('net'),
      signed('tax').as('tax'),
      signed('total').as('total'),
    ])
    .where('organization_id', '=', params.organizationId)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .where('kind', '=', 'standard')
    .where('deposit_credit', '=', 0)
    .groupBy([period, 'currency', 'exchange_rate'])
    .orderBy('period')
    .execute();
}

interface TurnoverRow {
  currency: string;
  rate: string | null;
  count: number;
  net: number;
}

/**
 * The by-customer, by-item and by-tag reports read the months the summaries keep (migration 0074) for the whole months
 * of the period, and the documents only for the days at its edges (monthSlices): each part grouped, then the parts
 * summed. The summaries keep the documents countedInTurnover selects, as the edges read them.
 */
function unionOf(parts: Expression<unknown>[]) {
  // Each part as a subquery of its own: SQLite refuses a parenthesised member of a compound select.
  return sql.join(
    parts.map((part) => sql`select * from ${part} p`),
    sql` union all `,
  );
}

/** Turnover HT per customer (0 for none) of the period, each part grouped by customer, currency and rate. */
function customerParts(db: Db, params: { organizationId: number; from: string; to: string }) {
  const { months, edges } = monthSlices(params.from, params.to);
  const parts: Expression<unknown>[] = [];
  if (months)
    parts.push(
      db
        .selectFrom('summary_customer_months')
        .select([
          sql<number | null>`nullif(customer_key, 0)`.as('customer_id'),
          'customer_name as name',
          'currency',
          sql<string | null>`nullif(exchange_rate, '')`.as('rate'),
          'count',
          'net',
        ])
        .where('organization_id', '=', params.organizationId)
        .where('month', '>=', months.first)
        .where('month', '<=', months.last),
    );
  for (const edge of edges)
    parts.push(
      turnoverDocuments(db, { organizationId: params.organizationId, ...edge })
        .select([
          // `+customer_id`: grouping by the bare column made SQLite walk the customer index over every document of the
          // organisation (to group without sorting) instead of the period's range of the covering index (bench plans).
          sql<number | null>`+customer_id`.as('customer_id'),
          sql<string>`max(customer_name)`.as('name'),
          'currency',
          'exchange_rate as rate',
          sql<number>`count(*)`.as('count'),
          signed(sql<number>`total - tax`).as('net'),
        ])
        .groupBy([sql`+customer_id`, 'currency', 'exchange_rate']),
    );
  return parts;
}

/** Turnover HT per customer (its name as on the latest document), every customer: the service keeps the top ten. */
export async function turnoverByCustomer(db: Db, params: { organizationId: number; from: string; to: string }) {
  const parts = customerParts(db, params);
  if (parts.length === 0) return [];
  const { rows } = await sql<TurnoverRow & { customer_id: number | null; name: string }>`
    select customer_id, max(name) as name, currency, rate, sum(count) as count, sum(net) as net
    from (${unionOf(parts)}) t group by customer_id, currency, rate`.execute(db);
  return rows;
}

/**
 * Turnover HT per line designation: each line's HT after its own discount (stored units), not the document's discount
 * nor shipping, which belong to no line. A credit note's lines come off; a final invoice's lines count in full. A
 * document counts once per designation (the months keep it so: a document lies in one month only).
 */
export async function turnoverByItem(db: Db, params: { organizationId: number; from: string; to: string }) {
  const { months, edges } = monthSlices(params.from, params.to);
  const parts: Expression<unknown>[] = [];
  if (months)
    parts.push(
      db
        .selectFrom('summary_item_months')
        .select(['name', 'currency', sql<string | null>`nullif(exchange_rate, '')`.as('rate'), 'count', 'net'])
        .where('organization_id', '=', params.organizationId)
        .where('month', '>=', months.first)
        .where('month', '<=', months.last),
    );
  const name = sql<string>`trim(i.item)`;
  for (const edge of edges)
    parts.push(
      turnoverDocuments(db, { organizationId: params.organizationId, ...edge })
        .innerJoin('document_items as i', 'i.document_id', 'documents.id')
        .select([
          name.as('name'),
          'currency',
          'exchange_rate as rate',
          sql<number>`count(distinct documents.id)`.as('count'),
          signed(sql<number>`i.net`).as('net'),
        ])
        .groupBy([name, 'currency', 'exchange_rate']),
    );
  if (parts.length === 0) return [];
  const { rows } = await sql<TurnoverRow & { name: string }>`
    select name, currency, rate, sum(count) as count, sum(net) as net
    from (${unionOf(parts)}) t group by name, currency, rate`.execute(db);
  return rows;
}

/**
 * Turnover HT per tag of the customer (Paramètres → Étiquettes): a customer with two tags counts under both, one with
 * none under a null tag. Tags are the customer's today, so that retagging a customer regroups its history: the sums
 * per customer are joined with today's tags.
 */
export async function turnoverByTag(db: Db, params: { organizationId: number; from: string; to: string }) {
  const parts = customerParts(db, params);
  if (parts.length === 0) return [];
  const { rows } = await sql<TurnoverRow & { tag_id: number | null; name: string | null }>`
    select t.tag_id, max(g.name) as name, c.currency, c.rate, sum(c.count) as count, sum(c.net) as net
    from (${unionOf(parts)}) c
    left join taggings t on t.kind = 'customer' and t.ref_id = c.customer_id and t.organization_id = ${params.organizationId}
    left join tags g on g.id = t.tag_id
    group by t.tag_id, c.currency, c.rate`.execute(db);
  return rows;
}

/** An open invoice's age bucket from its maturity ('' for none): 0 not due, 1: 1–30 days late, 2: 31–60, 3: 61–90, 4: over 90. */
function ageBucket(today: string): RawBuilder<number> {
  // ISO dates compare as text: "at most 30 days late" is "due on or after today − 30", with no date arithmetic per row.
  const since = (days: number) => addDays(today, -days);
  return sql<number>`case when maturity = '' or maturity >= ${today} then 0 when maturity >= ${since(30)} then 1 when maturity >= ${since(60)} then 2 when maturity >= ${since(90)} then 3 else 4 end`;
}

/** Unpaid issued invoices per age bucket, from the sums kept per maturity (migration 0064): a few thousand days. */
export async function receivablesByBucket(db: Db, params: { organizationId: number; today: string }) {
  return (
    db
      .selectFrom('summary_receivable_days')
      .select([
        ageBucket(params.today).as('bucket'),
        'currency',
        sql<string | null>`nullif(exchange_rate, '')`.as('rate'),
        sql<number>`sum(count)`.as('count'),
        sql<number>`sum(amount_due)`.as('amount'),
      ])
      .where('organization_id', '=', params.organizationId)
      // By its alias: the expression's dates are bound parameters, and PostgreSQL does not see two copies of it (in
      // SELECT and GROUP BY, with different placeholders) as the same expression.
      .groupBy([sql`bucket`, 'currency', 'exchange_rate'])
      .execute()
  );
}

/**
 * What each customer owes past due (maturity before today), per currency and rate of issue: its open sums (kept per
 * customer) less its part not yet due or without maturity, read from the range of maturities from today on (a few weeks
 * of invoices) rather than from every open invoice. A customer kept as 0 is none.
 */
export async function overdueByCustomer(db: Db, params: { organizationId: number; today: string }) {
  const [open, notDue] = await Promise.all([
    db
      .selectFrom('summary_receivable_customers')
      .select(['customer_key', 'currency', 'exchange_rate', 'count', 'amount_due'])
      .where('organization_id', '=', params.organizationId)
      .orderBy('customer_key')
      .execute(),
    db
      .selectFrom('summary_receivables')
      .select([
        'customer_key',
        'currency',
        'exchange_rate',
        sql<number>`sum(count)`.as('count'),
        sql<number>`sum(amount_due)`.as('amount_due'),
      ])
      .where('organization_id', '=', params.organizationId)
      .where((eb) => eb.or([eb('maturity', '=', ''), eb('maturity', '>=', params.today)]))
      .groupBy(['customer_key', 'currency', 'exchange_rate'])
      .execute(),
  ]);
  const key = (r: { customer_key: number; currency: string; exchange_rate: string }) =>
    `${r.customer_key} ${r.currency} ${r.exchange_rate}`;
  const later = new Map(notDue.map((r) => [key(r), r]));
  return open
    .map((r) => {
      const n = later.get(key(r));
      return {
        customer_id: Number(r.customer_key) || null,
        currency: r.currency,
        rate: r.exchange_rate || null,
        count: Number(r.count) - Number(n?.count ?? 0),
        amount: BigInt(r.amount_due) - BigInt(n?.amount_due ?? 0),
      };
    })
    .filter((r) => r.count > 0);
}

/** The oldest maturity past due and the name (the greatest, as issued) of each of these customers (null: none). */
export async function overdueCustomerDetails(db: Db, params: { organizationId: number; today: string; customerIds: (number | null)[] }) {
  if (params.customerIds.length === 0) return [];
  return db
    .selectFrom('summary_receivables')
    .select([
      sql<number | null>`nullif(customer_key, 0)`.as('customer_id'),
      sql<string>`min(maturity)`.as('oldest'),
      sql<string>`max(customer_name)`.as('name'),
    ])
    .where('organization_id', '=', params.organizationId)
    .where(
      'customer_key',
      'in',
      params.customerIds.map((id) => id ?? 0),
    )
    .where('maturity', '<>', '')
    .where('maturity', '<', params.today)
    .groupBy('customer_key')
    .execute();
}

/** The date of the organisation's first issued invoice, null before any: where its billing history begins. */
export async function firstInvoiceDate(db: Db, params: { organizationId: number }): Promise<string | null> {
  const row = await db
    .selectFrom('summary_document_days')
    .select(sql<string | null>`min(date)`.as('first'))
    .where('organization_id', '=', params.organizationId)
    .where('type', '=', 'invoice')
    .executeTakeFirst();
  return row?.first ?? null;
}

/** What was invoiced TTC over a period (invoices less deposits they deduct, less credit notes): DSO's denominator. */
export async function billedTtc(db: Db, params: { organizationId: number; from: string; to: string }) {
  return db
    .selectFrom('summary_document_days')
    .select([
      'currency',
      sql<string | null>`nullif(exchange_rate, '')`.as('rate'),
      sql<number>`sum(case when type = 'credit' then -total else total - deposits end)`.as('amount'),
    ])
    .where('organization_id', '=', params.organizationId)
    .where('date', '>=', params.from)
    .where('date', '<=', params.to)
    .groupBy(['currency', 'exchange_rate'])
    .execute();
}

/**
 * Where a page of the livre des recettes begins: the whole months before it skipped by the counts the summaries keep
 * (migration 0075), so that a deep page walks at most a month of payments and its own instead of every payment
 * before it. The first day to read from and how many payments to pass from there.
 */
async function receiptsPageStart(db: Db, params: { organizationId: number; from: string; to: string; offset: number }) {
  let { from, offset } = params;
  const { months, edges } = monthSlices(params.from, params.to);
  if (offset === 0 || !months) return { from, offset };
  const head = edges.find((edge) => edge.from === params.from && edge.to < `${months.first}-01`);
  if (head) {
    const row = await db
      .selectFrom('payments')
      .select(sql<number>`count(*)`.as('n'))
      .where('organization_id', '=', params.organizationId)
      .where('date', '>=', head.from)
      .where('date', '<=', head.to)
      .executeTakeFirstOrThrow();
    if (offset < Number(row.n)) return { from, offset };
    [from, offset] = [`${months.first}-01`, offset - Number(row.n)];
  }
  const counts = await db
    .selectFrom('summary_payment_months')
    .select(['month', sql<number>`sum(count)`.as('n')])
    .where('organization_id', '=', params.organizationId)
    .where('month', '>=', months.first)
    .where('month', '<=', months.last)
    .groupBy('month')
    .orderBy('month')
    .execute();
  for (const { month, n } of counts) {
    if (offset < Number(n)) break;
    [from, offset] = [firstDayAfter(month), offset - Number(n)];
  }
  return { from, offset };
}

/** A page of the livre des recettes: the payments received in the period, in date order, with document and customer. */
export async function receiptsOfPeriod(
  db: Db,
  params: { organizationId: number; from: string; to: string; limit: number; offset: number },
) {
  const start = await receiptsPageStart(db, params);
  return db
    .selectFrom('payments as p')
    .innerJoin('documents as d', 'd.id', 'p.document_id')
    .select(['p.date', 'd.customer_name', 'd.number', 'p.amount', 'p.method', 'd.currency', 'd.exchange_rate as rate'])
    .where('p.organization_id', '=', params.organizationId)
    .where('p.date', '>=', start.from)
    .where('p.date', '<=', params.to)
    .orderBy('p.date')
    .orderBy('p.id')
    .limit(params.limit)
    .offset(start.offset)
    .execute();
}

/**
 * The livre des recettes' count and total of the period (stored units) per currency and rate of issue: the months the
 * summaries keep (migration 0075) for the whole months of the period, the payments only for the days at its edges.
 */
export async function receiptsTotals(db: Db, params: { organizationId: number; from: string; to: string }) {
  const { months, edges } = monthSlices(params.from, params.to);
  const parts: Expression<unknown>[] = [];
  if (months)
    parts.push(
      db
        .selectFrom('summary_payment_months')
        .select(['currency', sql<string | null>`nullif(exchange_rate, '')`.as('rate'), 'count', 'amount'])
        .where('organization_id', '=', params.organizationId)
        .where('month', '>=', months.first)
        .where('month', '<=', months.last),
    );
  for (const edge of edges)
    parts.push(
      db
        .selectFrom('payments as p')
        .innerJoin('documents as d', 'd.id', 'p.document_id')
        .select(['d.currency', 'd.exchange_rate as rate', sql<number>`count(*)`.as('count'), sql<number>`sum(p.amount)`.as('amount')])
        .where('p.organization_id', '=', params.organizationId)
        .where('p.date', '>=', edge.from)
        .where('p.date', '<=', edge.to)
        .groupBy(['d.currency', 'd.exchange_rate']),
    );
  if (parts.length === 0) return [];
  const { rows } = await sql<{ currency: string; rate: string | null; count: number; amount: number }>`
    select currency, rate, sum(count) as count, sum(amount) as amount
    from (${unionOf(parts)}) t group by currency, rate`.execute(db);
  return rows;
}

/** A payment's URSSAF part on document `d`: 0 services only (or no lines), -1 goods only, else its own id (mixed). */
const servicesOnly = sql`(d.lines_net <= 0 or d.goods_net = 0)`;
const goodsOnly = sql`d.goods_net = d.lines_net`;

/**
 * Receipts of the period per day (per month: the month's first day), currency and rate of issue, with the goods and
 * the whole HT of their documents' lines (stored units), for the URSSAF split of a micro-entrepreneur's receipts
 * between sales of goods and services: the service takes `amount × goods ÷ lines` of each row, truncated. A payment on
 * a document of services only (or with no lines) has no goods, one of goods only is all goods: those are exact in any
 * sum, so they are summed here with goods/lines of 0/1 or 1/1. A payment on a mixed document is truncated on its own:
 * it comes alone in its row (the months keep it alone too, migration 0075). The whole months of the period are read
 * from the summaries, the days at its edges from the payments: a row's date tells its month, not its day.
 */
export async function receiptsByNature(db: Db, params: { organizationId: number; from: string; to: string }) {
  const { months, edges } = monthSlices(params.from, params.to);
  const parts: Expression<unknown>[] = [];
  if (months)
    parts.push(
      db
        .selectFrom('summary_payment_months')
        .select([
          sql<string>`month || '-01'`.as('date'),
          'amount',
          'currency',
          sql<string | null>`nullif(exchange_rate, '')`.as('rate'),
          sql<number>`case when part = 0 then 0 when part = -1 then 1 else goods end`.as('goods'),
          sql<number>`case when part <= 0 then 1 else lines end`.as('lines'),
        ])
        .where('organization_id', '=', params.organizationId)
        .where('month', '>=', months.first)
        .where('month', '<=', months.last),
    );
  // 0: services only, -1: goods only, else the payment's own id (a row of its own).
  const part = sql<number>`case when ${servicesOnly} then 0 when ${goodsOnly} then -1 else p.id end`;
  for (const edge of edges)
    parts.push(
      db
        .selectFrom('payments as p')
        .innerJoin('documents as d', 'd.id', 'p.document_id')
        .select([
          'p.date',
          sql<number>`sum(p.amount)`.as('amount'),
          'd.currency',
          'd.exchange_rate as rate',
          // From the grouped expression (not the bare columns, which PostgreSQL refuses): one payment's own when mixed.
          sql<number>`case when ${part} = 0 then 0 when ${part} = -1 then 1 else max(d.goods_net) end`.as('goods'),
          sql<number>`case when ${part} <= 0 then 1 else max(d.lines_net) end`.as('lines'),
        ])
        .where('p.organization_id', '=', params.organizationId)
        .where('p.date', '>=', edge.from)
        .where('p.date', '<=', edge.to)
        .groupBy(['p.date', 'd.currency', 'd.exchange_rate', part]),
    );
  if (parts.length === 0) return [];
  const { rows } = await sql<{ date: string; amount: number; currency: string; rate: string | null; goods: number; lines: number }>`
    select date, amount, currency, rate, goods, lines from (${unionOf(parts)}) t`.execute(db);
  return rows;
}
