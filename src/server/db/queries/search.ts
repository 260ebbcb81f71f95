import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../connection';
import { type AnyDb, searchWords as foldedWords, isPostgres, searchTerms, toTsQuery } from '../dialect';
import { indexedWords, organizationWords, spelledQuery, spelledTsQuery, spelledWords, spellsNothing, typedPhrase } from './search-spelling';
import { parseAmount, toStoredUnits } from '../../../shared/money';

export type SearchKind = 'customer' | 'item' | 'document';

export interface SearchEntry {
  organizationId: number;
  kind: SearchKind;
  refId: number;
  title: string;
  subtitle: string;
  body: string;
  /**
   * A document's number, found from any part of it (SQLite's document_numbers, PostgreSQL's number_parts). Left out
   * (undefined), SQLite's numbers index keeps what it holds for the entry: a rewrite of the words only.
   */
  number?: string | null;
  /**
   * A document's type (SQLite), indexed with the body's words as `o{organisation}t{type}`: no typed word reaches it (a
   * typed word is scoped by its kind's letter, and `t` is none), and the documents list counts a search among one
   * type by the index alone (typeWordOf).
   */
  type?: string;
}

// FTS5 is SQLite's, tsvector PostgreSQL's: these statements are the one place that knows either (see migrations 0004,
// 0040 and 0076; PostgreSQL's own scheme is at the end of this file).
// Each entry's rowid is derived from its record: the organisation in the high bits, then the kind, then the record's
// id (ids are unique per table across organisations). An update or a removal finds its entry by rowid.
// Every indexed word carries its organisation and kind: `Client` of organisation 12's customer is indexed as
// `o12cclient`. A typed word's prefix term (`"o12cclient"*`) then only ever expands into one organisation's entries of
// one kind: FTS5 merges the lists of every word a prefix starts before any rowid range applies, and with bare words a
// common one ('client'*) read every organisation's matches (80 ms at 2 000 000 documents, 20 ms scoped). The
// organisation's digits end at the kind's letter, so `o1c` never starts organisation 12's words. The texts shown
// (title, subtitle, body) are kept unindexed beside them. The queries keep their `rowid BETWEEN` range too, which
// bounds FTS5's walk to the organisation's entries of the kinds asked.
const KIND_CODES: Record<SearchKind, bigint> = { customer: 0n, item: 1n, document: 2n };
const KIND_LETTERS: Record<SearchKind, string> = { customer: 'c', item: 'i', document: 'd' };
const ORGANIZATION_SHIFT = 40n; // ids below 2^37 (137 billion), organisations below 2^23
const KIND_SHIFT = 37n;

/** As a BigInt: better-sqlite3 binds it as a 64-bit integer (a JS number would be bound as a double). */
export function searchRowid(organizationId: number, kind: SearchKind, refId: number): bigint {
  return (BigInt(organizationId) << ORGANIZATION_SHIFT) | (KIND_CODES[kind] << KIND_SHIFT) | BigInt(refId);
}

/** The rowids of an organisation's entries of the kinds `first` to `last` (their codes are consecutive). */
export function rowidRange(organizationId: number, first: SearchKind, last: SearchKind = first): [bigint, bigint] {
  const org = BigInt(organizationId) << ORGANIZATION_SHIFT;
  return [org | (KIND_CODES[first] << KIND_SHIFT), (org | ((KIND_CODES[last] + 1n) << KIND_SHIFT)) - 1n];
}
const REF_ID_MASK = sql.lit(2 ** 37);

/**
 * A text's tokens as FTS5's unicode61 tokenizer splits it: runs of letters and digits (unicode61 also keeps a few
 * rarer characters inside tokens; splitting on them here too is harmless, as both the index and the queries split
 * this way). unicode61 folds case and diacritics itself, on the indexed words and on the typed ones alike.
 */
export function tokensOf(text: string): string[] {
  return text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
}

export const scopeOf = (organizationId: number, kind: SearchKind) => `o${organizationId}${KIND_LETTERS[kind]}`;

/** The indexed word of a document's type (SearchEntry.type; migration 0079 wrote it for the documents before it). */
export const typeWordOf = (organizationId: number, type: string) => `o${organizationId}t${type}`;

/** The indexed form of a text: each of its tokens prefixed with the organisation and the kind of its entry. */
function scopedTerms(organizationId: number, kind: SearchKind, text: string): string {
  const scope = scopeOf(organizationId, kind);
  return tokensOf(text)
    .map((token) => scope + token)
    .join(' ');
}

