import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * Search at 100 000 documents. FTS5 is SQLite's, so this whole migration is the one SQLite-specific step
 * of the schema (the PostgreSQL backend keeps its tsvector columns and finds a part of a number with ILIKE: it skips this step):
 * - the full-text index filtered on the organisation only after matching and ranking every organisation's entries
 *   (`organization_id` is an unindexed column). Its rowid now starts with the organisation, then the kind, then the
 *   record (db/queries/search.ts, `searchRowid`), so that a `rowid BETWEEN` range makes FTS5 read one organisation's
 *   entries, or one kind of them, before anything else;
 * - `document_numbers`, a trigram index of the document numbers, finds a number from any part of it ('1552' finds
 *   'FAC-2026-01552'; the words index only knows word starts).
 * The rowids are rewritten in SQL with 64-bit integers (the same layout as searchRowid), then the index is merged
 * into one segment: it was written one entry at a time.
 */
export async function up(db: MigrationDb): Promise<void> {
  // PostgreSQL's search table keeps its own scheme (migration 0004, db/queries/search.ts): nothing of this is its.
  if (isPostgres(db)) return;
  await sql`create virtual table search_entries using fts5(
    organization_id unindexed, kind unindexed, ref_id unindexed, title, subtitle, body,
    tokenize = "unicode61 remove_diacritics 2"
  )`.execute(db);
  await sql`insert into search_entries (rowid, organization_id, kind, ref_id, title, subtitle, body)
    select cast(organization_id as integer) * 1099511627776
        + (case kind when 'customer' then 0 when 'item' then 1 else 2 end) * 137438953472
        + cast(ref_id as integer),
      cast(organization_id as integer), kind, cast(ref_id as integer), title, subtitle, body
    from search_index`.execute(db);
  await sql`drop table search_index`.execute(db);
  await sql`alter table search_entries rename to search_index`.execute(db);
  await sql`insert into search_index (search_index) values ('optimize')`.execute(db);

  await sql`create virtual table document_numbers using fts5(number, tokenize = "trigram")`.execute(db);
  await sql`insert into document_numbers (rowid, number)
    select organization_id * 1099511627776 + 2 * 137438953472 + id, number from documents where number is not null`.execute(db);
  await sql`insert into document_numbers (document_numbers) values ('optimize')`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`drop table document_numbers`.execute(db);
  await sql`create virtual table search_entries using fts5(
    organization_id unindexed, kind unindexed, ref_id unindexed, title, subtitle, body,
    tokenize = "unicode61 remove_diacritics 2"
  )`.execute(db);
  await sql`insert into search_entries (rowid, organization_id, kind, ref_id, title, subtitle, body)
    select ref_id * 8 + (case kind when 'customer' then 0 when 'item' then 1 else 2 end), organization_id, kind, ref_id, title, subtitle, body
    from search_index`.execute(db);
  await sql`drop table search_index`.execute(db);
  await sql`alter table search_entries rename to search_index`.execute(db);
}
