import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';
import * as generations0065 from './0065_data_generations';
import * as summaries0066 from './0066_document_summaries';

/**
 * PostgreSQL's generations and summaries, cheaper and without a deadlock; `turnover_days` dropped.
 *
 * Generations (migrations 0042 and 0065). Their deferred row triggers bumped `data_generations` (and
 * `document_generations`) at the commit in the order the rows had been written: a transaction that wrote an
 * organisation's data then an account (row 0), committing beside one that wrote them the other way round, could lock
 * one row each and wait for the other's. Now a row's trigger only notes its organisation in the transaction's list
 * (one setting, `facturier.data_written`, or `facturier.documents_written`, instead of one setting per organisation
 * that stayed on each pooled connection), from its WHEN condition, which PostgreSQL evaluates at the write even for a
 * deferred trigger: the trigger is queued only for an organisation new to the list, so a transaction queues one event
 * per organisation, not one per row. At the commit the first queued event bumps every noted organisation in one
 * statement, in ascending id: every transaction locks the rows it bumps in that one order, so none waits for a row
 * that a transaction it holds up already holds. The list reads `<bumped>;<pending>`, each `,id,id,`: an id bumped
 * earlier in the transaction (a rebuild's own bump, or a statement's end under `set constraints all immediate`) is not
 * queued again, since the bump it had already commits with the transaction.
 *
 * Summaries (migration 0066). The row triggers cost about 1 ms per document in a statement writing thousands; they
 * become statement triggers reading the statement's rows (transition tables), summing the shares per summary row and
 * writing each row once, in key order (the same lock order as the row triggers kept). A credit note's « deposit
 * credit » is read from the corrected invoice: for a share taken off, from the rows as they were before the
 * statement too, so that a statement deleting an invoice with its credit notes (an organisation deleted) takes the
 * credit notes off the rows they were added to. An issued invoice's kind never changes and a credit note's invoice
 * cannot be deleted on its own (`corrects_id` references it), so the lookup otherwise gives what it gave at the
 * addition. SQLite's row triggers stay (one writer, a statement's rows one by one: their cost is SQLite's).
 *
 * `turnover_days` (migration 0038): the turnover reads the summaries since 0066; nothing reads it any more.
 */

const DATA_SETTING = 'facturier.data_written';
const DOCUMENTS_SETTING = 'facturier.documents_written';

const CHILDREN: Record<string, { parent: string; column: string }> = {
  document_items: { parent: 'documents', column: 'document_id' },
  appointment_reminders: { parent: 'appointments', column: 'appointment_id' },
};

export async function up(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('turnover_days').execute();
  if (!isPostgres(db)) return;
  await orderGenerations(db);
  await groupSummaries(db);
}

