import { sql } from 'kysely';
import { analyzeIfAnalysed, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/** The list's orders that had no index of their own, each ending with the list's tie-breaks (date, id). */
const SORT_INDEXES = [
  ['documents_org_counter_idx', 'counter'],
  ['documents_org_customer_name_idx', 'customer_name'],
  ['documents_org_maturity_idx', 'maturity'],
] as const;

/**
 * The documents list sorted by number (the counter), customer or due date read and sorted every document of the
 * organisation for a page (0.2–0.5 s at 1 000 000 documents), and a common word searched in those orders copied every
 * match into a temporary index (0.4–0.9 s). With an index per order, a page is the first entries of its range, and a
 * common word's page is walked in that range with each row checked through the full-text index (db/queries/
 * document-matches.ts), as the date order already was.
 *
 * SQLite's full-text entry of each document also gets its type as a word of the body, `o{organisation}t{type}` (as
 * db/queries/search.ts writes it from now on, copied here so that this migration stays what it is): no typed word
 * reaches it, and a common word among one type is counted by the index alone (0.25 s → 30 ms at 1 000 000).
 */
export async function up(db: MigrationDb): Promise<void> {
  for (const [name, column] of SORT_INDEXES)
    await db.schema.createIndex(name).on('documents').columns(['organization_id', column, 'date', 'id']).execute();
  await analyzeIfAnalysed(
    db,
    SORT_INDEXES.map(([name]) => name),
  );
  if (isPostgres(db)) return;
  // Some writers stored the unindexed organisation as a real (1.0): cast, or the word would read 'o1.0t…'.
  await sql`update search_index
    set body_words = coalesce(body_words, '') || ' o' || cast(organization_id as integer) || 't' || (select type from documents where documents.id = search_index.ref_id)
    where kind = 'document' and ref_id in (select id from documents)`.execute(db);
  // Every document's entry rewritten: merged into one segment again, as migration 0076 left it.
  await sql`insert into search_index (search_index) values ('optimize')`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  for (const [name] of SORT_INDEXES) await db.schema.dropIndex(name).execute();
  if (isPostgres(db)) return;
  // The type's word is the body's last: what comes before it is the body as it was.
  await sql`update search_index set body_words = rtrim(substr(body_words, 1, length(body_words) - length(' o' || cast(organization_id as integer) || 't' || (select type from documents where documents.id = search_index.ref_id))))
    where kind = 'document' and ref_id in (select id from documents)`.execute(db);
}
