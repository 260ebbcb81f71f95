import { sql } from 'kysely';
import { createStatementTriggers, createTriggerFunction, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL's words of the search index per organisation and kind, what SQLite reads from FTS5's own vocabulary
 * (migration 0078): the searches spell a typed word's start out into the whole words it stands for
 * (db/queries/search-spelling.ts). A start is a partial match for GIN, which gathers every entry of every word it
 * starts before it can intersect them: 'client':* is two million entries at 1 000 000 documents (70 ms on each of the
 * list's statements). The same words whole are intersected by skipping through the frequent one (5 ms).
 *
 * A statement trigger on the index adds the words of the entries it writes, in the same transaction, in key order (two
 * writers adding the same new words wait for each other in the same order). A word no longer in any entry stays: it
 * spells out into a word that matches nothing, as harmless as it is rare. The terms compare byte by byte (collation
 * "C") so that the words a start stands for are one range of the key. Named under `search_index` so that copies from
 * SQLite skip it: they rewrite the index, which fills it. No foreign key, as the index has none.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table search_index_terms (
    organization_id bigint not null,
    kind text not null,
    term text collate "C" not null,
    primary key (organization_id, kind, term)
  )`.execute(db);
  await createTriggerFunction(db, 'search_index_terms_kept', [
    `insert into search_index_terms (organization_id, kind, term)
      select distinct n.organization_id, n.kind, w.term from new_rows n cross join lateral unnest(tsvector_to_array(n.words)) w(term)
      order by 1, 2, 3
      on conflict do nothing`,
  ]);
  await createStatementTriggers(db, [
    ['search_index_terms_insert', 'insert', 'search_index', 'new table as new_rows', 'search_index_terms_kept'],
    ['search_index_terms_update', 'update', 'search_index', 'new table as new_rows', 'search_index_terms_kept'],
  ]);
  await sql`insert into search_index_terms (organization_id, kind, term)
    select distinct s.organization_id, s.kind, w.term from search_index s cross join lateral unnest(tsvector_to_array(s.words)) w(term)
    on conflict do nothing`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger search_index_terms_insert on search_index`.execute(db);
  await sql`drop trigger search_index_terms_update on search_index`.execute(db);
  await sql`drop function search_index_terms_kept()`.execute(db);
  await sql`drop table search_index_terms`.execute(db);
}