/**
 * The SQLite statement writing one entry, and its values, for writers that bypass Kysely (the scale bench's bulk
 * seed): the display texts, then the scoped words of the title and subtitle (`heading`) and of the body.
 */
export const SQLITE_SEARCH_INSERT =
  'insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body, heading, body_words) values (?, ?, ?, ?, ?, ?, ?, ?, ?)';

export function sqliteSearchValues(entry: SearchEntry) {
  return [
    searchRowid(entry.organizationId, entry.kind, entry.refId),
    entry.organizationId,
    entry.kind,
    entry.refId,
    entry.title,
    entry.subtitle,
    entry.body,
    scopedTerms(entry.organizationId, entry.kind, `${entry.title} ${entry.subtitle}`),
    [scopedTerms(entry.organizationId, entry.kind, entry.body), ...(entry.type ? [typeWordOf(entry.organizationId, entry.type)] : [])].join(
      ' ',
    ),
  ] as const;
}

export async function upsertSearchEntry(db: Db, entry: SearchEntry): Promise<void> {
  await writeSearchEntries(db, [entry]);
}

export async function removeSearchEntry(db: Db, entry: { organizationId: number; kind: SearchKind; refId: number }): Promise<void> {
  if (isPostgres(db)) {
    await sql`delete from search_index where rowid = ${postgresRowid(entry.kind, entry.refId)} and organization_id = ${entry.organizationId}`.execute(
      db,
    );
    return;
  }
  const rowid = searchRowid(entry.organizationId, entry.kind, entry.refId);
  await sql`delete from search_index where rowid = ${rowid}`.execute(db);
  if (entry.kind === 'document') await sql`delete from document_numbers where rowid = ${rowid}`.execute(db);
}

/** Rows per SQLite statement: 9 parameters each, far below SQLite's 32 766 per statement. */
const SQLITE_ENTRIES_PER_STATEMENT = 200;

/**
 * Many entries at once (`npm run db:copy`): on PostgreSQL multi-row upserts, on SQLite multi-row
 * deletes and inserts, a chunk per statement, in the caller's transaction. The last entry of a record wins.
 */
export async function writeSearchEntries(db: AnyDb, entries: readonly SearchEntry[]): Promise<void> {
  if (isPostgres(db)) return writePostgresEntries(db, entries);
  const byRowid = [...new Map(entries.map((e) => [searchRowid(e.organizationId, e.kind, e.refId), e])).values()];
  for (let i = 0; i < byRowid.length; i += SQLITE_ENTRIES_PER_STATEMENT) {
    const chunk = byRowid.slice(i, i + SQLITE_ENTRIES_PER_STATEMENT);
    const rows = chunk.map(sqliteSearchValues);
    await sql`delete from search_index where rowid in (${sql.join(rows.map((r) => r[0]))})`.execute(db);
    await sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body, heading, body_words)
      values ${sql.join(rows.map((r) => sql`(${sql.join(r)})`))}`.execute(db);
    const numbered = chunk.filter((e) => e.kind === 'document' && e.number !== undefined);
    if (numbered.length === 0) continue;
    const rowids = numbered.map((e) => searchRowid(e.organizationId, e.kind, e.refId));
    await sql`delete from document_numbers where rowid in (${sql.join(rowids)})`.execute(db);
    const withNumber = numbered.filter((e) => e.number);
    if (withNumber.length > 0)
      await sql`insert into document_numbers (rowid, number)
        values ${sql.join(withNumber.map((e) => sql`(${searchRowid(e.organizationId, e.kind, e.refId)}, ${e.number})`))}`.execute(db);
  }
}

/** The words typed, as the search boxes split them: a word may hold several tokens ('jean-paul', an e-mail). */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}@.\-_]+/u)
    .map((w) => w.replace(/"/g, ''))
    .filter((w) => w.length > 0)
    .slice(0, 8);
}

/** The typed words that hold a token, each its tokens as typed (FTS5 folds them itself). */
export const typedTokens = (text: string): string[][] =>
  searchWords(text)
    .map(tokensOf)
    .filter((tokens) => tokens.length > 0);

/** The typed words that hold a token, each its tokens folded as PostgreSQL's entries hold them (db/dialect.ts searchWords). */
const foldedTypedTokens = (text: string): string[][] =>
  searchWords(text)
    .map(foldedWords)
    .filter((tokens) => tokens.length > 0);

/**
 * The FTS5 query for the typed words among an organisation's entries of one kind, or null when no word holds a token:
 * each typed word its phrase (search-spelling.ts typedPhrase: "boul mar" finds "Boulangerie Martin"), every word
 * required.
 */
export function toMatchQuery(organizationId: number, kind: SearchKind, text: string): string | null {
  const scope = scopeOf(organizationId, kind);
  const phrases = typedTokens(text).map((tokens) => typedPhrase(scope, tokens));
  return phrases.length ? phrases.join(' ') : null;
}

/** The whole text as one trigram phrase (a part of a number), or null under three characters (a trigram's size). */
export function toNumberQuery(text: string): string | null {
  const part = text.normalize('NFKC').trim();
  return [...part].length >= 3 ? `"${part.replace(/"/g, '""')}"` : null;
}

