import type { DocumentNumbering } from './numbering';
import type { DocumentType } from './schemas/document';
import { DOCUMENT_TYPE_TABLE } from './document-types';

// CGI art. 242 nonies A: every number of the organisation is unique, whatever the document type. Each series is the
// language of the numbers it may ever produce (prefix, counter, suffix, with every placeholder value and every
// counter); two series collide when those languages meet. Decided exactly on small automata, not on samples.

/** A set of characters. OTHER stands for every character no pattern names. */
type CharSet = ReadonlySet<string>;
const OTHER = '\u0000';
const DIGITS = '0123456789'.split('');
const NONZERO = DIGITS.slice(1);
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');

interface Edge {
  to: number;
  /** null: an empty move. */
  chars: CharSet | null;
}

class Automaton {
  readonly edges: Edge[][] = [[]];
  accept = 0;
  private state() {
    this.edges.push([]);
    return this.edges.length - 1;
  }
  private edge(from: number, to: number, chars: CharSet | null) {
    this.edges[from]?.push({ to, chars });
  }
  /** Appends one character of `chars` after `from`; answers the new end. */
  step(from: number, chars: CharSet): number {
    const to = this.state();
    this.edge(from, to, chars);
    return to;
  }
  /** Appends any number (zero included) of characters of `chars`. */
  loop(from: number, chars: CharSet): number {
    this.edge(from, from, chars);
    return from;
  }
  /** Appends one of several alternatives, each built from a fresh start; answers their common end. */
  either(from: number, ...branches: ((start: number) => number)[]): number {
    const end = this.state();
    for (const build of branches) {
      const start = this.state();
      this.edge(from, start, null);
      this.edge(build(start), end, null);
    }
    return end;
  }
}

const set = (chars: readonly string[]): CharSet => new Set(chars);

/**
 * The counter as `formatDocumentNumber` pads it: at least one, left-padded with zeros to `width` digits. Either
 * exactly `width` digits not all zero, or more digits without a leading zero.
 */
function appendCounter(a: Automaton, from: number, width: number): number {
  const digits = set(DIGITS);
  const longer = (start: number) => {
    let s = a.step(start, set(NONZERO));
    for (let i = 0; i < Math.max(0, width); i++) s = a.step(s, digits);
    return a.loop(s, digits);
  };
  if (width < 1) return longer(from);
  // Exactly `width` digits with at least one non-zero: zeros, one non-zero digit, then any digits.
  const padded = (start: number) =>
    a.either(
      start,
      ...Array.from({ length: width }, (_, zeros) => (s: number) => {
        let at = s;
        for (let i = 0; i < zeros; i++) at = a.step(at, set(['0']));
        at = a.step(at, set(NONZERO));
        for (let i = zeros + 1; i < width; i++) at = a.step(at, digits);
        return at;
      }),
    );
  return a.either(from, padded, longer);
}

/** What each placeholder of `fillPlaceholders` may become; `{customer_id}` and `{order}` may be anything. */
function appendPlaceholder(a: Automaton, from: number, name: string, any: CharSet): number | null {
  const digits = set(DIGITS);
  const repeat = (n: number, chars: CharSet) => {
    let s = from;
    for (let i = 0; i < n; i++) s = a.step(s, chars);
    return s;
  };
  switch (name) {
    case 'year':
      return repeat(4, digits);
    case 'month':
    case 'day':
      return repeat(2, digits);
    case 'quarter':
      return a.step(a.step(from, set(['Q'])), set(['1', '2', '3', '4']));
    case 'currency':
      return repeat(3, set(UPPER));
    case 'customer_id':
    case 'order':
      return a.loop(from, any);
    default:
      return null;
  }
}

