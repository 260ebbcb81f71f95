import { sql } from 'kysely';
import type { Db } from '../connection';

/**
 * SQLite's full-text index answers a typed word's start ('client'*) by reading and merging the whole entry list of
 * every word it starts, whatever the page asks (0.1 s for 'client'* among 1 000 000 documents). The same words spelled
 * out whole are read lazily, in rowid order, and stop at the page (under a millisecond). The organisation's words come
 * from search_index_vocabulary (migration 0078), where its entries' words carry its scope ('o1d…').
 */

/**
 * Whole words a typed word's start may stand for before its search is left to FTS5 ('1' starts thousands of numbers
 * and amounts): each is one more entry list read.
 */
const MAX_SPELLED_WORDS = 16;

/**
 * One typed word: its tokens before the last, scoped as typed, then the whole indexed words its last token starts, or
 * null when they are too many or the token cannot be folded here (FTS5 expands that word itself: `typed`, its phrase).
 */
export interface SpelledWord {
  before: string[];
  words: { term: string; doc: number }[] | null;
  typed: string;
}

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
 * The typed words (each its tokens, search.ts tokensOf) within a scope, each word's last token spelled out into the
 * whole words it starts, in one column of the entries or in either (`column` null), with how many entries hold each.
 * It stops at the first word that starts none, listed last with no words: nothing can match.
 */
export async function spelledWords(db: Db, scope: string, typed: readonly string[][], column: 'heading' | null): Promise<SpelledWord[]> {
  const spelled: SpelledWord[] = [];
  for (const tokens of typed) {
    const before = tokens.slice(0, -1).map((t) => scope + t);
    const word = { before, typed: typedPhrase(scope, tokens) };
    const last = foldedToken(tokens[tokens.length - 1] as string);
    if (last === null) {
      spelled.push({ ...word, words: null });
      continue;
    }
    const start = scope + last;
    // The folded token ends in an ASCII letter or digit: the next character bounds every word it starts.
    const after = start.slice(0, -1) + String.fromCharCode(start.charCodeAt(start.length - 1) + 1);
    const { rows } = await (column
      ? sql<{ term: string; doc: number }>`select term, doc from search_index_vocabulary
          where term >= ${start} and term < ${after} and col = ${column} and doc > 0 limit ${MAX_SPELLED_WORDS + 1}`
      : sql<{ term: string; doc: number }>`select term, max(doc) as doc from search_index_vocabulary
          where term >= ${start} and term < ${after} and doc > 0 group by term limit ${MAX_SPELLED_WORDS + 1}`
    ).execute(db);
    const words = rows.length > MAX_SPELLED_WORDS ? null : rows.map((r) => ({ term: r.term, doc: Number(r.doc) }));
    spelled.push({ ...word, words });
    if (words?.length === 0) return spelled;
  }
  return spelled;
}

/** Whether some typed word starts no indexed word: the words then match nothing. */
export const spellsNothing = (spelled: readonly SpelledWord[]): boolean => spelled.some((w) => w.words?.length === 0);

/**
 * The FTS5 query of the typed words: each a choice of whole-word phrases where spelled out, else its own phrase with
 * its start; every word required (an explicit AND: FTS5 reads two groups side by side as a syntax error).
 */
export const spelledQuery = (spelled: readonly SpelledWord[]): string =>
  spelled.map((w) => (w.words ? `(${w.words.map((r) => `"${[...w.before, r.term].join(' ')}"`).join(' OR ')})` : w.typed)).join(' AND ');
