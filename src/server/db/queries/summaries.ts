import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../connection';
import { isPostgres } from '../dialect';
import { OPEN_STATUSES } from '../../../shared/document-status';
import { creditOfDeposit } from './figures';
import { countedInTurnover } from './reports';
import { hasReminderAddress, REMINDABLE } from './payment-reminders';

/**
 * The summaries of the documents (migration 0066), written whole from the documents: what the triggers keep up to date
 * write by write (per row on SQLite, per statement on PostgreSQL since migration 0070). `npm run summaries:rebuild` runs it (after a repair by hand, or to check the triggers: the rows must
 * come out the same). One organisation, or all of them.
 */
export const SUMMARY_TABLES = [
  'summary_document_days',
  'summary_receivables',
  'summary_receivable_days',
  'summary_receivable_customers',
  'summary_document_counts',
  'summary_customer_months',
  'summary_item_months',
  'summary_payment_months',
  'summary_reminder_days',
  'summary_reminder_addresses',
] as const;

export async function rebuildSummaries(db: Db, params: { organizationId?: number } = {}): Promise<void> {
  await db.transaction().execute((trx) => writeSummaries(trx, params.organizationId));
}

/** The rebuild's work inside a transaction the caller holds (the PostgreSQL copy writes them once, at its end). */
export async function writeSummaries(trx: Db, org?: number): Promise<void> {
  for (const table of SUMMARY_TABLES) {
    let clear = trx.deleteFrom(table);
    if (org !== undefined) clear = clear.where('organization_id', '=', org);
    await clear.execute();
  }
  const documents = () => {
    const all = trx.selectFrom('documents');
    return org === undefined ? all : all.where('organization_id', '=', org);
  };
  const rate = sql<string>`coalesce(exchange_rate, '')`;
  await trx
    .insertInto('summary_document_days')
    .columns([
      'organization_id',
      'date',
      'type',
      'kind',
      'currency',
      'exchange_rate',
      'deposit_credit',
      'count',
      'ht',
      'tax',
      'total',
      'deposits',
    ])
    .expression(
      documents()
        .select([
          'organization_id',
          'date',
          sql<'invoice' | 'credit'>`type`.as('type'),
          'kind',
          'currency',
          rate.as('exchange_rate'),
          creditOfDeposit.as('deposit_credit'),
          sql<number>`count(*)`.as('count'),
          sql<number>`sum(subtotal - discount)`.as('ht'),
          sql<number>`sum(tax)`.as('tax'),
          sql<number>`sum(total)`.as('total'),
          sql<number>`sum(deposits)`.as('deposits'),
        ])
        .where('number', 'is not', null)
        .where('type', 'in', ['invoice', 'credit'])
        .groupBy(sql`1, 2, 3, 4, 5, 6, 7`),
    )
    .execute();
  await trx
    .insertInto('summary_receivables')
    .columns(['organization_id', 'maturity', 'customer_key', 'currency', 'exchange_rate', 'count', 'amount_due', 'customer_name'])
    .expression(
      documents()
        .select([
          'organization_id',
          sql<string>`coalesce(maturity, '')`.as('maturity'),
          sql<number>`coalesce(customer_id, 0)`.as('customer_key'),
          'currency',
          rate.as('exchange_rate'),
          sql<number>`count(*)`.as('count'),
          sql<number>`sum(amount_due)`.as('amount_due'),
          sql<string>`max(customer_name)`.as('customer_name'),
        ])
        .where('type', '=', 'invoice')
        .where('status', 'in', OPEN_STATUSES)
        .groupBy(sql`1, 2, 3, 4, 5`),
    )
    .execute();
  // The ageing's and the customers' sums, from the rows just written (the same documents, grouped coarser).
  const receivables = () => {
    const all = trx.selectFrom('summary_receivables');
    return org === undefined ? all : all.where('organization_id', '=', org);
  };
  await trx
    .insertInto('summary_receivable_days')
    .columns(['organization_id', 'maturity', 'currency', 'exchange_rate', 'count', 'amount_due'])
    .expression(
      receivables()
        .select([
          'organization_id',
          'maturity',
          'currency',
          'exchange_rate',
          sql<number>`sum(count)`.as('count'),
          sql<number>`sum(amount_due)`.as('amount_due'),
        ])
        .groupBy(['organization_id', 'maturity', 'currency', 'exchange_rate']),
    )
    .execute();
  await trx
    .insertInto('summary_receivable_customers')
    .columns(['organization_id', 'customer_key', 'currency', 'exchange_rate', 'count', 'amount_due'])
    .expression(
      receivables()
        .select([
          'organization_id',
          'customer_key',
          'currency',
          'exchange_rate',
          sql<number>`sum(count)`.as('count'),
          sql<number>`sum(amount_due)`.as('amount_due'),
        ])
        .groupBy(['organization_id', 'customer_key', 'currency', 'exchange_rate']),
    )
    .execute();
  await trx
    .insertInto('summary_document_counts')
    .columns(['organization_id', 'type', 'status', 'count', 'sent'])
    .expression(
      documents()
        .select([
          'organization_id',
          'type',
          'status',
          sql<number>`count(*)`.as('count'),
          sql<number>`sum(case when sent_at is not null then 1 else 0 end)`.as('sent'),
        ])
        .groupBy(['organization_id', 'type', 'status']),
    )
    .execute();
  await writeTurnoverSummaries(trx, org);
  await writePaymentSummaries(trx, org);
  await writeReminderSummaries(trx, org);
  // On PostgreSQL the kept answers follow generations bumped by triggers on the data (migration 0065); the
  // summaries have none (every document write already bumps its organisation once), so a rebuild says it here.
  if (isPostgres(trx)) await sql`select bump_data_generation_of(${org ?? 0})`.execute(trx);
}

