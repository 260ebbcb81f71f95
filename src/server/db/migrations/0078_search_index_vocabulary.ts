import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * The words of SQLite's full-text index, per column, with how many entries hold each (FTS5's own `fts5vocab` view of
 * the index: no rows of its own, nothing to keep up to date). The documents list spells a typed word's start out into
 * the whole words it stands for: FTS5 then checks a document by its rowid without re-reading every word the prefix
 * starts, and a word's entry count is the number of documents it matches. Named under `search_index` so that copies
 * to PostgreSQL skip it with the index. PostgreSQL's search has its own scheme (migration 0004).
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create virtual table search_index_vocabulary using fts5vocab(search_index, col)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`drop table search_index_vocabulary`.execute(db);
}