async function orderGenerations(db: MigrationDb): Promise<void> {
  // The old triggers and the functions only they called. The tables that had one get the new ones, and no other (a
  // table its migration left without one, as the summaries, stays so).
  const old = await generationTriggers(db);
  const triggered = new Set(old.map((t) => t.table));
  for (const { table, trigger } of old) await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
  for (const fn of [
    'bump_data_generation',
    'bump_organization_data_generation',
    'bump_child_data_generation',
    'bump_everyone_data_generation',
  ])
    await sql`drop function ${sql.id(fn)}()`.execute(db);
  await sql`drop trigger documents_generation on documents`.execute(db);
  await sql`drop function bump_document_generation()`.execute(db);

  // True when the organisation is new to the transaction's list: its trigger is then queued (see above).
  await sql`create function note_generation_write(setting text, organization bigint) returns boolean language plpgsql as $$
    declare
      noted text := coalesce(nullif(current_setting(setting, true), ''), ',;,');
    begin
      if organization is null or strpos(noted, ',' || organization || ',') > 0 then return false; end if;
      perform set_config(setting, noted || organization || ',', true);
      return true;
    end $$`.execute(db);
  // A row of a document's lines or an appointment's reminders: its parent's organisation (a parent already gone was
  // deleted in the same transaction, which noted it).
  await sql`create function note_child_data_write(parent regclass, parent_id bigint) returns boolean language plpgsql as $$
    declare
      organization bigint;
    begin
      execute format('select organization_id from %s where id = $1', parent) into organization using parent_id;
      return note_generation_write(${sql.lit(DATA_SETTING)}, organization);
    end $$`.execute(db);
  // The noted organisations not bumped yet, ascending, moved to the bumped part of the list.
  await sql`create function take_pending_generations(setting text) returns bigint[] language plpgsql as $$
    declare
      noted text := coalesce(nullif(current_setting(setting, true), ''), ',;,');
      pending text := split_part(noted, ';', 2);
      ids bigint[];
    begin
      if pending = ',' then return '{}'; end if;
      ids := array(select unnest(string_to_array(trim(both ',' from pending), ','))::bigint order by 1);
      perform set_config(setting, split_part(noted, ';', 1) || substr(pending, 2) || ';,', true);
      return ids;
    end $$`.execute(db);
  await sql`create function bump_noted_data_generations() returns trigger language plpgsql as $$
    begin
      insert into data_generations (organization_id, generation)
        select id, 1 from unnest(take_pending_generations(${sql.lit(DATA_SETTING)})) id order by id
        on conflict (organization_id) do update set generation = data_generations.generation + 1;
      return null;
    end $$`.execute(db);
  // An organisation deleted in the transaction has no row to keep (the table references the organisations).
  await sql`create function bump_noted_document_generations() returns trigger language plpgsql as $$
    begin
      insert into document_generations (organization_id, generation)
        select u.id, 1 from unnest(take_pending_generations(${sql.lit(DOCUMENTS_SETTING)})) u (id)
        where exists (select 1 from organizations o where o.id = u.id) order by u.id
        on conflict (organization_id) do update set generation = document_generations.generation + 1;
      return null;
    end $$`.execute(db);
  // A bump inside the transaction, now (a rebuild of the summaries, whose tables have no trigger): once per transaction.
  await sql`create or replace function bump_data_generation_of(organization bigint) returns void language plpgsql as $$
    declare
      noted text := coalesce(nullif(current_setting(${sql.lit(DATA_SETTING)}, true), ''), ',;,');
      bumped text := split_part(noted, ';', 1);
    begin
      if strpos(bumped, ',' || organization || ',') > 0 then return; end if;
      insert into data_generations (organization_id, generation) values (organization, 1)
        on conflict (organization_id) do update set generation = data_generations.generation + 1;
      perform set_config(${sql.lit(DATA_SETTING)},
        bumped || organization || ',;' || replace(split_part(noted, ';', 2), ',' || organization || ',', ','), true);
    end $$`.execute(db);

  const { rows } = await sql<{ table_name: string; organized: boolean }>`
    select t.table_name, exists (select 1 from information_schema.columns c where c.table_schema = t.table_schema
      and c.table_name = t.table_name and c.column_name = 'organization_id') as organized
    from information_schema.tables t
    where t.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by t.table_name`.execute(db);
  for (const { table_name: table, organized } of rows) {
    if (!triggered.has(table)) continue;
    const child = CHILDREN[table];
    const note = (row: 'new' | 'old') =>
      table === 'organizations'
        ? `note_generation_write('${DATA_SETTING}', ${row}.id)`
        : child
          ? `note_child_data_write('${child.parent}', ${row}.${child.column})`
          : `note_generation_write('${DATA_SETTING}', coalesce(${row}.organization_id, 0))`;
    if (!organized && !child && table !== 'organizations') {
      await hook(
        db,
        `${table}_data_generation`,
        table,
        'insert or update or delete',
        `note_generation_write('${DATA_SETTING}', 0)`,
        'bump_noted_data_generations',
      );
      continue;
    }
    await perRow(db, `${table}_data_generation`, table, note, 'bump_noted_data_generations');
  }
  await perRow(
    db,
    'documents_generation',
    'documents',
    (row) => `note_generation_write('${DOCUMENTS_SETTING}', ${row}.organization_id)`,
    'bump_noted_document_generations',
  );
}

/**
 * The three triggers of a table whose rows name their organisation: `<name>` on insert, `<name>_update` (a row moved
 * to another organisation, which no code does, notes both), `<name>_delete`. A WHEN condition cannot read NEW and OLD
 * on one trigger for all three.
 */
async function perRow(db: MigrationDb, name: string, table: string, note: (row: 'new' | 'old') => string, bump: string) {
  await hook(db, name, table, 'insert', note('new'), bump);
  // Both noted, whichever is new: no `or` that would skip the second.
  await hook(db, `${name}_update`, table, 'update', `(${note('old')})::int + (${note('new')})::int > 0`, bump);
  await hook(db, `${name}_delete`, table, 'delete', note('old'), bump);
}