/** Turnover per month and customer, and per month and designation (migration 0074): the documents turnover counts. */
async function writeTurnoverSummaries(trx: Db, org: number | undefined): Promise<void> {
  const organizations = org === undefined ? await trx.selectFrom('organizations').select('id').execute() : [{ id: org }];
  const month = sql<string>`substr(documents.date, 1, 7)`;
  const rate = sql<string>`coalesce(documents.exchange_rate, '')`;
  const signed = (amount: RawBuilder<number>) => sql<number>`sum(case when documents.type = 'credit' then -(${amount}) else ${amount} end)`;
  for (const { id } of organizations) {
    await trx
      .insertInto('summary_customer_months')
      .columns(['organization_id', 'month', 'customer_key', 'currency', 'exchange_rate', 'count', 'net', 'customer_name'])
      .expression(
        countedInTurnover(trx, id)
          .select([
            'documents.organization_id',
            month.as('month'),
            sql<number>`coalesce(documents.customer_id, 0)`.as('customer_key'),
            'documents.currency',
            rate.as('exchange_rate'),
            sql<number>`count(*)`.as('count'),
            signed(sql<number>`documents.total - documents.tax`).as('net'),
            sql<string>`max(documents.customer_name)`.as('customer_name'),
          ])
          .groupBy(sql`1, 2, 3, 4, 5`),
      )
      .execute();
    await trx
      .insertInto('summary_item_months')
      .columns(['organization_id', 'month', 'name', 'currency', 'exchange_rate', 'count', 'net'])
      .expression(
        countedInTurnover(trx, id)
          .innerJoin('document_items as i', 'i.document_id', 'documents.id')
          .select([
            'documents.organization_id',
            month.as('month'),
            sql<string>`trim(i.item)`.as('name'),
            'documents.currency',
            rate.as('exchange_rate'),
            sql<number>`count(distinct documents.id)`.as('count'),
            signed(sql<number>`i.net`).as('net'),
          ])
          .groupBy(sql`1, 2, 3, 4, 5`),
      )
      .execute();
  }
}

