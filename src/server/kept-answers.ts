import type { Session } from './auth/sessions';
import { clock } from './clock';
import type { Db } from './db/connection';
import { type DataGeneration, dataGenerationOf } from './db/data-generation';
import { parisToday } from '../shared/paris-date';

/**
 * The answers of the read procedures marked `kept` (lists, searches, figures, reports), kept between requests while
 * the data has not changed. At 100 000 documents the dashboard or a report reads tens of thousands of rows
 * (20 to 50 ms of SQL, `npm run bench -- scale`); fifty people looking at the same figures would queue behind one
 * another on the one SQLite connection for answers that only a write can change.
 *
 * An answer is reused only:
 * - under its organisation's data generation it was read at (db/data-generation.ts): after a write of that
 *   organisation's data (or of data whose organisation cannot be told), by this process or another, its answers are
 *   read again; one whose generation moved while it was read is not kept at all. Another organisation's writes keep it;
 * - for the same procedure, raw input, organisation, person, role and API key (a role's view, or a key's scope, is
 *   never another's);
 * - on the same Paris day: « en retard », this month's figures and the periods named by words turn with the date;
 * - before the instant its reading said the clock alone changes it (KeptTerm: a pending invitation that expires).
 * Requests that miss the same answer at the same generation together wait for the first one's reading (single
 * flight) instead of each reading it. The procedure's middlewares before it (session, permissions, plan) run on every
 * request, kept answer or not. On PostgreSQL the generations are read from the database, where every process's
 * writes bump them, by the session lookup's own statement: a kept answer costs one round trip to the server.
 */
export class KeptAnswers {
  private readonly answers = new Map<string, { generation: number; data: unknown; bytes: number; until: number }>();
  private readonly flights = new Map<string, Promise<{ data: unknown } | undefined>>();
  private bytes = 0;
  /** How the answers asked for were found: kept, shared with a reading under way, or read. */
  readonly counts = { kept: 0, shared: 0, read: 0 };

  constructor(
    private readonly data: DataGeneration,
    private readonly budget = MAX_BYTES,
  ) {}

  generation(organizationId: number): number | Promise<number> {
    return this.data.current(organizationId);
  }

  /**
   * The answer under `key` (answerKey, the organisation's id among it), at the generation the session lookup read with
   * the session if it did (`readWithSession`, DataGeneration.current), else at the one read now: the one kept, or the one an earlier request is
   * reading at the same generation (waited for), or else the one `read` gives, kept if it succeeds. A failed reading
   * is never shared nor kept: each request that waited on it then reads on its own, and gets its own answer or error.
   * A request that joins a reading began before any write that could change it had begun, so the answer, read
   * before or after that write, is one it could have been given on its own.
   */
  async answer<R extends { ok: boolean; data?: unknown }>(
    key: string,
    organizationId: number,
    read: (term: KeptTerm) => Promise<R>,
    readWithSession?: number,
  ): Promise<{ kept: unknown } | { read: R }> {
    const generation = await this.data.current(organizationId, readWithSession);
    const kept = this.get(key, generation);
    if (kept !== undefined) {
      this.counts.kept++;
      return { kept };
    }
    const flightKey = `${generation}\n${key}`;
    const flight = this.flights.get(flightKey);
    if (flight) {
      const shared = await flight;
      if (shared) {
        this.counts.shared++;
        return { kept: shared.data };
      }
      this.counts.read++;
      return { read: await read(new KeptTerm()) };
    }
    let land: (answer: { data: unknown } | undefined) => void = () => {};
    this.flights.set(flightKey, new Promise((resolve) => (land = resolve)));
    this.counts.read++;
    let answer: { data: unknown } | undefined;
    try {
      const term = new KeptTerm();
      const result = await read(term);
      if (result.ok) {
        this.set(key, organizationId, generation, result.data, term.until);
        answer = { data: result.data };
      }
      return { read: result };
    } finally {
      this.flights.delete(flightKey);
      land(answer);
    }
  }

  /**
   * The answer kept under `key` at the organisation's current generation (counted as kept), or undefined.
   * `readWithSession`: the generation the session lookup read with the session, if it did (DataGeneration.current).
   */
  kept(key: string, organizationId: number, readWithSession?: number): unknown {
    const generation = this.data.current(organizationId, readWithSession);
    return typeof generation === 'number' ? this.keptAt(key, generation) : generation.then((g) => this.keptAt(key, g));
  }

  private keptAt(key: string, generation: number): unknown {
    const kept = this.get(key, generation);
    if (kept !== undefined) this.counts.kept++;
    return kept;
  }

  /** The answer kept under this key at this generation, or undefined. */
  get(key: string, generation: number): unknown {
    const kept = this.answers.get(key);
    if (!kept) return undefined;
    this.answers.delete(key);
    if (kept.generation !== generation || (kept.until !== FOREVER && kept.until <= clock.now().getTime())) {
      this.bytes -= kept.bytes;
      return undefined;
    }
    this.answers.set(key, kept); // most recently used last
    return kept.data;
  }

  /**
   * Keeps an answer read at `generation` (until the instant `until`, in ms, if the clock alone changes it), if no write
   * of its organisation happened meanwhile; the least recently used go first.
   */
  set(key: string, organizationId: number, generation: number, data: unknown, until = FOREVER): void {
    if (!this.data.unchangedSince(organizationId, generation)) return;
    const bytes = approximateBytes(data);
    if (bytes > this.budget / 8) return;
    const old = this.answers.get(key);
    if (old) {
      this.answers.delete(key);
      this.bytes -= old.bytes;
    }
    for (const [oldest, kept] of this.answers) {
      if (this.bytes + bytes <= this.budget) break;
      this.answers.delete(oldest);
      this.bytes -= kept.bytes;
    }
    this.answers.set(key, { generation, data: deepFreeze(data), bytes, until });
    this.bytes += bytes;
  }

