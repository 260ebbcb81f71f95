import { sql } from 'kysely';
import type { Db } from '../connection';
import { isPostgres, searchTerms, toTsQuery } from '../dialect';

export type SearchKind = 'customer' | 'item' | 'document';

export interface SearchEntry {
  organizationId: number;
  kind: SearchKind;
  refId: number;
  title: string;
  subtitle: string;
  body: string;
}

// FTS5 is SQLite's, tsvector PostgreSQL's: these statements are the one place that knows either (see migration 0004).
// Each entry's rowid is derived from its record (ids are unique per table across organisations), so an update or a
// removal finds it by rowid instead of scanning the index's unindexed columns.
const KIND_CODES: Record<SearchKind, number> = { customer: 0, item: 1, document: 2 };
const rowidOf = (kind: SearchKind, refId: number) => refId * 8 + KIND_CODES[kind];

export async function upsertSearchEntry(db: Db, entry: SearchEntry): Promise<void> {
  const rowid = rowidOf(entry.kind, entry.refId);
  if (isPostgres(db)) {
    const heading = searchTerms(`${entry.title} ${entry.subtitle}`);
    const words = `${heading} ${searchTerms(entry.body)}`;
    await sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body, heading, words)
      values (${rowid}, ${entry.organizationId}, ${entry.kind}, ${entry.refId}, ${entry.title}, ${entry.subtitle}, ${entry.body},
        to_tsvector('simple', ${heading}), to_tsvector('simple', ${words}))
      on conflict (rowid) do update set organization_id = excluded.organization_id, title = excluded.title,
        subtitle = excluded.subtitle, body = excluded.body, heading = excluded.heading, words = excluded.words`.execute(db);
    return;
  }
  await sql`delete from search_index where rowid = ${rowid}`.execute(db);
  await sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body)
    values (${rowid}, ${entry.organizationId}, ${entry.kind}, ${entry.refId}, ${entry.title}, ${entry.subtitle}, ${entry.body})`.execute(
    db,
  );
}

export async function removeSearchEntry(db: Db, entry: { organizationId: number; kind: SearchKind; refId: number }): Promise<void> {
  await sql`delete from search_index where rowid = ${rowidOf(entry.kind, entry.refId)} and organization_id = ${entry.organizationId}`.execute(
    db,
  );
}

/** Each word typed becomes a quoted prefix term, so no user text is ever read as FTS syntax. */
export function toMatchQuery(text: string): string | null {
  const words = typedWords(text);
  return words.length ? words.map((w) => `"${w}"*`).join(' ') : null;
}

function typedWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}@.\-_]+/u)
    .map((w) => w.replace(/"/g, ''))
    .filter((w) => w.length > 0)
    .slice(0, 8);
}

/**
 * The ids of an organisation's documents whose number or customer matches the typed words (each a prefix, accents
 * folded), as a subquery for the documents list: the list searches the full-text index instead of reading every
 * row with `LIKE '%…%'`; read once, for the page and its count. The title holds the number, the subtitle the type and the customer (indexDocument). The
 * caller filters on the organisation (the documents' own column): read here, it would cost a row per match.
 */
export async function documentIdsMatching(db: Db, text: string): Promise<number[] | null> {
  if (isPostgres(db)) {
    const query = toTsQuery(typedWords(text));
    if (!query) return null;
    const { rows } = await sql<{ id: number }>`select ref_id as id from search_index
      where heading @@ to_tsquery('simple', ${query}) and kind = 'document'`.execute(db);
    return rows.map((r) => Number(r.id));
  }
  const match = toMatchQuery(text);
  if (!match) return null;
  const code = KIND_CODES.document;
  const { rows } = await sql<{ id: number }>`select (rowid - ${sql.lit(code)}) / 8 as id from search_index
    where search_index match ${`{title subtitle} : (${match})`} and rowid % 8 = ${sql.lit(code)}`.execute(db);
  return rows.map((r) => r.id);
}

export async function searchEntries(db: Db, params: { organizationId: number; text: string; limit: number }) {
  const rows = await matchingEntries(db, params);
  if (!rows) return [];
  // A document's link depends on its type, which the index does not hold: read it for the documents found.
  const documentIds = rows.filter((r) => r.kind === 'document').map((r) => Number(r.ref_id));
  const types = new Map<number, string>();
  if (documentIds.length > 0) {
    const found = await db
      .selectFrom('documents')
      .select(['id', 'type'])
      .where('organization_id', '=', params.organizationId)
      .where('id', 'in', documentIds)
      .execute();
    for (const d of found) types.set(d.id, d.type);
  }
  return rows.map((r) => ({
    kind: r.kind,
    id: Number(r.ref_id),
    title: r.title,
    subtitle: r.subtitle,
    document_type: types.get(Number(r.ref_id)) ?? null,
  }));
}

async function matchingEntries(db: Db, params: { organizationId: number; text: string; limit: number }) {
  type Row = { kind: SearchKind; ref_id: number; title: string; subtitle: string };
  if (isPostgres(db)) {
    const query = toTsQuery(typedWords(params.text));
    if (!query) return null;
    const { rows } = await sql<Row>`select kind, ref_id, title, subtitle from search_index, to_tsquery('simple', ${query}) q
      where words @@ q and organization_id = ${params.organizationId}
      order by ts_rank(words, q) desc, rowid limit ${params.limit}`.execute(db);
    return rows;
  }
  const match = toMatchQuery(params.text);
  if (!match) return null;
  const { rows } = await sql<Row>`
    select kind, ref_id, title, subtitle from search_index
    where search_index match ${match} and organization_id = ${params.organizationId}
    order by rank limit ${params.limit}`.execute(db);
  return rows;
}