/**
 * Payments per month, currency and rate of their document, and URSSAF part (migration 0075): 0 on a document of
 * services only (or without lines), -1 of goods only, else the payment's own id with its document's goods and lines HT.
 */
async function writePaymentSummaries(trx: Db, org: number | undefined): Promise<void> {
  const servicesOnly = sql`(d.lines_net <= 0 or d.goods_net = 0)`;
  const goodsOnly = sql`d.goods_net = d.lines_net`;
  const mixed = sql`not (${servicesOnly} or ${goodsOnly})`;
  let payments = trx
    .selectFrom('payments as p')
    .innerJoin('documents as d', 'd.id', 'p.document_id')
    .select([
      'p.organization_id',
      sql<string>`substr(p.date, 1, 7)`.as('month'),
      'd.currency',
      sql<string>`coalesce(d.exchange_rate, '')`.as('exchange_rate'),
      sql<number>`case when ${servicesOnly} then 0 when ${goodsOnly} then -1 else p.id end`.as('part'),
      sql<number>`count(*)`.as('count'),
      sql<number>`sum(p.amount)`.as('amount'),
      sql<number>`sum(case when ${mixed} then d.goods_net else 0 end)`.as('goods'),
      sql<number>`sum(case when ${mixed} then d.lines_net else 0 end)`.as('lines'),
    ])
    .groupBy(sql`1, 2, 3, 4, 5`);
  if (org !== undefined) payments = payments.where('p.organization_id', '=', org);
  await trx
    .insertInto('summary_payment_months')
    .columns(['organization_id', 'month', 'currency', 'exchange_rate', 'part', 'count', 'amount', 'goods', 'lines'])
    .expression(payments)
    .execute();
}

/** The last step done of an invoice without a reminder sent or being sent (migration 0077): below any step. */
const NO_REMINDER_STEP = -1_000_000;

/**
 * The invoices a reminder may concern per due date and last step done (migration 0077): the Relances list's own terms
 * (REMINDABLE), the last step being the latest of a reminder that did not fail; and those of them with an address
 * (migration 0080).
 */
async function writeReminderSummaries(trx: Db, org: number | undefined): Promise<void> {
  const done = trx
    .selectFrom('payment_reminders')
    .select(['document_id', sql<number>`max(step)`.as('step')])
    .where('status', '<>', 'failed')
    .groupBy('document_id');
  let invoices = trx
    .selectFrom('documents')
    .leftJoin(done.as('done'), 'done.document_id', 'documents.id')
    .select([
      'documents.organization_id',
      sql<string>`documents.maturity`.as('maturity'),
      sql<number>`coalesce(done.step, ${NO_REMINDER_STEP})`.as('last_step'),
      sql<number>`count(*)`.as('count'),
    ])
    .where(REMINDABLE)
    .groupBy(sql`1, 2, 3`);
  if (org !== undefined) invoices = invoices.where('documents.organization_id', '=', org);
  await trx
    .insertInto('summary_reminder_days')
    .columns(['organization_id', 'maturity', 'last_step', 'count'])
    .expression(invoices)
    .execute();
  let addressed = trx
    .selectFrom('documents')
    .leftJoin('customers', 'customers.id', 'documents.customer_id')
    .select(['documents.organization_id', sql<string>`documents.maturity`.as('maturity'), 'documents.id as document_id'])
    .where(REMINDABLE)
    .where(hasReminderAddress(trx));
  if (org !== undefined) addressed = addressed.where('documents.organization_id', '=', org);
  await trx
    .insertInto('summary_reminder_addresses')
    .columns(['organization_id', 'maturity', 'document_id'])
    .expression(addressed)
    .execute();
}

const NUMERIC_COLUMNS = new Set([
  'organization_id',
  'deposit_credit',
  'count',
  'ht',
  'tax',
  'total',
  'deposits',
  'customer_key',
  'amount_due',
  'sent',
  'net',
  'part',
  'amount',
  'goods',
  'lines',
  'last_step',
  'document_id',
]);