async function hook(db: MigrationDb, name: string, table: string, events: string, when: string, bump: string) {
  await sql
    .raw(`create constraint trigger "${name}" after ${events} on "${table}" deferrable initially deferred
      for each row when (${when}) execute function ${bump}()`)
    .execute(db);
}

/** The generation triggers of 0065 (`<table>_data_generation`) or of this migration (and their `_update`, `_delete`). */
async function generationTriggers(db: MigrationDb) {
  const { rows } = await sql<{ table_name: string; trigger_name: string }>`
    select distinct event_object_table as table_name, trigger_name from information_schema.triggers
    where trigger_schema = current_schema() and (trigger_name like '%\\_data\\_generation'
      or trigger_name like '%\\_data\\_generation\\_update' or trigger_name like '%\\_data\\_generation\\_delete')`.execute(db);
  return rows.map((r) => ({ table: r.table_name, trigger: r.trigger_name }));
}

// ---- Summaries -----------------------------------------------------------------------------------------------------

const OPEN = `('unpaid', 'partial')`;

/** The columns whose change moves a document's share (as 0066's). */
const WATCHED = [
  'organization_id',
  'type',
  'kind',
  'status',
  'number',
  'date',
  'maturity',
  'customer_id',
  'customer_name',
  'currency',
  'exchange_rate',
  'subtotal',
  'discount',
  'tax',
  'total',
  'deposits',
  'amount_due',
  'sent_at',
  'corrects_id',
];

/**
 * 1 for a credit note of a deposit invoice. A share taken off also finds its invoice among the rows the statement
 * deleted (`gone`, joined rather than searched row by row: a statement deleting thousands of credit notes).
 */
const depositCredit = (r: string, removed: boolean) =>
  `case when ${r}.type = 'credit' and (exists (select 1 from documents d where d.id = ${r}.corrects_id and d.kind = 'deposit')${
    removed ? ' or gone.id is not null' : ''
  }) then 1 else 0 end`;

/** The statement's shares: each written row's, signed (1 added, -1 taken off), with its deposit-credit key. */
function shares(op: 'insert' | 'delete' | 'update'): string {
  // Only the rows whose share moved, on an update: one of a note or of a kept PDF changes no summary.
  const changed = op === 'update' ? `where ${WATCHED.map((c) => `o.${c} is distinct from n.${c}`).join(' or ')}` : '';
  const added = `select 1 as sign, n.*, ${depositCredit('n', false)} as deposit_credit_key
    from new_rows n ${op === 'update' ? 'join old_rows o on o.id = n.id' : ''} ${changed}`;
  const removed = `select -1 as sign, o.*, ${depositCredit('o', true)} as deposit_credit_key
    from old_rows o ${op === 'update' ? 'join new_rows n on n.id = o.id' : ''}
      left join (select id from old_rows where kind = 'deposit') gone on gone.id = o.corrects_id ${changed}`;
  if (op === 'insert') return added;
  if (op === 'delete') return removed;
  return `${removed} union all ${added}`;
}

/**
 * One table's change: the shares summed per summary row and written in key order, then the rows left at a count of 0
 * dropped. `deltas` are the summed columns; `filter` which documents the table counts.
 */
function upsert(
  s: string,
  table: string,
  key: { column: string; value: string }[],
  deltas: Record<string, string>,
  filter: string,
  extra = '',
) {
  const keyColumns = key.map((k) => k.column).join(', ');
  const sums = Object.entries(deltas).map(([column, value]) => ({ column, sum: `sum(r.sign * (${value}))` }));
  const positions = key.map((_, i) => i + 1).join(', ');
  return `insert into ${table} (${keyColumns}, ${sums.map((d) => d.column).join(', ')}${extra ? ', customer_name' : ''})
      select ${key.map((k) => k.value).join(', ')}, ${sums.map((d) => d.sum).join(', ')}${extra}
      from (${s}) r where ${filter}
      group by ${positions}
      having ${sums.map((d) => `${d.sum} <> 0`).join(' or ')}${extra ? ' or bool_or(r.sign = 1)' : ''}
      order by ${positions}
      on conflict (${keyColumns}) do update set ${sums.map((d) => `${d.column} = ${table}.${d.column} + excluded.${d.column}`).join(', ')}${
        extra ? `, customer_name = greatest(${table}.customer_name, excluded.customer_name)` : ''
      };
    delete from ${table} t using (select distinct ${key.map((k) => `${k.value} as ${k.column}`).join(', ')} from (${s}) r where ${filter}) k
      where ${key.map((k) => `t.${k.column} = k.${k.column}`).join(' and ')} and t.count = 0`;
}

