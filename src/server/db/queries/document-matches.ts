import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../connection';
import { isPostgres } from '../dialect';
import {
  documentIdsLookup,
  postgresDocumentMatch,
  postgresSpelledQuery,
  rowidRange,
  scopeOf,
  searchRowid,
  toNumberQuery,
  typedTokens,
  typeWordOf,
} from './search';
import { indexedWords, spelledQuery, spelledWords, spellsNothing } from './search-spelling';

/** Past this many matches a search is a common word: the list keeps the lookup in its statement rather than the ids. */
export const FEW_MATCHES = 1000;

/**
 * A common word's matches on SQLite, checked one document at a time through the full-text indexes by rowid. FTS5
 * re-reads every word a prefix starts on each such check (60 ms for 'client'* at 1 000 000 documents), so the typed
 * starts are spelled out as the whole words the index holds: a check is then a few seeks (20–30 µs).
 */
export interface DocumentProbes {
  organizationId: number;
  /** The FTS5 query of the words (on the headings, headingsMatch), or null when no indexed word starts as typed. */
  words: string | null;
  /** The trigram query on the numbers, or null under three characters. */
  number: string | null;
  /** Documents the words surely match (one typed token: its most frequent whole word's entries); 0 when unknown. */
  atLeast: number;
  /** Documents the words may match at most (per typed word, the entries of its whole words; the fewest of the words). */
  atMost: number;
}

/**
 * A search's matches as the documents list filters on them: the ids when they are few (read by id, then sorted), else
 * the lookup itself, which the list's statement runs while it walks its own order and stops at the page, with the
 * probes when SQLite could spell the words out.
 */
export type DocumentMatches =
  | { ids: number[] }
  | {
      lookup: RawBuilder<{ id: number }>;
      probes: DocumentProbes | null;
      /** PostgreSQL: the check of one row through its entry read by primary key (search.ts), for dense matches. */
      perRow: ((id: RawBuilder<unknown>) => RawBuilder<SqlBool>) | null;
    };

/**
 * Past this many matches, or a tenth of the organisation's documents if fewer, PostgreSQL's page checks rows one by one
 * (a page then comes within a few hundred rows); below, it reads the matches (fewer than a page walk could cost).
 */
const DENSE_MATCHES = 20_000;

/** Whether PostgreSQL's page is walked with a check per row: the lookup has more matches than denseness asks (read at most that many). */
export async function densePostgresMatches(db: Db, lookup: RawBuilder<{ id: number }>, documents: number): Promise<boolean> {
  const dense = Math.min(DENSE_MATCHES, Math.floor(documents / 10));
  const { rows: past } = await sql`select id from (${lookup}) matches limit 1 offset ${dense}`.execute(db);
  return past.length > 0;
}

/**
 * The matches of a search, among one type when the list is filtered by one (SQLite: the type's word in the index, so
 * a common word among a rare type, or a rare word among a common one, reads only the few documents of both).
 */
export async function documentMatches(db: Db, organizationId: number, text: string, type?: string): Promise<DocumentMatches | null> {
  if (isPostgres(db)) {
    const spelled = await postgresSpelledQuery(db, organizationId, ['document'], text);
    const lookup = documentIdsLookup(db, organizationId, text, { spelled });
    if (!lookup) return null;
    const { rows } = await sql<{ id: number }>`select id from (${lookup}) matches limit ${FEW_MATCHES + 1}`.execute(db);
    if (rows.length <= FEW_MATCHES) return { ids: rows.map((r) => Number(r.id)) };
    return { lookup, probes: null, perRow: (id: RawBuilder<unknown>) => postgresDocumentMatch(organizationId, text, id, spelled) };
  }
  const probes = await spelledOut(db, organizationId, text);
  const lookup = documentIdsLookup(db, organizationId, text, { spelled: probes ? probes.words : undefined, type });
  if (!lookup) return null;
  // The index's own counts already tell a common word: its ids are not read (among one type, the index does not know).
  if (probes && probes.atLeast > FEW_MATCHES && !type) return { lookup, probes, perRow: null };
  const { rows } = await sql<{ id: number }>`select id from (${lookup}) matches limit ${FEW_MATCHES + 1}`.execute(db);
  if (rows.length <= FEW_MATCHES) return { ids: rows.map((r) => Number(r.id)) };
  return { lookup, probes, perRow: null };
}

