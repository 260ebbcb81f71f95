import { sql } from 'kysely';
import { analyzeIfAnalysed, createTriggerFunction, createStatementTriggers, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * The invoices a reminder may concern that have an address to send it to, in the Relances list's order. The reminders
 * offered for one click (the first hundred with an address) were found by walking every invoice still to be paid,
 * most overdue first, until a hundred had one: when few customers have an e-mail address (a shop's), that walk read
 * every invoice (a quarter of a second at a million documents). The walk now starts from these rows:
 * - `summary_reminder_addresses`: per organisation, due date and invoice, the invoices a reminder may concern (the
 *   REMINDABLE terms of queries/payment-reminders.ts) whose customer has an address now, or had one at issue (the
 *   snapshot's). The list's query keeps its own terms and reads the invoice's row: a row here is a way in, never the
 *   answer; one missing would drop an invoice from the offer.
 *
 * The same transaction as the write keeps it, whatever code writes: an invoice's row follows its own columns (the
 * terms, its due date, its customer and snapshot), and a customer's address gained or lost moves the rows of its
 * invoices. On SQLite row triggers; on PostgreSQL statement triggers reading the statement's rows. Customers are
 * never deleted while an invoice names them (a foreign key), and ids are never reused.
 */

const KEY = ['organization_id', 'maturity', 'document_id'];
const keyList = KEY.join(', ');

/** The document columns an invoice's row is made of; an update that changes none of them moves nothing. */
const DOCUMENT_WATCHED = ['organization_id', 'type', 'status', 'amount_due', 'maturity', 'number', 'customer_id', 'customer_snapshot'];

/** Whether document row `d` is an invoice a reminder may concern (REMINDABLE). */
const remindable = (d: string) =>
  `(${d}.type = 'invoice' and ${d}.status in ('unpaid', 'partial') and ${d}.amount_due > 0 and ${d}.maturity is not null and ${d}.number is not null)`;

/** Whether invoice `d` of customer row `c` (left joined) has an address: the customer's now, else the snapshot's. */
const addressed = (d: string, c: string, postgres: boolean) => {
  const snapshot = postgres ? `(cast(${d}.customer_snapshot as jsonb) #>> '{email}')` : `json_extract(${d}.customer_snapshot, '$.email')`;
  return `coalesce(nullif(${c}.email, ''), ${snapshot}, '') <> ''`;
};

/** The rows of the invoices `d` (a FROM item named d) that have an address, with the customers as they are. */
const rowsOf = (from: string, postgres: boolean) =>
  `select d.organization_id, d.maturity, d.id from ${from} left join customers c on c.id = d.customer_id
    where ${remindable('d')} and ${addressed('d', 'c', postgres)}`;

const insertRows = (from: string, postgres: boolean) =>
  `insert into summary_reminder_addresses (${keyList}) ${rowsOf(from, postgres)} on conflict (${keyList}) do nothing`;

/** Deletes the rows of the invoices `d` as they were (a FROM item named d), those a reminder may have concerned. */
const deleteRows = (from: string) =>
  `delete from summary_reminder_addresses where (${keyList}) in (select d.organization_id, d.maturity, d.id from ${from} where ${remindable('d')})`;

/** The documents of the customers `keys` (a query of organisation and customer ids), as a FROM item named d. */
const documentsOfCustomers = (keys: string) => `(select * from documents where (organization_id, customer_id) in (${keys})) d`;

/** The columns of document row `r` the rows read, as a row of its own (SQLite's trigger rows are no tables). */
const documentRow = (r: string) => `(select ${['id', ...DOCUMENT_WATCHED].map((c) => `${r}.${c} as ${c}`).join(', ')}) d`;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('summary_reminder_addresses')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('maturity', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_reminder_addresses_pk', KEY as never)
    .execute();
  const postgres = isPostgres(db);
  await sql.raw(insertRows('documents d', postgres)).execute(db);
  if (postgres) await postgresTriggers(db);
  else await sqliteTriggers(db);
  await analyzeIfAnalysed(db, ['summary_reminder_addresses']);
}

async function sqliteTriggers(db: MigrationDb): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const body = (statements: string[]) => `begin ${statements.join(';\n')}; end`;
  await run(`create trigger summary_reminder_addresses_insert after insert on documents when ${remindable('new')}
    ${body([insertRows(documentRow('new'), false)])}`);
  await run(`create trigger summary_reminder_addresses_update after update of ${DOCUMENT_WATCHED.join(', ')} on documents
    when (${DOCUMENT_WATCHED.map((c) => `old.${c} is not new.${c}`).join(' or ')}) and (${remindable('old')} or ${remindable('new')})
    ${body([deleteRows(documentRow('old')), insertRows(documentRow('new'), false)])}`);
  await run(`create trigger summary_reminder_addresses_delete after delete on documents when ${remindable('old')}
    ${body([deleteRows(documentRow('old'))])}`);
  // Only an address gained or lost moves a row: an address changed for another keeps them.
  const invoices = documentsOfCustomers('select new.organization_id, new.id');
  await run(`create trigger summary_reminder_addresses_customers_update after update of email on customers
    when (old.email = '') is not (new.email = '')
    ${body([deleteRows(invoices), insertRows(invoices, false)])}`);
}

async function postgresTriggers(db: MigrationDb): Promise<void> {
  const fn = (name: string, statements: string[]) => createTriggerFunction(db, name, statements);
  // An invoice's row reads its customer's address: a transaction changing that address meanwhile would miss the
  // invoice, and this one the new address. The customers' rows, locked first, make the later of the two wait for the
  // earlier's commit, after which its statements read it.
  const lockCustomers = (documents: string) =>
    `perform 1 from customers where id in (select d.customer_id from ${documents} where ${remindable('d')}) order by id for share`;
  await fn('summary_reminder_addresses_inserted', [lockCustomers('new_rows d'), insertRows('new_rows d', true)]);
  const changed = DOCUMENT_WATCHED.map((c) => `o.${c} is distinct from n.${c}`).join(' or ');
  const changedWas = `(select o.* from old_rows o join new_rows n on n.id = o.id where ${changed}) d`;
  const changedNow = `(select n.* from new_rows n join old_rows o on o.id = n.id where ${changed}) d`;
  // An update that moves no row (a draft edited, a note written) stops at the first query.
  await fn('summary_reminder_addresses_updated', [
    `if not exists (select 1 from old_rows o join new_rows n on n.id = o.id where (${changed})
      and (${remindable('o')} or ${remindable('n')})) then return null; end if`,
    lockCustomers(changedNow),
    deleteRows(changedWas),
    insertRows(changedNow, true),
  ]);
  await fn('summary_reminder_addresses_deleted', [deleteRows('old_rows d')]);
  const customers = `select n.organization_id, n.id from new_rows n join old_rows o on o.id = n.id where (o.email = '') is distinct from (n.email = '')`;
  const invoices = documentsOfCustomers(customers);
  await fn('summary_reminder_addresses_customers_updated', [
    `if not exists (${customers}) then return null; end if`,
    deleteRows(invoices),
    insertRows(invoices, true),
  ]);
  await createStatementTriggers(db, [
    ['summary_reminder_addresses_insert', 'insert', 'documents', 'new table as new_rows', 'summary_reminder_addresses_inserted'],
    [
      'summary_reminder_addresses_update',
      'update',
      'documents',
      'old table as old_rows new table as new_rows',
      'summary_reminder_addresses_updated',
    ],
    ['summary_reminder_addresses_delete', 'delete', 'documents', 'old table as old_rows', 'summary_reminder_addresses_deleted'],
    [
      'summary_reminder_addresses_customers_update',
      'update',
      'customers',
      'old table as old_rows new table as new_rows',
      'summary_reminder_addresses_customers_updated',
    ],
  ]);
}

export async function down(db: MigrationDb): Promise<void> {
  const triggers = [
    ['summary_reminder_addresses_insert', 'documents', 'summary_reminder_addresses_inserted'],
    ['summary_reminder_addresses_update', 'documents', 'summary_reminder_addresses_updated'],
    ['summary_reminder_addresses_delete', 'documents', 'summary_reminder_addresses_deleted'],
    ['summary_reminder_addresses_customers_update', 'customers', 'summary_reminder_addresses_customers_updated'],
  ] as const;
  if (isPostgres(db))
    for (const [trigger, table, fn] of triggers) {
      await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
      await sql`drop function ${sql.id(fn)}()`.execute(db);
    }
  else for (const [trigger] of triggers) await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  await db.schema.dropTable('summary_reminder_addresses').execute();
}
