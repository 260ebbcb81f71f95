import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/** Entries read and rewritten per step: one page of the old table, kept in memory at a time. */
const ENTRIES_PER_PAGE = 5000;
/** Rows per insert: 9 parameters each, far below SQLite's 32 766 per statement. */
const ENTRIES_PER_STATEMENT = 200;

type Kind = 'customer' | 'item' | 'document';
// The scheme as db/queries/search.ts had it when this migration was written, copied so that the migration stays what
// it was whatever that file becomes: rowid = organisation << 40 | kind << 37 | record id; each word prefixed
// `o{organisation}{kind letter}`; tokens as unicode61 splits them (letters and digits).
const KIND_CODES: Record<Kind, bigint> = { customer: 0n, item: 1n, document: 2n };
const KIND_LETTERS: Record<Kind, string> = { customer: 'c', item: 'i', document: 'd' };
const rowidOf = (organizationId: number, kind: Kind, refId: number) =>
  (BigInt(organizationId) << 40n) | (KIND_CODES[kind] << 37n) | BigInt(refId);
const scopedWords = (organizationId: number, kind: Kind, text: string) =>
  (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).map((token) => `o${organizationId}${KIND_LETTERS[kind]}${token}`).join(' ');

/**
 * SQLite's full-text words become each organisation's own: a typed word's prefix term then expands into one
 * organisation's words of one kind, not into every organisation's (db/queries/search.ts says why). The texts shown
 * stay stored, unindexed, beside the scoped words. Not contentless, though that halves the table: SQLite 3.53's DROP of
 * a contentless_unindexed FTS5 table leaves its `_content` shadow table behind, which defensive mode then forbids
 * dropping, so no later migration (nor this one's down) could replace it. It is refilled from the texts the old table
 * showed; the rowids and the numbers' trigram index stay as they are. PostgreSQL's search
 * table has its own scheme (migration 0004): nothing of this is its.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) return;
  await sql`alter table search_index rename to search_index_shared_words`.execute(db);
  await sql`create virtual table search_index using fts5(
    organization_id unindexed, kind unindexed, ref_id unindexed, title unindexed, subtitle unindexed, body unindexed,
    heading, body_words, tokenize = "unicode61 remove_diacritics 2"
  )`.execute(db);
  let after = -1n;
  for (;;) {
    const { rows } = await sql<
      { organization_id: unknown; kind: Kind; ref_id: unknown } & Record<'title' | 'subtitle' | 'body', string | null>
    >`select organization_id, kind, ref_id, title, subtitle, body from search_index_shared_words
      where rowid > ${after} order by rowid limit ${ENTRIES_PER_PAGE}`.execute(db);
    if (rows.length === 0) break;
    const values = rows.map((r) => {
      const organizationId = Number(r.organization_id);
      const refId = Number(r.ref_id);
      const [title, subtitle, body] = [r.title ?? '', r.subtitle ?? '', r.body ?? ''];
      return [
        rowidOf(organizationId, r.kind, refId),
        organizationId,
        r.kind,
        refId,
        title,
        subtitle,
        body,
        scopedWords(organizationId, r.kind, `${title} ${subtitle}`),
        scopedWords(organizationId, r.kind, body),
      ] as const;
    });
    for (let i = 0; i < values.length; i += ENTRIES_PER_STATEMENT) {
      await sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body, heading, body_words)
        values ${sql.join(values.slice(i, i + ENTRIES_PER_STATEMENT).map((row) => sql`(${sql.join(row)})`))}`.execute(db);
    }
    // The last rowid from its record: a rowid read as a JS number loses bits past 2^53.
    after = (values.at(-1) as (typeof values)[number])[0];
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