/**
 * The typed words as SQLite's documents lookup reads them (search.ts toMatchQuery), each word's last token spelled out
 * into the whole heading words of the organisation's documents it starts (search-spelling.ts), with their entry
 * counts; null when a token cannot be folded here or starts too many words (FTS5 expands it then).
 */
async function spelledOut(db: Db, organizationId: number, text: string): Promise<DocumentProbes | null> {
  const typed = typedTokens(text);
  if (typed.length === 0) return null;
  const spelled = await spelledWords(typed, scopeOf(organizationId, 'document'), indexedWords(db, 'heading'));
  const number = toNumberQuery(text);
  if (spellsNothing(spelled)) return { organizationId, words: null, number, atLeast: 0, atMost: 0 };
  // The probes rest on the counts: every word must be spelled out.
  const counts = spelled.map((w) => w.words?.map((r) => r.doc) ?? null);
  if (counts.some((c) => c === null)) return null;
  const sums = counts.map((c) => (c as number[]).reduce((sum, doc) => sum + doc, 0));
  const atMost = Math.min(...sums);
  const only = spelled.length === 1 && spelled[0]?.before.length === 0 ? counts[0] : null;
  const atLeast = only ? Math.max(...only) : 0;
  return { organizationId, words: spelledQuery(spelled), number, atLeast, atMost };
}

/** The document's entry in the search index and in the numbers' index: its rowid, from its id (search.ts searchRowid). */
const entryOf = (probes: DocumentProbes, id: RawBuilder<unknown>) => sql`${searchRowid(probes.organizationId, 'document', 0)} + ${id}`;

/** The words on the headings only, as documentIdsLookup reads them (the body repeats the customer and adds the date). */
const headingsMatch = (probes: DocumentProbes) => `{heading} : (${probes.words})`;

const wordsHold = (probes: DocumentProbes, rowid: RawBuilder<unknown>) =>
  sql<SqlBool>`exists (select 1 from search_index where search_index match ${headingsMatch(probes)} and rowid = ${rowid})`;
const numberHolds = (probes: DocumentProbes, rowid: RawBuilder<unknown>) =>
  sql<SqlBool>`exists (select 1 from document_numbers where document_numbers match ${probes.number} and rowid = ${rowid})`;

/** Whether the document of this id matches, checked through both indexes by its rowid (no list of matches is built). */
export function isProbedMatch(probes: DocumentProbes, id: RawBuilder<unknown>): RawBuilder<SqlBool> {
  const rowid = entryOf(probes, id);
  const checks = [...(probes.words ? [wordsHold(probes, rowid)] : []), ...(probes.number ? [numberHolds(probes, rowid)] : [])];
  return checks.length > 0 ? sql<SqlBool>`(${sql.join(checks, sql` or `)})` : sql<SqlBool>`0`;
}

/** A check per walked row costs 20–60 µs, a match read into the statement's temporary index about 0.1 µs. */
const CHECKS_PER_MATCH_READ = 1 / 500;
/** Below this many checks a walk costs a few milliseconds whatever the matches. */
const FEW_CHECKS = 200;

/**
 * Whether a page is cheaper walked in the list's order with each row checked (about `rowsBefore` × documents ÷ matches
 * checks, the matches being spread over the list) than with every match read once into a temporary index. Only a
 * sure number of matches decides: an estimate too high would walk the whole list for a few. And only an order an
 * index gives can be walked (`indexed`): any other sorts every row of the organisation, each checked (20 s at 1 000 000).
 */
export function walksPage(probes: DocumentProbes, p: { rowsBefore: number; documents: number; indexed: boolean }): boolean {
  if (probes.atLeast === 0 || !p.indexed) return false;
  const checks = (p.rowsBefore * p.documents) / probes.atLeast;
  return checks <= Math.max(FEW_CHECKS, probes.atLeast * CHECKS_PER_MATCH_READ);
}

/** Rows of the list's order a window reads at most (an index walk, then each row's columns: 10–20 ms). */
const MAX_WINDOW_ROWS = 50_000;
/** A window's rows checked one by one at most (20–60 µs each) when their ids are too spread for a range. */
const MAX_WINDOW_CHECKS = 1000;
/** A window's ids are read as a range of the word's entries when it spans at most this many ids per row. */
const MAX_IDS_PER_WINDOW_ROW = 8;

