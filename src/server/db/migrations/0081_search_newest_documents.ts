import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * PostgreSQL's global search lists an organisation's newest matching documents (db/queries/search.ts). A common word
 * read every match of every organisation through the full-text index, then sorted them: 0.6 s at 1 000 000 documents,
 * more for two words. Its entries newest first within the organisation and kind are this index's order, so the
 * search walks them and stops at the page, each row checked; a rare word still goes through the full-text index, the
 * planner choosing by the matches it expects. The order is `-rowid`, not `rowid desc`: the primary key also gives the
 * latter, and the planner, which cannot know that another organisation's documents fill the newest rowids, walked it
 * (2.5 s). It replaces the index on (organization_id, kind), its first two columns. SQLite's entries are already
 * ordered this way (its rowids start with the organisation and kind).
 */
export async function up(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index search_index_newest on search_index (organization_id, kind, (-rowid))`.execute(db);
  await sql`drop index search_index_organization`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index search_index_organization on search_index (organization_id, kind)`.execute(db);
  await sql`drop index search_index_newest`.execute(db);
}
