import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';
import { createSqliteSearchTable, type SearchEntry, type SearchKind, searchRowid, writeSearchEntries } from '../queries/search';

/** Entries read and rewritten per step: one page of the old table, kept in memory at a time. */
const ENTRIES_PER_PAGE = 5000;

/**
 * SQLite's full-text words become each organisation's own (db/queries/search.ts says how): a typed word's prefix
 * term then expands into one organisation's words of one kind, not into every organisation's. The index is rebuilt
 * from the texts it shows (title, subtitle, body), which it keeps, by the writer the app indexes with; the rowids and
 * the numbers' trigram index stay as they are. PostgreSQL's search table has its own scheme (migration 0004): nothing
 * of this is its.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`alter table search_index rename to search_index_shared_words`.execute(db);
  await createSqliteSearchTable(db);
  let after = -1n;
  for (;;) {
    const { rows } = await sql<
      { organization_id: unknown; kind: SearchKind; ref_id: unknown } & Record<'title' | 'subtitle' | 'body', string | null>
    >`select organization_id, kind, ref_id, title, subtitle, body from search_index_shared_words
      where rowid > ${after} order by rowid limit ${ENTRIES_PER_PAGE}`.execute(db);
    if (rows.length === 0) break;
    const entries: SearchEntry[] = rows.map((r) => ({
      organizationId: Number(r.organization_id),
      kind: r.kind,
      refId: Number(r.ref_id),
      title: r.title ?? '',
      subtitle: r.subtitle ?? '',
      body: r.body ?? '',
    }));
    await writeSearchEntries(db, entries);
    // The rowid of the last entry, from its record: a rowid read as a JS number loses bits past 2^53.
    const last = entries[entries.length - 1] as SearchEntry;
    after = searchRowid(last.organizationId, last.kind, last.refId);
  }
  await sql`drop table search_index_shared_words`.execute(db);
  // Written a chunk at a time: merged into one segment, as 0040 left it.
  await sql`insert into search_index (search_index) values ('optimize')`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create virtual table search_entries using fts5(
    organization_id unindexed, kind unindexed, ref_id unindexed, title, subtitle, body,
    tokenize = "unicode61 remove_diacritics 2"
  )`.execute(db);
  await sql`insert into search_entries (rowid, organization_id, kind, ref_id, title, subtitle, body)
    select rowid, organization_id, kind, ref_id, title, subtitle, body from search_index`.execute(db);
  await sql`drop table search_index`.execute(db);
  await sql`alter table search_entries rename to search_index`.execute(db);
}
