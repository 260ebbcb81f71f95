import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * The one dialect-specific column of the schema. SQLite's INTEGER PRIMARY KEY AUTOINCREMENT never reuses an
 * id; the PostgreSQL backend will swap this for an identity column here and nowhere else.
 */
export function withId<T extends string>(table: CreateTableBuilder<T, never>) {
  return table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement().notNull());
}

/**
 * What a migration sees: any table, any column, values of unknown type. Migrations describe the database as it was
 * at their time, so they never take today's table types; a value read here is checked before it is used.
 */
export type MigrationDb = Kysely<Record<string, Record<string, unknown>>>;

/**
 * Gives new tables or indexes their statistics when the SQLite database has some (ANALYZE ran on it): the planner
 * would otherwise weigh measured old indexes against guessed new ones, and a guessed one can look better than it is
 * (a list page read through the wrong index, then sorted). PostgreSQL's autovacuum analyses new ones by itself.
 */
export async function analyzeIfAnalysed(db: MigrationDb, names: string[]): Promise<void> {
  if (isPostgres(db)) return;
  const analysed = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db);
  if (Number(analysed.rows[0]?.n) === 0) return;
  for (const name of names) await sql`analyze ${sql.id(name)}`.execute(db);
}

/**
 * A PostgreSQL trigger function that runs `statements` in order, then returns `result`: null for an AFTER trigger (a
 * statement-level one reads its transition tables), the row (`old`) for a BEFORE DELETE row trigger that lets the
 * delete go on. A statement may end the function early (`if … then return null; end if`).
 */
export async function createTriggerFunction(db: MigrationDb, name: string, statements: string[], result = 'null'): Promise<void> {
  await sql
    .raw(`create function ${name}() returns trigger language plpgsql as $$
        begin
          ${statements.map((s) => `${s};`).join('\n')}
          return ${result};
        end $$`)
    .execute(db);
}

/** PostgreSQL statement-level triggers, each as [trigger, event, table, its transition tables, the function it runs]. */
export async function createStatementTriggers(
  db: MigrationDb,
  triggers: readonly (readonly [trigger: string, event: string, table: string, referencing: string, fn: string])[],
): Promise<void> {
  for (const [trigger, event, table, referencing, fn] of triggers)
    await sql
      .raw(`create trigger ${trigger} after ${event} on ${table} referencing ${referencing} for each statement execute function ${fn}()`)
      .execute(db);
}