/**
 * How many of the list's first rows, without the search, should hold the page's matches: the rows before the page's
 * end, over the share of documents the words surely match, with a margin; null past MAX_WINDOW_ROWS. Other filters
 * may hold fewer matches: the window is then too short, and the page is read the whole way (listDocumentPage).
 */
export function windowRows(probes: DocumentProbes, p: { rowsBefore: number; documents: number }): number | null {
  if (probes.atLeast === 0) return null;
  const rows = Math.ceil(((p.rowsBefore * p.documents) / probes.atLeast) * 1.25) + 100;
  return rows <= MAX_WINDOW_ROWS ? rows : null;
}

/**
 * How a window's rows are checked: against the word's entries between its first and last id (read once, about 0.1 µs
 * each) when the order keeps ids close (dates follow creation), else one by one through the indexes when few, else
 * not at all (null).
 */
export function windowCheck(window: { rows: number; first: number; last: number }): 'range' | 'each' | null {
  if (window.last - window.first + 1 <= window.rows * MAX_IDS_PER_WINDOW_ROW) return 'range';
  return window.rows <= MAX_WINDOW_CHECKS ? 'each' : null;
}

/** Past this many number or amount matches (30 ms of checks), those not found by the words are not looked for one by one. */
const MAX_CHECKED_EXTRAS = FEW_MATCHES;

/**
 * How many of the organisation's documents a search alone, or among one type, selects, from the indexes without
 * reading every match: those its words find (the index's own count for one word, else FTS5's, with the type's word
 * when a type is asked), plus those only its number finds, plus those only its amount finds (each checked against the
 * others by rowid, and its type read by id). Null when numbers or amounts match too many documents to check one by
 * one: the list counts as with any other filter then.
 */
export async function countProbedMatches(db: Db, probes: DocumentProbes, amount: number | null, type?: string): Promise<number | null> {
  const [first, last] = rowidRange(probes.organizationId, 'document');
  let total = 0;
  if (probes.words && probes.atLeast === probes.atMost && !type) total = probes.atLeast;
  else if (probes.words) {
    const typed = type ? ` AND {body_words} : ${typeWordOf(probes.organizationId, type)}` : '';
    const { rows } = await sql<{ n: number }>`select count(*) as n from search_index
      where search_index match ${headingsMatch(probes) + typed} and rowid between ${first} and ${last}`.execute(db);
    total = Number(rows[0]?.n);
  }
  const ofType = (rowid: RawBuilder<unknown>) =>
    type
      ? sql<SqlBool>`exists (select 1 from documents where id = ${rowid} - ${searchRowid(probes.organizationId, 'document', 0)} and type = ${type})`
      : sql<SqlBool>`1`;
  if (probes.number) {
    const numbered = sql`select rowid from document_numbers where document_numbers match ${probes.number} and rowid between ${first} and ${last}`;
    if (!(await fewRows(db, numbered))) return null;
    const { rows } = await sql<{ n: number }>`select count(*) as n from (${numbered}) numbered
      where ${ofType(sql`numbered.rowid`)} and not ${probes.words ? wordsHold(probes, sql`numbered.rowid`) : sql`0`}`.execute(db);
    total += Number(rows[0]?.n);
  }
  if (amount !== null) {
    const ofAmount = sql`select id from documents where organization_id = ${probes.organizationId} and total = ${amount}
      ${type ? sql`and type = ${type}` : sql``}`;
    if (!(await fewRows(db, ofAmount))) return null;
    const { rows } = await sql<{ n: number }>`select count(*) as n from (${ofAmount}) amounts
      where not ${isProbedMatch(probes, sql`amounts.id`)}`.execute(db);
    total += Number(rows[0]?.n);
  }
  return total;
}

/** Whether the statement selects at most MAX_CHECKED_EXTRAS rows: it stops at the one past them, if any. */
async function fewRows(db: Db, rows: RawBuilder<unknown>): Promise<boolean> {
  const { rows: past } = await sql`${rows} limit 1 offset ${MAX_CHECKED_EXTRAS}`.execute(db);
  return past.length === 0;
}

/** The key a count of the search alone is kept under between writes (document-counts.ts). */
export const probedCountKey = (probes: DocumentProbes, amount: number | null, type?: string) =>
  `search alone\n${probes.organizationId}\n${probes.words}\n${probes.number}\n${amount}\n${type ?? ''}`;