function statementBody(op: 'insert' | 'delete' | 'update'): string {
  const s = shares(op);
  const receivable = `r.type = 'invoice' and r.status in ${OPEN}`;
  const rate = `coalesce(r.exchange_rate, '')`;
  const days = upsert(
    s,
    'summary_document_days',
    [
      { column: 'organization_id', value: 'r.organization_id' },
      { column: 'date', value: 'r.date' },
      { column: 'type', value: 'r.type' },
      { column: 'kind', value: 'r.kind' },
      { column: 'currency', value: 'r.currency' },
      { column: 'exchange_rate', value: rate },
      { column: 'deposit_credit', value: 'r.deposit_credit_key' },
    ],
    { count: '1', ht: 'r.subtotal - r.discount', tax: 'r.tax', total: 'r.total', deposits: 'r.deposits' },
    `r.number is not null and r.type in ('invoice', 'credit')`,
  );
  const receivableKey = [
    { column: 'organization_id', value: 'r.organization_id' },
    { column: 'maturity', value: `coalesce(r.maturity, '')` },
    { column: 'customer_key', value: 'coalesce(r.customer_id, 0)' },
    { column: 'currency', value: 'r.currency' },
    { column: 'exchange_rate', value: rate },
  ];
  // A new row's name: the greatest added (never null: a row is only created by an addition). A row with a name added
  // is written even when its sums do not move (a customer's name changed): the name may be the greatest now.
  const receivables = upsert(
    s,
    'summary_receivables',
    receivableKey,
    { count: '1', amount_due: 'r.amount_due' },
    receivable,
    `, coalesce(max(r.customer_name) filter (where r.sign = 1), '')`,
  );
  // The greatest name cannot be taken off: where it was a removed document's, it is read again from the documents.
  const names = `update summary_receivables t set customer_name = (select max(d.customer_name) from documents d
        where d.organization_id = t.organization_id
          and (d.customer_id = t.customer_key or (t.customer_key = 0 and d.customer_id is null))
          and d.type = 'invoice' and d.status in ${OPEN} and coalesce(d.maturity, '') = t.maturity
          and d.currency = t.currency and coalesce(d.exchange_rate, '') = t.exchange_rate)
      from (select distinct ${receivableKey.map((k) => `${k.value} as ${k.column}`).join(', ')}, r.customer_name
        from (${s}) r where r.sign = -1 and ${receivable}) k
      where ${receivableKey.map((k) => `t.${k.column} = k.${k.column}`).join(' and ')} and t.customer_name = k.customer_name`;
  const receivableDays = upsert(
    s,
    'summary_receivable_days',
    [
      { column: 'organization_id', value: 'r.organization_id' },
      { column: 'maturity', value: `coalesce(r.maturity, '')` },
      { column: 'currency', value: 'r.currency' },
      { column: 'exchange_rate', value: rate },
    ],
    { count: '1', amount_due: 'r.amount_due' },
    receivable,
  );
  const receivableCustomers = upsert(
    s,
    'summary_receivable_customers',
    [
      { column: 'organization_id', value: 'r.organization_id' },
      { column: 'customer_key', value: 'coalesce(r.customer_id, 0)' },
      { column: 'currency', value: 'r.currency' },
      { column: 'exchange_rate', value: rate },
    ],
    { count: '1', amount_due: 'r.amount_due' },
    receivable,
  );
  const counts = upsert(
    s,
    'summary_document_counts',
    [
      { column: 'organization_id', value: 'r.organization_id' },
      { column: 'type', value: 'r.type' },
      { column: 'status', value: 'r.status' },
    ],
    { count: '1', sent: 'case when r.sent_at is not null then 1 else 0 end' },
    'true',
  );
  // An update that moved no share (most of them: a note, a PDF kept, a reminder's date) stops at the first query.
  const guard = op === 'update' ? `if not exists (${s}) then return null; end if;` : '';
  return `${guard}
    ${days};
    ${receivables};
    ${names};
    ${receivableDays};
    ${receivableCustomers};
    ${counts};`;
}