/**
 * The statement listing (as `id`) an organisation's documents whose number contains the text or whose number or
 * customer matches the typed words (accents folded), or null when no word is typed: the documents list filters with it
 * inside its own statement, so the database reads the matches and pages them, and no list of every match crosses into
 * the process (a common word matches every document). The heading holds the number, the type and the customer
 * (indexDocument). A document found both ways is listed twice (UNION ALL: a UNION sorted every match to remove them,
 * 150 ms at 1 000 000): the list only asks whether an id is among them. `spelled`, when given, is the typed words
 * with their starts spelled out as whole words (an FTS5 query on SQLite, document-matches.ts; a tsquery on PostgreSQL,
 * postgresSpelledQuery; null: no indexed word starts so); `ids` (SQLite), when given, bounds the documents to those
 * whose id is between both, inclusive; `type` (SQLite), when given, keeps to that type the documents found by their
 * words (through the type's word, typeWordOf), not those found by their number: a list filtered by type filters those
 * itself.
 */
export function documentIdsLookup(
  db: Db,
  organizationId: number,
  text: string,
  options: { spelled?: string | null; ids?: [number, number]; type?: string } = {},
): RawBuilder<{ id: number }> | null {
  const { spelled, ids, type } = options;
  if (isPostgres(db)) return postgresDocumentIdsLookup(organizationId, text, spelled);
  if (searchWords(text).length === 0) return null;
  const words = spelled === undefined ? toMatchQuery(organizationId, 'document', text) : spelled;
  const typed = type ? ` AND {body_words} : ${typeWordOf(organizationId, type)}` : '';
  const [first, last] = ids
    ? [searchRowid(organizationId, 'document', ids[0]), searchRowid(organizationId, 'document', ids[1])]
    : rowidRange(organizationId, 'document');
  const number = toNumberQuery(text);
  const byWords = words
    ? sql`select rowid % ${REF_ID_MASK} as id from search_index
      where search_index match ${`{heading} : (${words})${typed}`} and rowid between ${first} and ${last}`
    : null;
  const byNumber = number
    ? sql`select rowid % ${REF_ID_MASK} as id from document_numbers where document_numbers match ${number} and rowid between ${first} and ${last}`
    : null;
  if (byWords && byNumber) return sql<{ id: number }>`${byWords} union all ${byNumber}`;
  return sql<{ id: number }>`${byWords ?? byNumber ?? sql`select null as id where 0`}`;
}

/** Every id documentIdsLookup selects, read into the process: for a few matches (and for tests and copies). */
export async function documentIdsMatching(db: Db, organizationId: number, text: string): Promise<number[] | null> {
  const lookup = documentIdsLookup(db, organizationId, text);
  if (!lookup) return null;
  const { rows } = await lookup.execute(db);
  return [...new Set(rows.map((r) => Number(r.id)))].sort((a, b) => a - b);
}

/**
 * An amount typed in a search box ('1 234,50', '1552', '12,5 €') in stored units, or null when the text is not one:
 * the documents list and the global search both find a document by its total TTC this way.
 */
export function searchedAmount(search: string): number | null {
  const amount = parseAmount(search.replace(/€/g, ''));
  return amount !== undefined && Number.isFinite(amount) && Math.abs(amount) < 1e12 ? toStoredUnits(amount) : null;
}

/** The newest of an organisation's documents whose total TTC is the amount typed, through (organization_id, total). */
async function documentIdsOfAmount(db: Db, organizationId: number, text: string, limit: number): Promise<number[]> {
  const amount = searchedAmount(text);
  if (amount === null) return [];
  const rows = await db
    .selectFrom('documents')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('total', '=', amount)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.id));
}

