import { sql } from 'kysely';
import type { Db } from '../connection';

/**
 * Both full-text indexes answer a typed word's start ('client'*) by gathering the whole entry list of every word it
 * starts, whatever the page asks: SQLite's FTS5 merges them (0.1 s for 'client'* among 1 000 000 documents), GIN
 * gathers them before it intersects them with the other words (70 ms). The same words spelled out whole are read
 * lazily and stop at the page (FTS5, under a millisecond) or are skipped through by the rarest (GIN, 5 ms). The
 * organisation's words come from search_index_vocabulary on SQLite (migration 0078), where its entries' words carry its
 * scope ('o1d…'), from search_index_terms on PostgreSQL (migration 0083).
 */

/**
 * Whole words a typed word's start may stand for before its search is left to the index ('1' starts thousands of numbers
 * and amounts): each is one more entry list read.
 */
const MAX_SPELLED_WORDS = 16;

/**
 * One typed word: its tokens before the last as indexed, its last token as typed (its start, when its words are not
 * spelled out), then the whole indexed words that start spells out to, or null when they are too many or the token
 * cannot be folded here (the index expands the start itself).
 */
export interface SpelledWord {
  before: string[];
  last: string;
  words: { term: string; doc: number }[] | null;
}

/** The indexed words from `start` (inclusive) to `after` (exclusive), at most `limit`, each with its entries (0: not kept). */
export type WordsBetween = (start: string, after: string, limit: number) => Promise<{ term: string; doc: number }[]>;

/**
 * A typed word as FTS5 reads it, its scoped tokens in one quoted phrase (no user text is ever read as FTS syntax)
 * whose last token is a prefix: people type the start of each word, and a word of several tokens ('jean-paul', an
 * e-mail, 'F-2024') keeps them in order, next to each other.
 */
export const typedPhrase = (scope: string, tokens: readonly string[]): string => `"${tokens.map((t) => scope + t).join(' ')}"*`;

/**
 * A typed token as unicode61 (remove_diacritics 2) stores it, when that is sure: accents taken off, lower case, and
 * nothing but ASCII letters and digits left. Other scripts and ligatures ('œ', 'ß') may fold otherwise in FTS5: null.
 */
function foldedToken(token: string): string | null {
  const folded = token.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return /^[a-z0-9]+$/.test(folded) ? folded : null;
}

/**
 * The typed words (each its tokens), each word's last token spelled out into the whole words it starts among
 * `wordsBetween`'s, the tokens under `scope` (SQLite's scoped terms; '' on PostgreSQL). It stops at the first word that
 * starts none, listed last with no words: nothing can match.
 */
export async function spelledWords(typed: readonly string[][], scope: string, wordsBetween: WordsBetween): Promise<SpelledWord[]> {
  const spelled: SpelledWord[] = [];
  for (const tokens of typed) {
    const before = tokens.slice(0, -1).map((t) => scope + t);
    const typedLast = tokens[tokens.length - 1] as string;
    const folded = foldedToken(typedLast);
    if (folded === null) {
      spelled.push({ before, last: scope + typedLast, words: null });
      continue;
    }
    const start = scope + folded;
    // The folded token ends in an ASCII letter or digit: the next character bounds every word it starts.
    const after = start.slice(0, -1) + String.fromCharCode(start.charCodeAt(start.length - 1) + 1);
    const rows = await wordsBetween(start, after, MAX_SPELLED_WORDS + 1);
    const words = rows.length > MAX_SPELLED_WORDS ? null : rows;
    spelled.push({ before, last: scope + typedLast, words });
    if (words?.length === 0) return spelled;
  }
  return spelled;
}

/** SQLite: the words of the full-text index (migration 0078) in one column of the entries or in either (`column` null). */
export const indexedWords =
  (db: Db, column: 'heading' | null): WordsBetween =>
  async (start, after, limit) =>
    (
      await (column
        ? sql<{ term: string; doc: number }>`select term, doc from search_index_vocabulary
          where term >= ${start} and term < ${after} and col = ${column} and doc > 0 limit ${limit}`
        : sql<{ term: string; doc: number }>`select term, max(doc) as doc from search_index_vocabulary
          where term >= ${start} and term < ${after} and doc > 0 group by term limit ${limit}`
      ).execute(db)
    ).rows.map((r) => ({ term: r.term, doc: Number(r.doc) }));

/** PostgreSQL: the organisation's words of entries of these kinds (search_index_terms, migration 0083), entries not kept. */
export const organizationWords =
  (db: Db, organizationId: number, kinds: readonly string[]): WordsBetween =>
  async (start, after, limit) =>
    (
      await sql<{ term: string }>`select distinct term from search_index_terms
        where organization_id = ${organizationId} and kind in (${sql.join(kinds)}) and term >= ${start} and term < ${after}
        order by term limit ${limit}`.execute(db)
    ).rows.map((r) => ({ term: r.term, doc: 0 }));

/** Whether some typed word starts no indexed word: the words then match nothing. */
export const spellsNothing = (spelled: readonly SpelledWord[]): boolean => spelled.some((w) => w.words?.length === 0);

/**
 * The FTS5 query of the typed words: each a choice of whole-word phrases where spelled out, else its own phrase with
 * its start; every word required (an explicit AND: FTS5 reads two groups side by side as a syntax error).
 */
export const spelledQuery = (spelled: readonly SpelledWord[]): string =>
  spelled
    .map((w) =>
      w.words ? `(${w.words.map((r) => `"${[...w.before, r.term].join(' ')}"`).join(' OR ')})` : typedPhrase('', [...w.before, w.last]),
    )
    .join(' AND ');

/** A word as a tsquery lexeme, quoted: no user text is read as tsquery syntax. */
const lexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The tsquery of the typed words (db/dialect.ts toTsQuery): each a phrase of its tokens whose last is a choice of whole
 * words where spelled out, else its start; every word required.
 */
export const spelledTsQuery = (spelled: readonly SpelledWord[]): string =>
  spelled
    .map((w) => {
      const last = w.words ? `(${w.words.map((r) => lexeme(r.term)).join(' | ')})` : `${lexeme(w.last)}:*`;
      return `(${[...w.before.map(lexeme), last].join(' <-> ')})`;
    })
    .join(' & ');
