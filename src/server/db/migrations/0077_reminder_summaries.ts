import { sql } from 'kysely';
import { analyzeIfAnalysed, createTriggerFunction, createStatementTriggers, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * The Relances list's counts kept as the invoices and their reminders change. The list's head walked every invoice of
 * the organisation still to be paid and looked for its reminders once per step (a third of a second at a million
 * documents); it now sums a few rows per due date:
 * - `summary_reminder_days`: per organisation, due date and last step done (the latest step of a reminder sent or
 *   being sent; NO_STEP when none), how many invoices a reminder may concern — the REMINDABLE terms of
 *   queries/payment-reminders.ts written here in SQL as the triggers run them.
 * A step is due on an invoice when its due date is in the step's window and its last step done is earlier than the
 * step: the rows answer that without reading an invoice.
 *
 * The same transaction as the write keeps it, whatever code writes, as the summaries of migration 0075: on SQLite row
 * triggers; on PostgreSQL statement triggers reading the statement's rows. An invoice's share is read with its
 * reminders as they are after the write; a write of reminders takes the share their invoice had before it (the
 * reminders not written, and the written ones as they were) off and adds the one it has after. Reminders keep their
 * invoice (no cascade): an invoice is deleted without reminders, or not at all. No foreign key to the organisation:
 * deleting one deletes its documents, whose triggers empty its rows.
 */

/** The last step of an invoice without a reminder sent or being sent: below any step (±365 days). */
const NO_STEP = -1_000_000;

const KEY = ['organization_id', 'maturity', 'last_step'];
const keyList = KEY.join(', ');
const positions = KEY.map((_, i) => i + 1).join(', ');

/** The document columns an invoice's share is made of; an update that changes none of them moves nothing. */
const DOCUMENT_WATCHED = ['organization_id', 'type', 'status', 'amount_due', 'maturity', 'number'];
/** The reminder columns the last step done is made of. */
const REMINDER_WATCHED = ['document_id', 'step', 'status'];

/** Whether document row `d` is an invoice a reminder may concern (REMINDABLE). */
const remindable = (d: string) =>
  `(${d}.type = 'invoice' and ${d}.status in ('unpaid', 'partial') and ${d}.amount_due > 0 and ${d}.maturity is not null and ${d}.number is not null)`;

/** The last step done on invoice `id` among the reminder rows `rows` (a table or a parenthesised query), NO_STEP for none. */
const lastStep = (rows: string, id: string, extra = '') =>
  `coalesce((select max(x.step) from ${rows} x where x.document_id = ${id} and x.status <> 'failed'${extra}), ${NO_STEP})`;

/** The shares of the documents `d` (a FROM item named d) with the reminders as they are, signed `sign`. */
const documentShares = (sign: string, from: string) =>
  `select ${sign} as sign, d.organization_id as organization_id, d.maturity as maturity, ${lastStep('payment_reminders', 'd.id')} as last_step
    from ${from} where ${remindable('d')}`;

/**
 * The shares moved by a write of reminders: `written` the written rows as they are (insert, update), `was` as they were
 * (update, delete), `documents` the ids of their invoices. Each invoice's share before (its reminders not written,
 * and the written ones as they were) is taken off, and the one after added.
 */
function reminderShares(written: string, was: string, documents: string, postgres: boolean): string {
  const greatest = postgres ? 'greatest' : 'max';
  const before = `${greatest}(${lastStep('payment_reminders', 'd.id', ` and x.id not in (select w.id from ${written} w)`)}, ${lastStep(was, 'd.id')})`;
  return `select -1 as sign, d.organization_id as organization_id, d.maturity as maturity, ${before} as last_step
      from documents d where d.id in (${documents}) and ${remindable('d')}
    union all ${documentShares('1', `documents d`)} and d.id in (${documents})`;
}

/** Writes the shares `s` summed per key in key order, then drops the rows left at no invoice. */
function shareStatements(s: string): string[] {
  return [
    `insert into summary_reminder_days (${keyList}, count)
      select ${keyList}, sum(sign) from (${s}) r
      group by ${positions} having sum(sign) <> 0 order by ${positions}
      on conflict (${keyList}) do update set count = summary_reminder_days.count + excluded.count`,
    `delete from summary_reminder_days where count = 0 and (${keyList}) in (select ${keyList} from (${s}) r)`,
  ];
}

/** The columns of document row `r` a share reads, as a row of its own (SQLite's trigger rows are no tables). */
const documentRow = (r: string) => `(select ${['id', ...DOCUMENT_WATCHED].map((c) => `${r}.${c} as ${c}`).join(', ')}) d`;
/** The columns of reminder row `r` the last step reads, as a row of its own. */
const reminderRow = (r: string) => `(select ${['id', ...REMINDER_WATCHED].map((c) => `${r}.${c} as ${c}`).join(', ')})`;
const noReminder = `(select 0 as id, 0 as document_id, 0 as step, '' as status where 1 = 0)`;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('summary_reminder_days')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('maturity', 'text', (c) => c.notNull())
    .addColumn('last_step', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_reminder_days_pk', KEY as never)
    .execute();
  await fill(db);
  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
  await analyzeIfAnalysed(db, ['summary_reminder_days']);
}

async function sqliteTriggers(db: MigrationDb): Promise<void> {
  const body = (statements: string[]) => `begin ${statements.join(';\n')}; end`;
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create trigger summary_reminder_documents_insert after insert on documents
    ${body(shareStatements(documentShares('1', documentRow('new'))))}`);
  await run(`create trigger summary_reminder_documents_update after update of ${DOCUMENT_WATCHED.join(', ')} on documents
    when ${DOCUMENT_WATCHED.map((c) => `old.${c} is not new.${c}`).join(' or ')}
    ${body(shareStatements(`${documentShares('-1', documentRow('old'))} union all ${documentShares('1', documentRow('new'))}`))}`);
  await run(`create trigger summary_reminder_documents_delete after delete on documents
    ${body(shareStatements(documentShares('-1', documentRow('old'))))}`);
  await run(`create trigger summary_reminders_insert after insert on payment_reminders
    ${body(shareStatements(reminderShares(reminderRow('new'), noReminder, 'select new.document_id', false)))}`);
  await run(`create trigger summary_reminders_update after update of ${REMINDER_WATCHED.join(', ')} on payment_reminders
    when ${REMINDER_WATCHED.map((c) => `old.${c} is not new.${c}`).join(' or ')}
    ${body(shareStatements(reminderShares(reminderRow('new'), reminderRow('old'), 'select old.document_id union select new.document_id', false)))}`);
  await run(`create trigger summary_reminders_delete after delete on payment_reminders
    ${body(shareStatements(reminderShares(noReminder, reminderRow('old'), 'select old.document_id', false)))}`);
}

async function postgresTriggers(db: MigrationDb): Promise<void> {
  const fn = (name: string, statements: string[]) => createTriggerFunction(db, name, statements);
  const documentChanged = DOCUMENT_WATCHED.map((c) => `o.${c} is distinct from n.${c}`).join(' or ');
  const reminderChanged = REMINDER_WATCHED.map((c) => `o.${c} is distinct from n.${c}`).join(' or ');
  const changedDocuments = `(select o.* from old_rows o join new_rows n on n.id = o.id where ${documentChanged}) d`;
  const changedDocumentsNow = `(select n.* from new_rows n join old_rows o on o.id = n.id where ${documentChanged}) d`;
  // The last step is the greatest of an invoice's reminders: two transactions writing reminders of one invoice (or
  // the invoice) would each miss the other's. The invoice's row, locked first, makes the second wait for the first's
  // commit, after which its statements read it.
  const lock = (documents: string) => `perform 1 from documents where id in (${documents}) order by id for no key update`;
  await fn('summary_reminder_documents_inserted', shareStatements(documentShares('1', 'new_rows d')));
  // An update that moves no share (a draft edited, a customer renamed) stops at the first query.
  await fn('summary_reminder_documents_updated', [
    `if not exists (select 1 from old_rows o join new_rows n on n.id = o.id where (${documentChanged})
      and (${remindable('o')} or ${remindable('n')})) then return null; end if`,
    ...shareStatements(`${documentShares('-1', changedDocuments)} union all ${documentShares('1', changedDocumentsNow)}`),
  ]);
  await fn('summary_reminder_documents_deleted', shareStatements(documentShares('-1', 'old_rows d')));
  const inserted = 'select document_id from new_rows';
  await fn('summary_reminders_inserted', [lock(inserted), ...shareStatements(reminderShares('new_rows', noReminder, inserted, true))]);
  const updated = `select o.document_id from old_rows o join new_rows n on n.id = o.id where ${reminderChanged}
    union select n.document_id from new_rows n join old_rows o on o.id = n.id where ${reminderChanged}`;
  await fn('summary_reminders_updated', [
    `if not exists (select 1 from old_rows o join new_rows n on n.id = o.id where ${reminderChanged}) then return null; end if`,
    lock(updated),
    ...shareStatements(reminderShares('new_rows', 'old_rows', updated, true)),
  ]);
  const deleted = 'select document_id from old_rows';
  await fn('summary_reminders_deleted', [lock(deleted), ...shareStatements(reminderShares(noReminder, 'old_rows', deleted, true))]);
  await createStatementTriggers(db, [
    ['summary_reminder_documents_insert', 'insert', 'documents', 'new table as new_rows', 'summary_reminder_documents_inserted'],
    [
      'summary_reminder_documents_update',
      'update',
      'documents',
      'old table as old_rows new table as new_rows',
      'summary_reminder_documents_updated',
    ],
    ['summary_reminder_documents_delete', 'delete', 'documents', 'old table as old_rows', 'summary_reminder_documents_deleted'],
    ['summary_reminders_insert', 'insert', 'payment_reminders', 'new table as new_rows', 'summary_reminders_inserted'],
    ['summary_reminders_update', 'update', 'payment_reminders', 'old table as old_rows new table as new_rows', 'summary_reminders_updated'],
    ['summary_reminders_delete', 'delete', 'payment_reminders', 'old table as old_rows', 'summary_reminders_deleted'],
  ]);
}

/** The table from the invoices and reminders already there (the rebuild's aggregate, as it was written here). */
async function fill(db: MigrationDb): Promise<void> {
  await sql
    .raw(`insert into summary_reminder_days (${keyList}, count)
      select d.organization_id, d.maturity, coalesce(done.step, ${NO_STEP}), count(*)
      from documents d left join (select document_id, max(step) as step from payment_reminders where status <> 'failed'
        group by document_id) done on done.document_id = d.id
      where ${remindable('d')}
      group by ${positions}`)
    .execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  const triggers = [
    ['summary_reminder_documents_insert', 'documents'],
    ['summary_reminder_documents_update', 'documents'],
    ['summary_reminder_documents_delete', 'documents'],
    ['summary_reminders_insert', 'payment_reminders'],
    ['summary_reminders_update', 'payment_reminders'],
    ['summary_reminders_delete', 'payment_reminders'],
  ] as const;
  if (isPostgres(db)) {
    for (const [trigger, table] of triggers) await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
    for (const name of [
      'summary_reminder_documents_inserted',
      'summary_reminder_documents_updated',
      'summary_reminder_documents_deleted',
      'summary_reminders_inserted',
      'summary_reminders_updated',
      'summary_reminders_deleted',
    ])
      await sql`drop function ${sql.id(name)}()`.execute(db);
  } else for (const [trigger] of triggers) await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  await db.schema.dropTable('summary_reminder_days').execute();
}