/**
 * The global search, by kind as the search dialog shows them: customers then items, by name, and the latest
 * documents whose number or customer matches (FTS5 walks the rowids backwards and stops at the limit, the typed
 * starts spelled out as whole words where it can). No bm25 rank: it weighs each word by its frequency in the whole
 * index, every organisation's entries, read on each search (120 ms for 'Client 12' at 200 000 entries, `npm run bench
 * -- scale`). Documents keep at least half of the places when they match.
 */
export async function searchEntries(db: Db, params: { organizationId: number; text: string; limit: number }) {
  if (isPostgres(db)) return postgresSearchEntries(db, params);
  if (searchWords(params.text).length === 0) return [];
  const customers = toMatchQuery(params.organizationId, 'customer', params.text);
  const items = toMatchQuery(params.organizationId, 'item', params.text);
  const [firstRecord, lastRecord] = rowidRange(params.organizationId, 'customer', 'item');
  const records = customers
    ? await sql<{ kind: SearchKind; ref_id: number; title: string; subtitle: string }>`
      select kind, ref_id, title, subtitle from search_index
      where search_index match ${`(${customers}) OR (${items})`} and rowid between ${firstRecord} and ${lastRecord}
      order by kind, title limit ${params.limit}`.execute(db)
    : { rows: [] };
  const [first, last] = rowidRange(params.organizationId, 'document');
  const documents = await documentsQuery(db, params.organizationId, params.text);
  const number = toNumberQuery(params.text);
  const found = documents
    ? await sql<{ id: number }>`select rowid % ${REF_ID_MASK} as id from search_index
      where search_index match ${documents} and rowid between ${first} and ${last} order by rowid desc limit ${params.limit}`.execute(db)
    : { rows: [] };
  const byNumber = number
    ? await sql<{ id: number }>`select rowid % ${REF_ID_MASK} as id from document_numbers
      where document_numbers match ${number} and rowid between ${first} and ${last} order by rowid desc limit ${params.limit}`.execute(db)
    : { rows: [] };
  const byAmount = await documentIdsOfAmount(db, params.organizationId, params.text, params.limit);
  const documentIds = [...new Set([...found.rows.map((r) => Number(r.id)), ...byNumber.rows.map((r) => Number(r.id)), ...byAmount])]
    .sort((a, b) => b - a)
    .slice(0, params.limit);
  const documentPlaces = Math.min(documentIds.length, Math.max(params.limit - records.rows.length, Math.floor(params.limit / 2)));
  const shown = documentIds.slice(0, documentPlaces).map((id) => searchRowid(params.organizationId, 'document', id));
  const titles =
    shown.length > 0
      ? await sql<{ id: number; title: string; subtitle: string }>`select rowid % ${REF_ID_MASK} as id, title, subtitle from search_index
        where rowid in (${sql.join(shown)}) order by rowid desc`.execute(db)
      : { rows: [] };
  const types = await documentTypes(
    db,
    params.organizationId,
    titles.rows.map((r) => Number(r.id)),
  );
  return searchResults(records.rows, titles.rows, types, params.limit);
}

/**
 * The global search's FTS5 query of the documents: the typed words with their starts spelled out where the index can
 * (a common word's start then reads only the newest entries, search-spelling.ts); null when nothing can match.
 */
async function documentsQuery(db: Db, organizationId: number, text: string): Promise<string | null> {
  const typed = typedTokens(text);
  if (typed.length === 0) return null;
  const spelled = await spelledWords(typed, scopeOf(organizationId, 'document'), indexedWords(db, null));
  return spellsNothing(spelled) ? null : spelledQuery(spelled);
}

