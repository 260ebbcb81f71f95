import type { CreateTableBuilder } from 'kysely';

/**
 * The one dialect-specific column of the schema. SQLite's INTEGER PRIMARY KEY AUTOINCREMENT never reuses an
 * id; the PostgreSQL backend will swap this for an identity column here and nowhere else.
 */
export function withId<T extends string>(table: CreateTableBuilder<T, never>) {
  return table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement().notNull());
}