  get size(): number {
    return this.answers.size;
  }
}

const FOREVER = Number.POSITIVE_INFINITY;

/**
 * What a kept read tells its answer besides its data: the instant the clock alone changes it, when something it
 * counts ends at a time of day (a pending invitation's expiry) rather than at a write or at the Paris day's end.
 */
export class KeptTerm {
  /** Epoch milliseconds; infinite when only a write or the next day changes the answer. */
  until = FOREVER;

  /** The answer stops holding at this instant (ISO 8601); null: nothing of it ends. */
  endsAt(instant: string | null): void {
    if (instant !== null) this.until = Math.min(this.until, Date.parse(instant));
  }
}

/** Memory the kept answers may hold, estimated (a report's answer is a few kilobytes, a list page about ten). */
const MAX_BYTES = 32 * 2 ** 20;

/** What identifies an answer besides its generation; `inputKey` is its raw input's `inputKeyOf`. */
export function answerKey(path: string, session: Session, inputKey: string): string {
  const who = `${session.organizationId}:${session.userId}:${session.role}:${session.apiKey ? `${session.apiKey.id}:${session.apiKey.scope}` : ''}`;
  return `${path}\n${who}\n${parisToday(clock.now())}\n${inputKey}`;
}

/** A raw input's part of its answer's key: the same for the same input, whichever door parsed it. */
export const inputKeyOf = (rawInput: unknown): string => JSON.stringify(rawInput ?? null);

const texts = { rest: new WeakMap<object, string>(), trpc: new WeakMap<object, string>() };

/**
 * An answer's text for a door, serialized once per kept answer: a kept answer is frozen, so its text cannot change,
 * and a report's page of a thousand lines costs more to serialize than to find. Any other answer is serialized anew.
 * `serialize` is given the answer (a door passes one function made once, not a closure made per request).
 */
export function answerText(door: keyof typeof texts, answer: unknown, serialize: (answer: unknown) => string): string {
  return onceIfKept(texts[door], answer, serialize);
}

/** A kept answer's bytes as a door sends it: REST's JSON, tRPC's single call, tRPC's batch of one. */
export type KeptAnswerForm = 'rest' | 'trpc' | 'trpcBatch';

const bytes: Record<KeptAnswerForm, WeakMap<object, Buffer>> = { rest: new WeakMap(), trpc: new WeakMap(), trpcBatch: new WeakMap() };

/**
 * A kept answer's body for a door, encoded once per kept answer (UTF-8): Node sends a Buffer as it is after the status
 * line, where a text is first joined to the status line's, the whole copied flat and encoded again on every request,
 * about 1 µs of CPU for a page of documents, more for a report (`npm run bench -- scale`). A text holding one
 * character past Latin-1 (a French ’) is also held by V8 at two bytes a character, the bytes at one or two. An answer
 * that is not kept (not frozen) is encoded anew.
 */
export function answerBytes(form: KeptAnswerForm, answer: unknown, serialize: (answer: unknown) => string): Buffer {
  return onceIfKept(bytes[form], answer, (kept) => {
    // Its own memory, not a slice of Node's shared pool: a small kept answer would otherwise hold a pool of 8 KiB alive.
    const text = serialize(kept);
    const made = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
    made.write(text);
    return made;
  });
}

/** `make(answer)`, made once per kept (frozen) answer and kept beside it in `made`; for any other answer, made anew. */
function onceIfKept<T>(made: WeakMap<object, T>, answer: unknown, make: (answer: unknown) => T): T {
  if (answer === null || typeof answer !== 'object' || !Object.isFrozen(answer)) return make(answer);
  const kept = made.get(answer);
  if (kept !== undefined) return kept;
  const value = make(answer);
  made.set(answer, value);
  return value;
}

const stores = new WeakMap<Db, KeptAnswers>();

/** The kept answers of this database handle; null for a transaction's handle (see dataGenerationOf). */
export function keptAnswersOf(db: Db): KeptAnswers | null {
  const kept = stores.get(db);
  if (kept) return kept;
  const data = dataGenerationOf(db);
  if (!data) return null;
  const created = new KeptAnswers(data);
  stores.set(db, created);
  return created;
}

/**
 * A rough size in bytes (UTF-16 strings, a boxed number's, a little per object and key): enough to bound memory. A
 * number counts 32, never less than its JSON text (25 characters at most, as in -0.0000010014611667224361).
 */
export function approximateBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (value === null || typeof value !== 'object' || depth > 32) return 32;
  let bytes = 32;
  if (Array.isArray(value)) for (const item of value) bytes += approximateBytes(item, depth + 1);
  else for (const [key, item] of Object.entries(value)) bytes += 16 + 2 * key.length + approximateBytes(item, depth + 1);
  return bytes;
}

/**
 * A kept answer is shared by every request that reuses it: frozen, so that code changing an answer in place (which
 * would change it for the next person) fails loudly in the tests instead.
 */
function deepFreeze<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || Object.isFrozen(value) || depth > 32) return value;
  for (const item of Object.values(value)) deepFreeze(item, depth + 1);
  return Object.freeze(value);
}