/** A document's link depends on its type, which the index does not hold: read for the documents shown, on both databases. */
async function documentTypes(db: Db, organizationId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const typed = await db
    .selectFrom('documents')
    .select(['id', 'type'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Map(typed.map((d) => [Number(d.id), d.type]));
}

/** The answer of either database's search: the records in the places the documents leave, then the documents. */
function searchResults(
  records: { kind: SearchKind; ref_id: number; title: string; subtitle: string }[],
  documents: { id: number; title: string; subtitle: string }[],
  types: Map<number, string>,
  limit: number,
) {
  return [
    ...records.slice(0, limit - documents.length).map((r) => ({
      kind: r.kind,
      id: Number(r.ref_id),
      title: r.title,
      subtitle: r.subtitle,
      document_type: null,
    })),
    ...documents.map((r) => ({
      kind: 'document' as const,
      id: Number(r.id),
      title: r.title,
      subtitle: r.subtitle,
      document_type: types.get(Number(r.id)) ?? null,
    })),
  ];
}

// PostgreSQL: a plain table (migration 0004) with two tsvector columns written from the words folded by
// db/dialect.ts searchWords: `heading` (title and subtitle) and `words` (all three), GIN-indexed. Its rowid stays
// refId * 8 + kind code (migration 0040 is FTS5's and skipped there); the organisation is a real column, filtered in
// the same statement. A number is found from any part of it through `number_parts`, its suffixes (migration 0042).
const POSTGRES_KIND_CODES: Record<SearchKind, number> = { customer: 0, item: 1, document: 2 };
const postgresRowid = (kind: SearchKind, refId: number) => refId * 8 + POSTGRES_KIND_CODES[kind];

/** Rows per statement: 10 parameters each, far below PostgreSQL's 65 535 per statement. */
const POSTGRES_ENTRIES_PER_STATEMENT = 1000;

async function writePostgresEntries(db: AnyDb, entries: readonly SearchEntry[]): Promise<void> {
  // One statement may not touch a row twice (ON CONFLICT): the last entry of a record wins, as in a loop of upserts.
  const byRowid = new Map(entries.map((e) => [postgresRowid(e.kind, e.refId), e]));
  const rows = [...byRowid].map(([rowid, e]) => {
    const heading = searchTerms(`${e.title} ${e.subtitle}`);
    const words = `${heading} ${searchTerms(e.body)}`;
    const parts = e.kind === 'document' ? numberSuffixes(e.number) : [];
    return sql`(${rowid}, ${e.organizationId}, ${e.kind}, ${e.refId}, ${e.title}, ${e.subtitle}, ${e.body},
      to_tsvector('simple', ${heading}), to_tsvector('simple', ${words}), array_to_tsvector(cast(${parts} as text[])))`;
  });
  for (let i = 0; i < rows.length; i += POSTGRES_ENTRIES_PER_STATEMENT) {
    await sql`insert into search_index (rowid, organization_id, kind, ref_id, title, subtitle, body, heading, words, number_parts)
      values ${sql.join(rows.slice(i, i + POSTGRES_ENTRIES_PER_STATEMENT))}
      on conflict (rowid) do update set organization_id = excluded.organization_id, title = excluded.title,
        subtitle = excluded.subtitle, body = excluded.body, heading = excluded.heading, words = excluded.words,
        number_parts = excluded.number_parts`.execute(db);
  }
}

/**
 * The lexemes PostgreSQL finds a document's number by (migration 0042): its suffixes of three characters or more,
 * lower case, as FTS5's trigram index folds case on SQLite. Any part of the number someone types (three characters
 * at least, toNumberQuery's rule) is the start of one of them.
 */
export function numberSuffixes(number: string | null | undefined): string[] {
  const characters = [...(number ?? '').normalize('NFKC').toLowerCase()];
  const suffixes: string[] = [];
  for (let start = 0; start + 3 <= characters.length; start++) suffixes.push(characters.slice(start).join(''));
  return suffixes;
}

/**
 * The whole text as a prefix query on the numbers' suffixes (a part of a number: `'1552':*`), or null under three
 * characters. The lexeme is quoted, so no user text is read as tsquery syntax.
 */
function toNumberTsQuery(text: string): string | null {
  const part = text.normalize('NFKC').trim().toLowerCase();
  return [...part].length >= 3 ? `'${part.replace(/\\/g, '\\\\').replace(/'/g, "''")}':*` : null;
}

/**
 * The typed words as PostgreSQL reads them (db/dialect.ts toTsQuery), each word's last token spelled out into the whole
 * words of the organisation's entries of these kinds it starts (search-spelling.ts); null when no indexed word starts
 * as typed (nothing matches by the words), undefined when nothing is typed.
 */
export async function postgresSpelledQuery(
  db: Db,
  organizationId: number,
  kinds: SearchKind[],
  text: string,
): Promise<string | null | undefined> {
  const typed = foldedTypedTokens(text);
  if (typed.length === 0) return undefined;
  const spelled = await spelledWords(typed, '', organizationWords(db, organizationId, kinds));
  return spellsNothing(spelled) ? null : spelledTsQuery(spelled);
}

/**
 * An entry's words or number match the text: every typed word a prefix of the number's or customer's words, or a part
 * of the number. `spelled`, when given, is the words' tsquery with their starts spelled out (search-spelling.ts; null:
 * no indexed word starts as typed).
 */
function postgresDocumentCondition(text: string, spelled?: string | null): RawBuilder<SqlBool> {
  const query = spelled === undefined ? toTsQuery(searchWords(text)) : spelled;
  const number = toNumberTsQuery(text);
  return sql<SqlBool>`(${query ? sql`heading @@ to_tsquery('simple', ${query})` : sql`false`}
    or ${number ? sql`number_parts @@ cast(${number} as tsquery)` : sql`false`})`;
}

/** SQLite's documentIdsLookup on PostgreSQL. */
function postgresDocumentIdsLookup(organizationId: number, text: string, spelled?: string | null): RawBuilder<{ id: number }> | null {
  if (searchWords(text).length === 0) return null;
  return sql<{ id: number }>`select ref_id as id from search_index
    where organization_id = ${organizationId} and kind = 'document' and ${postgresDocumentCondition(text, spelled)}`;
}

/**
 * Whether the document of this id matches on PostgreSQL, read from its entry by primary key (rowid = id * 8 + 2): with
 * a common word the planner walks the list's index and reads an entry per row up to the page (0.2 ms at 100 000
 * documents) instead of hashing every match (110 ms). `offset 0` keeps the check a check per row: left to the planner,
 * the `exists` may become a join, and on statistics taken before a bulk import it then joins every match with every
 * document through `id * 8 + 2`, which no index of the documents serves (1.3 s for 1 200 documents, growing as their
 * square).
 */
export function postgresDocumentMatch(
  organizationId: number,
  text: string,
  id: RawBuilder<unknown>,
  spelled?: string | null,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from search_index entry
    where entry.rowid = ${id} * 8 + ${POSTGRES_KIND_CODES.document} and entry.organization_id = ${organizationId}
      and ${postgresDocumentCondition(text, spelled)} offset 0)`;
}

/**
 * SQLite's searchEntries on PostgreSQL: customers then items by name, then the newest matching documents (at least
 * half the places), in the order of the index search_index_newest (migration 0081 says why `-rowid`). The typed starts
 * are spelled out as whole words of the organisation's entries (search-spelling.ts). The customers and items are
 * checked one by one (`ts_match_vq`, the operator's function, which no index serves): an organisation has few of them
 * next to its documents, whose entries fill the full-text index (a typed '12' starts every December's date there:
 * 230 000 entries gathered for 111 customers, 120 ms at 1 000 000 documents).
 */
async function postgresSearchEntries(db: Db, params: { organizationId: number; text: string; limit: number }) {
  if (searchWords(params.text).length === 0) return [];
  const [recordsQuery, query] = await Promise.all([
    postgresSpelledQuery(db, params.organizationId, ['customer', 'item'], params.text),
    postgresSpelledQuery(db, params.organizationId, ['document'], params.text),
  ]);
  const number = toNumberTsQuery(params.text);
  const records = recordsQuery
    ? (
        await sql<{ kind: SearchKind; ref_id: number; title: string; subtitle: string }>`
          select kind, ref_id, title, subtitle from search_index
          where organization_id = ${params.organizationId} and kind in ('customer', 'item')
            and ts_match_vq(words, to_tsquery('simple', ${recordsQuery}))
          order by kind, title collate "C" limit ${params.limit}`.execute(db)
      ).rows
    : [];
  const byAmount = await documentIdsOfAmount(db, params.organizationId, params.text, params.limit);
  const documents =
    query || number || byAmount.length > 0
      ? (
          await sql<{ id: number; title: string; subtitle: string }>`
            select ref_id as id, title, subtitle from search_index
            where organization_id = ${params.organizationId} and kind = 'document'
              and (${query ? sql`words @@ to_tsquery('simple', ${query})` : sql`false`}
                or ${number ? sql`number_parts @@ cast(${number} as tsquery)` : sql`false`}
                or ${byAmount.length > 0 ? sql`ref_id in (${sql.join(byAmount)})` : sql`false`})
            order by -rowid limit ${params.limit}`.execute(db)
        ).rows
      : [];
  const documentPlaces = Math.min(documents.length, Math.max(params.limit - records.length, Math.floor(params.limit / 2)));
  const shown = documents.slice(0, documentPlaces);
  const types = await documentTypes(
    db,
    params.organizationId,
    shown.map((r) => Number(r.id)),
  );
  return searchResults(records, shown, types, params.limit);
}