/** Prefix or suffix text: literal characters and placeholders; an unknown `{name}` stays as typed. */
function appendText(a: Automaton, from: number, text: string, any: CharSet): number {
  let s = from;
  const pattern = /\{(\w+)\}|([\s\S])/g;
  for (const match of text.matchAll(pattern)) {
    const placeholder = match[1];
    const filled = placeholder === undefined ? null : appendPlaceholder(a, s, placeholder, any);
    if (filled !== null) s = filled;
    else for (const ch of match[0]) s = a.step(s, set([ch]));
  }
  return s;
}

function seriesAutomaton(n: DocumentNumbering, any: CharSet): Automaton {
  const a = new Automaton();
  let s = appendText(a, 0, n.prefix, any);
  s = appendCounter(a, s, n.digit_count);
  a.accept = appendText(a, s, n.suffix, any);
  return a;
}

/** States reachable by empty moves. */
function closure(a: Automaton, states: Iterable<number>): Set<number> {
  const seen = new Set(states);
  const todo = [...seen];
  for (let s = todo.pop(); s !== undefined; s = todo.pop())
    for (const e of a.edges[s] ?? [])
      if (e.chars === null && !seen.has(e.to)) {
        seen.add(e.to);
        todo.push(e.to);
      }
  return seen;
}

const intersects = (x: CharSet, y: CharSet) => [...x].some((c) => y.has(c));

/** Whether some string is accepted by both automata: a walk over pairs of states. */
function meet(a: Automaton, b: Automaton): boolean {
  const key = (p: number, q: number) => `${p}:${q}`;
  const seen = new Set<string>();
  const todo: [number, number][] = [];
  const visit = (ps: Iterable<number>, qs: Iterable<number>) => {
    for (const p of closure(a, ps))
      for (const q of closure(b, qs))
        if (!seen.has(key(p, q))) {
          seen.add(key(p, q));
          todo.push([p, q]);
        }
  };
  visit([0], [0]);
  for (let pair = todo.pop(); pair !== undefined; pair = todo.pop()) {
    const [p, q] = pair;
    if (p === a.accept && q === b.accept) return true;
    for (const ea of a.edges[p] ?? [])
      for (const eb of b.edges[q] ?? []) if (ea.chars && eb.chars && intersects(ea.chars, eb.chars)) visit([ea.to], [eb.to]);
  }
  return false;
}

/** Every character the patterns name, plus digits, capitals and one stand-in for all the others. */
function alphabet(series: readonly DocumentNumbering[]): CharSet {
  const chars = new Set([...DIGITS, ...UPPER, 'Q', OTHER]);
  for (const n of series) for (const ch of n.prefix + n.suffix) chars.add(ch);
  return chars;
}

/** Whether two numbering series may ever produce the same number. */
export function seriesMayCollide(x: DocumentNumbering, y: DocumentNumbering): boolean {
  const any = alphabet([x, y]);
  return meet(seriesAutomaton(x, any), seriesAutomaton(y, any));
}

export interface NumberingCollision {
  types: [DocumentType, DocumentType];
  message: string;
}

/**
 * The pairs of document types whose series may produce the same number, each with a French sentence naming both;
 * empty when every number of the organisation stays unique (CGI art. 242 nonies A).
 */
export function numberingCollisions(numbering: Record<DocumentType, DocumentNumbering>): NumberingCollision[] {
  const types = Object.keys(numbering) as DocumentType[];
  const found: NumberingCollision[] = [];
  types.forEach((x, i) => {
    for (const y of types.slice(i + 1)) {
      if (!seriesMayCollide(numbering[x], numbering[y])) continue;
      const [nx, ny] = [DOCUMENT_TYPE_TABLE[x].templateLabel, DOCUMENT_TYPE_TABLE[y].templateLabel];
      found.push({
        types: [x, y],
        message: `Numérotation : les séries « ${nx} » et « ${ny} » peuvent produire le même numéro ; donnez-leur des préfixes ou suffixes distincts (CGI art. 242 nonies A : un numéro unique par document)`,
      });
    }
  });
  return found;
}
