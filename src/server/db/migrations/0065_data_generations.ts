import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL, the answers kept between requests (kept-answers.ts) shared by several processes: `data_generations` has
 * one row per organisation whose `generation` grows with every transaction that writes its rows, and row 0 for
 * writes of rows that belong to no organisation (a person's account), which every organisation's answers may show.
 * Each data table gets a trigger that bumps the row of the organisation it writes, in that same transaction, whatever
 * the process or the statement; a process reuses an answer only while the generation is the one it read before it.
 * As 0042's, the triggers are deferred to the commit (the row is locked only while the transaction commits, after its
 * other locks) and bump once per transaction and organisation (a local setting remembers it). SQLite keeps its
 * generations in the process, which sees every write to its file (db/data-generation.ts): nothing here is its.
 *
 * Which organisation a row belongs to: its `organization_id`; an organisation's own row, its `id`; a document's line
 * or an appointment's reminder, its parent's (a parent already gone was deleted in the same transaction, which bumped
 * it); any other table, everyone's. The bookkeeping tables (sessions, rate windows, API keys' last use, scheduler
 * leases) are written on reads and shown by no kept answer: no trigger. A table created later needs its trigger in its
 * own migration (tests/integration/kept-answers-scope.test.ts lists the tables without one).
 */
const BOOKKEEPING = ['sessions', 'rate_limits', 'api_keys', 'scheduler_jobs'];
const NOT_DATA = ['data_generations', 'document_generations', 'kysely_migration', 'kysely_migration_lock'];
const CHILDREN: Record<string, { parent: string; column: string }> = {
  document_items: { parent: 'documents', column: 'document_id' },
  appointment_reminders: { parent: 'appointments', column: 'appointment_id' },
};

export async function up(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema
    .createTable('data_generations')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey())
    .addColumn('generation', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create function bump_data_generation_of(organization bigint) returns void language plpgsql as $$
    declare
      written text := 'facturier.data_written_' || organization;
    begin
      if coalesce(current_setting(written, true), '') <> '1' then
        insert into data_generations (organization_id, generation) values (organization, 1)
          on conflict (organization_id) do update set generation = data_generations.generation + 1;
        perform set_config(written, '1', true);
      end if;
    end $$`.execute(db);
  // A row moved to another organisation (no code does it) changes both.
  await sql`create function bump_data_generation() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then perform bump_data_generation_of(coalesce(old.organization_id, 0)); end if;
      if tg_op <> 'DELETE' then perform bump_data_generation_of(coalesce(new.organization_id, 0)); end if;
      return null;
    end $$`.execute(db);
  await sql`create function bump_organization_data_generation() returns trigger language plpgsql as $$
    begin
      perform bump_data_generation_of(case when tg_op = 'DELETE' then old.id else new.id end);
      return null;
    end $$`.execute(db);
  await sql`create function bump_child_data_generation() returns trigger language plpgsql as $$
    declare
      parent_id bigint := (case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end ->> tg_argv[1])::bigint;
      organization bigint;
    begin
      execute format('select organization_id from %I where id = $1', tg_argv[0]) into organization using parent_id;
      if organization is not null then perform bump_data_generation_of(organization); end if;
      return null;
    end $$`.execute(db);
  await sql`create function bump_everyone_data_generation() returns trigger language plpgsql as $$
    begin
      perform bump_data_generation_of(0);
      return null;
    end $$`.execute(db);

  const { rows } = await sql<{ table_name: string; organized: boolean }>`
    select t.table_name, exists (select 1 from information_schema.columns c where c.table_schema = t.table_schema
      and c.table_name = t.table_name and c.column_name = 'organization_id') as organized
    from information_schema.tables t
    where t.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by t.table_name`.execute(db);
  for (const { table_name: table, organized } of rows) {
    if (BOOKKEEPING.includes(table) || NOT_DATA.includes(table)) continue;
    const child = CHILDREN[table];
    const call =
      table === 'organizations'
        ? sql`bump_organization_data_generation()`
        : child
          ? sql`bump_child_data_generation(${sql.lit(child.parent)}, ${sql.lit(child.column)})`
          : organized
            ? sql`bump_data_generation()`
            : sql`bump_everyone_data_generation()`;
    await sql`create constraint trigger ${sql.id(`${table}_data_generation`)} after insert or update or delete on ${sql.table(table)}
      deferrable initially deferred for each row execute function ${call}`.execute(db);
  }
}

export async function down(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ table_name: string; trigger_name: string }>`
    select distinct event_object_table as table_name, trigger_name from information_schema.triggers
    where trigger_schema = current_schema() and trigger_name like '%\\_data\\_generation'`.execute(db);
  for (const { table_name: table, trigger_name: trigger } of rows)
    await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
  for (const fn of [
    'bump_data_generation',
    'bump_organization_data_generation',
    'bump_child_data_generation',
    'bump_everyone_data_generation',
  ])
    await sql`drop function ${sql.id(fn)}()`.execute(db);
  await sql`drop function bump_data_generation_of(bigint)`.execute(db);
  await db.schema.dropTable('data_generations').execute();
}