const SUMMARY_OPS = ['insert', 'delete', 'update'] as const;
const SUMMARY_FUNCTIONS = {
  insert: 'summary_documents_inserted',
  delete: 'summary_documents_deleted',
  update: 'summary_documents_updated',
};

async function groupSummaries(db: MigrationDb): Promise<void> {
  await sql`drop trigger summary_documents_update on documents`.execute(db);
  await sql`drop trigger summary_documents_write on documents`.execute(db);
  await sql`drop function summary_documents_apply()`.execute(db);
  for (const op of SUMMARY_OPS) {
    await sql
      .raw(`create function ${SUMMARY_FUNCTIONS[op]}() returns trigger language plpgsql as $$
        begin
          ${statementBody(op)}
          return null;
        end $$`)
      .execute(db);
    const tables =
      op === 'insert' ? 'new table as new_rows' : op === 'delete' ? 'old table as old_rows' : 'old table as old_rows new table as new_rows';
    await sql
      .raw(`create trigger summary_documents_${op} after ${op} on documents referencing ${tables}
        for each statement execute function ${SUMMARY_FUNCTIONS[op]}()`)
      .execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    // The summaries as 0066 left them: its tables, filled again from the documents, and its row triggers.
    for (const op of SUMMARY_OPS) {
      await sql`drop trigger ${sql.id(`summary_documents_${op}`)} on documents`.execute(db);
      await sql`drop function ${sql.id(SUMMARY_FUNCTIONS[op])}()`.execute(db);
    }
    for (const table of [
      'summary_document_counts',
      'summary_receivable_customers',
      'summary_receivable_days',
      'summary_receivables',
      'summary_document_days',
    ])
      await db.schema.dropTable(table).execute();
    await summaries0066.up(db);

    // The generations as 0065 and 0042 left them, their values kept (moved once more: answers kept meanwhile are read again).
    for (const { table, trigger } of await generationTriggers(db))
      await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
    for (const trigger of ['documents_generation', 'documents_generation_update', 'documents_generation_delete'])
      await sql`drop trigger ${sql.id(trigger)} on documents`.execute(db);
    for (const fn of ['bump_noted_data_generations', 'bump_noted_document_generations'])
      await sql`drop function ${sql.id(fn)}()`.execute(db);
    await sql`drop function take_pending_generations(text)`.execute(db);
    await sql`drop function note_child_data_write(regclass, bigint)`.execute(db);
    await sql`drop function note_generation_write(text, bigint)`.execute(db);
    await sql`drop function bump_data_generation_of(bigint)`.execute(db);
    await sql`alter table data_generations rename to data_generations_before`.execute(db);
    await generations0065.up(db);
    await sql`insert into data_generations (organization_id, generation)
      select organization_id, generation + 1 from data_generations_before`.execute(db);
    await sql`drop table data_generations_before`.execute(db);
    await sql`create function bump_document_generation() returns trigger language plpgsql as $$
      declare
        organization bigint := case when tg_op = 'DELETE' then old.organization_id else new.organization_id end;
        written text := 'facturier.documents_written_' || organization;
      begin
        if coalesce(current_setting(written, true), '') <> '1' then
          insert into document_generations (organization_id, generation) values (organization, 1)
            on conflict (organization_id) do update set generation = document_generations.generation + 1;
          perform set_config(written, '1', true);
        end if;
        return null;
      end $$`.execute(db);
    await sql`create constraint trigger documents_generation after insert or update or delete on documents
      deferrable initially deferred for each row execute function bump_document_generation()`.execute(db);
  }
  await db.schema
    .createTable('turnover_days')
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('net', 'integer', (c) => c.notNull())
    .addColumn('tax', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('turnover_days_pk', ['organization_id', 'date', 'currency', 'exchange_rate'])
    .execute();
  const sign = (column: string) => sql`sum(case when type = 'credit' then -(${sql.raw(column)}) else ${sql.raw(column)} end)`;
  await sql`insert into turnover_days (organization_id, date, currency, exchange_rate, count, net, tax, total)
    select organization_id, date, currency, coalesce(exchange_rate, ''), count(*), ${sign('total - tax')}, ${sign('tax')}, ${sign('total')}
    from documents
    where type in ('invoice', 'credit') and number is not null and kind = 'standard'
      and not (type = 'credit' and exists (select 1 from documents d where d.id = documents.corrects_id and d.kind = 'deposit'))
    group by organization_id, date, currency, coalesce(exchange_rate, '')`.execute(db);
}
