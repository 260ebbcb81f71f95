import type { CreateTableBuilder, Kysely } from 'kysely';

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
