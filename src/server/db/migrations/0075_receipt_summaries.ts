import { sql } from 'kysely';
import { analyzeIfAnalysed, createTriggerFunction, createStatementTriggers, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * Receipts per month kept as the payments and their documents change. The livre des recettes' totals and the URSSAF
 * report summed every payment of the period (a third of a second at a million documents); they now read a month's
 * sums for the whole months of the period and the payments only at its edges:
 * - `summary_payment_months`: per organisation (the payment's), month of the payment ('2026-03'), currency and rate of
 *   issue of its document ('' for none) and part: 0 for a document of services only (or without lines), -1 for one of
 *   goods only, else the payment's own id — a payment on a mixed document is split between goods and services and
 *   truncated on its own, so it keeps a row of its own with its document's goods and lines HT (`goods`, `lines`, 0 on
 *   the other rows). How many payments and their amount (stored units).
 * The parts are the URSSAF report's rule (receiptsByNature) written here in SQL as the triggers run it.
 *
 * The same transaction as the write keeps it, whatever code writes, as the summaries of migration 0074: on SQLite
 * row triggers; on PostgreSQL statement triggers reading the statement's rows. A payment's share is read with its
 * document (currency, rate, goods and lines HT): a document whose columns of a share change moves its payments'
 * shares. A document's deletion takes its payments' shares off before the row goes; the cascade that deletes the
 * payments then finds no document and moves nothing. No foreign key to the organisation: deleting one deletes its
 * payments and documents, whose triggers empty its rows.
 */

const KEY = ['organization_id', 'month', 'currency', 'exchange_rate', 'part'];

/** The document columns a payment's share is made of. */
const DOCUMENT_WATCHED = ['currency', 'exchange_rate', 'goods_net', 'lines_net'];
/** The payment columns its share is made of. */
const PAYMENT_WATCHED = ['organization_id', 'document_id', 'date', 'amount'];

/** The part of payment `p` on document `d`: 0 services only, -1 goods only, else the payment's id (mixed). */
const part = (p: string, d: string) =>
  `(case when ${d}.lines_net <= 0 or ${d}.goods_net = 0 then 0 when ${d}.goods_net = ${d}.lines_net then -1 else ${p}.id end)`;
const mixed = (d: string) => `not (${d}.lines_net <= 0 or ${d}.goods_net = 0 or ${d}.goods_net = ${d}.lines_net)`;

/** The share of payment `p` on document `d`, signed `sign` (1 added, -1 taken off), as the columns paymentStatements reads. */
const share = (sign: string, p: string, d: string) =>
  `${sign} as sign, ${p}.organization_id as organization_id, substr(${p}.date, 1, 7) as month, ${d}.currency as currency,
    coalesce(${d}.exchange_rate, '') as exchange_rate, ${part(p, d)} as part, ${p}.amount as amount,
    case when ${mixed(d)} then ${d}.goods_net else 0 end as goods, case when ${mixed(d)} then ${d}.lines_net else 0 end as lines`;

const keyList = KEY.join(', ');
const positions = KEY.map((_, i) => i + 1).join(', ');

/**
 * Writes the shares `s` (a query of share rows) summed per key in key order, then drops the rows left at no payment.
 * A sum that does not move (a share taken off and added back unchanged) writes nothing.
 */
function paymentStatements(s: string): string[] {
  return [
    `insert into summary_payment_months (${keyList}, count, amount, goods, lines)
      select ${keyList}, sum(sign), sum(sign * amount), sum(sign * goods), sum(sign * lines) from (${s}) r
      group by ${positions}
      having sum(sign) <> 0 or sum(sign * amount) <> 0 or sum(sign * goods) <> 0 or sum(sign * lines) <> 0
      order by ${positions}
      on conflict (${keyList}) do update set count = summary_payment_months.count + excluded.count,
        amount = summary_payment_months.amount + excluded.amount, goods = summary_payment_months.goods + excluded.goods,
        lines = summary_payment_months.lines + excluded.lines`,
    `delete from summary_payment_months where count = 0 and (${keyList}) in (select ${keyList} from (${s}) r)`,
  ];
}

/** The columns of document row `r` a share reads, as a row of its own (SQLite's trigger rows are no tables). */
const documentRow = (r: string) => `select ${r}.id as id, ${DOCUMENT_WATCHED.map((c) => `${r}.${c} as ${c}`).join(', ')}`;

/** The columns of payment row `r` a share reads, as a row of its own. */
const paymentRow = (r: string) =>
  `select ${['id', 'organization_id', 'document_id', 'date', 'amount'].map((c) => `${r}.${c} as ${c}`).join(', ')}`;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('summary_payment_months')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('part', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('goods', 'integer', (c) => c.notNull())
    .addColumn('lines', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_payment_months_pk', KEY as never)
    .execute();
  await fill(db);
  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
  await analyzeIfAnalysed(db, ['summary_payment_months']);
}

async function sqliteTriggers(db: MigrationDb): Promise<void> {
  const body = (statements: string[]) => `begin ${statements.join(';\n')}; end`;
  const ofPayment = (sign: string, r: string) =>
    `select ${share(sign, 'p', 'd')} from (${paymentRow(r)}) p join documents d on d.id = p.document_id`;
  const ofDocument = (sign: string, r: string) =>
    `select ${share(sign, 'p', 'd')} from (${documentRow(r)}) d join payments p on p.document_id = d.id`;
  await sql
    .raw(`create trigger summary_payments_insert after insert on payments ${body(paymentStatements(ofPayment('1', 'new')))}`)
    .execute(db);
  await sql
    .raw(`create trigger summary_payments_update after update of ${PAYMENT_WATCHED.join(', ')} on payments
      when ${PAYMENT_WATCHED.map((c) => `old.${c} is not new.${c}`).join(' or ')}
      ${body(paymentStatements(`${ofPayment('-1', 'old')} union all ${ofPayment('1', 'new')}`))}`)
    .execute(db);
  // After the row goes: a payment deleted with its document finds no document (its share went before the document).
  await sql
    .raw(`create trigger summary_payments_delete after delete on payments ${body(paymentStatements(ofPayment('-1', 'old')))}`)
    .execute(db);
  await sql
    .raw(`create trigger summary_payment_documents_update after update of ${DOCUMENT_WATCHED.join(', ')} on documents
      when ${DOCUMENT_WATCHED.map((c) => `old.${c} is not new.${c}`).join(' or ')}
      ${body(paymentStatements(`${ofDocument('-1', 'old')} union all ${ofDocument('1', 'new')}`))}`)
    .execute(db);
  await sql
    .raw(`create trigger summary_payment_documents_delete before delete on documents ${body(paymentStatements(ofDocument('-1', 'old')))}`)
    .execute(db);
}

async function postgresTriggers(db: MigrationDb): Promise<void> {
  const fn = (name: string, statements: string[], result?: string) => createTriggerFunction(db, name, statements, result);
  const ofPayments = (sign: string, table: string) =>
    `select ${share(sign, 'p', 'd')} from ${table} p join documents d on d.id = p.document_id`;
  const paymentChanged = PAYMENT_WATCHED.map((c) => `o.${c} is distinct from n.${c}`).join(' or ');
  const documentChanged = DOCUMENT_WATCHED.map((c) => `o.${c} is distinct from n.${c}`).join(' or ');
  const movedPayments = `select ${share('-1', 'o', 'd')} from old_rows o join new_rows n on n.id = o.id join documents d on d.id = o.document_id
      where ${paymentChanged}
    union all select ${share('1', 'n', 'd')} from new_rows n join old_rows o on o.id = n.id join documents d on d.id = n.document_id
      where ${paymentChanged}`;
  const movedDocuments = `select ${share('-1', 'p', 'o')} from old_rows o join new_rows n on n.id = o.id join payments p on p.document_id = o.id
      where ${documentChanged}
    union all select ${share('1', 'p', 'n')} from new_rows n join old_rows o on o.id = n.id join payments p on p.document_id = n.id
      where ${documentChanged}`;
  await fn('summary_payments_inserted', paymentStatements(ofPayments('1', 'new_rows')));
  await fn('summary_payments_updated', [
    `if not exists (select 1 from old_rows o join new_rows n on n.id = o.id where ${paymentChanged}) then return null; end if`,
    ...paymentStatements(movedPayments),
  ]);
  await fn('summary_payments_deleted', paymentStatements(ofPayments('-1', 'old_rows')));
  // A document's update that moves no share (its status, a draft without payments) stops at the first query.
  await fn('summary_payment_documents_updated', [
    `if not exists (select 1 from old_rows o join new_rows n on n.id = o.id join payments p on p.document_id = o.id
      where ${documentChanged}) then return null; end if`,
    ...paymentStatements(movedDocuments),
  ]);
  await fn(
    'summary_payment_documents_deleting',
    paymentStatements(`select ${share('-1', 'p', 'old')} from payments p where p.document_id = old.id`),
    'old',
  );
  await createStatementTriggers(db, [
    ['summary_payments_insert', 'insert', 'payments', 'new table as new_rows', 'summary_payments_inserted'],
    ['summary_payments_update', 'update', 'payments', 'old table as old_rows new table as new_rows', 'summary_payments_updated'],
    ['summary_payments_delete', 'delete', 'payments', 'old table as old_rows', 'summary_payments_deleted'],
    [
      'summary_payment_documents_update',
      'update',
      'documents',
      'old table as old_rows new table as new_rows',
      'summary_payment_documents_updated',
    ],
  ]);
  await sql
    .raw(`create trigger summary_payment_documents_delete before delete on documents for each row
      execute function summary_payment_documents_deleting()`)
    .execute(db);
}

/** The table from the payments already there (the rebuild's aggregate, as it was written here). */
async function fill(db: MigrationDb): Promise<void> {
  await sql
    .raw(`insert into summary_payment_months (${keyList}, count, amount, goods, lines)
      select ${keyList}, count(*), sum(amount), sum(goods), sum(lines)
      from (select ${share('1', 'p', 'd')} from payments p join documents d on d.id = p.document_id) r
      group by ${positions}`)
    .execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  const triggers = [
    ['summary_payments_insert', 'payments'],
    ['summary_payments_update', 'payments'],
    ['summary_payments_delete', 'payments'],
    ['summary_payment_documents_update', 'documents'],
    ['summary_payment_documents_delete', 'documents'],
  ] as const;
  if (isPostgres(db)) {
    for (const [trigger, table] of triggers) await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
    for (const name of [
      'summary_payments_inserted',
      'summary_payments_updated',
      'summary_payments_deleted',
      'summary_payment_documents_updated',
      'summary_payment_documents_deleting',
    ])
      await sql`drop function ${sql.id(name)}()`.execute(db);
  } else for (const [trigger] of triggers) await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  await db.schema.dropTable('summary_payment_months').execute();
}