/** Each summary as readSummaries names it: its table, then the columns of its key (the order its rows are listed in). */
const SUMMARY_KEYS = {
  days: ['summary_document_days', 'date', 'type', 'kind', 'currency', 'exchange_rate', 'deposit_credit'],
  receivables: ['summary_receivables', 'maturity', 'customer_key', 'currency', 'exchange_rate'],
  receivableDays: ['summary_receivable_days', 'maturity', 'currency', 'exchange_rate'],
  receivableCustomers: ['summary_receivable_customers', 'customer_key', 'currency', 'exchange_rate'],
  counts: ['summary_document_counts', 'type', 'status'],
  customerMonths: ['summary_customer_months', 'month', 'customer_key', 'currency', 'exchange_rate'],
  itemMonths: ['summary_item_months', 'month', 'name', 'currency', 'exchange_rate'],
  paymentMonths: ['summary_payment_months', 'month', 'currency', 'exchange_rate', 'part'],
  reminderDays: ['summary_reminder_days', 'maturity', 'last_step'],
  reminderAddresses: ['summary_reminder_addresses', 'maturity', 'document_id'],
} as const satisfies Record<string, readonly [(typeof SUMMARY_TABLES)[number], ...string[]]>;

/** Every row of the summaries of an organisation, in key order: the property test compares them with a rebuild's. */
export async function readSummaries(db: Db, organizationId: number) {
  // PostgreSQL answers its bigints as text: numbers on both, so that the rows compare.
  const numeric = <T extends object>(rows: T[]) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, NUMERIC_COLUMNS.has(k) ? Number(v) : v])));
  const read = async ([table, ...keys]: readonly [(typeof SUMMARY_TABLES)[number], ...string[]]) => {
    let query = db.selectFrom(table).selectAll().where('organization_id', '=', organizationId);
    for (const key of keys) query = query.orderBy(sql.ref(key));
    return numeric(await query.execute());
  };
  const names = Object.keys(SUMMARY_KEYS) as (keyof typeof SUMMARY_KEYS)[];
  const rows = await Promise.all(names.map((name) => read(SUMMARY_KEYS[name])));
  return Object.fromEntries(names.map((name, i) => [name, rows[i] ?? []])) as Record<keyof typeof SUMMARY_KEYS, ReturnType<typeof numeric>>;
}

/**
 * How many documents of an organisation have this type and status, from the kept counts (a handful of rows, whatever
 * the organisation's size): the list's count when nothing else filters it. `open` and `overdue` are the unpaid and
 * partly paid invoices (overdue: due before today, from the receivables kept per maturity); `sent` those sent.
 */
export async function countByTypeAndStatus(
  db: Db,
  params: { organizationId: number; type?: string; status?: string; today: string },
): Promise<number> {
  const { organizationId, type, status } = params;
  if ((status === 'open' || status === 'overdue') && type !== undefined && type !== 'invoice') return 0;
  if (status === 'overdue') {
    const row = await db
      .selectFrom('summary_receivable_days')
      .select(sql<number>`coalesce(sum(count), 0)`.as('n'))
      .where('organization_id', '=', organizationId)
      .where('maturity', '<>', '')
      .where('maturity', '<', params.today)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  let query = db
    .selectFrom('summary_document_counts')
    .select(sql<number>`coalesce(sum(${sql.ref(status === 'sent' ? 'sent' : 'count')}), 0)`.as('n'))
    .where('organization_id', '=', organizationId);
  if (status === 'open') query = query.where('type', '=', 'invoice').where('status', 'in', OPEN_STATUSES);
  else if (status !== undefined && status !== 'sent') query = query.where('status', '=', status);
  if (type !== undefined) query = query.where('type', '=', type);
  return Number((await query.executeTakeFirstOrThrow()).n);
}
