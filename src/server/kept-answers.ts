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
 * - under the data generation it was read at (db/data-generation.ts): after any write of data, by this process or
 *   another, every answer is read again; one whose generation moved while it was read is not kept at all;
 * - for the same procedure, raw input, organisation, person, role and API key (a role's view, or a key's scope, is
 *   never another's);
 * - on the same Paris day: « en retard », this month's figures and the periods named by words turn with the date.
 * The procedure's middlewares before it (session, permissions, plan) run on every request, kept answer or not.
 * On PostgreSQL several processes write without this one knowing: nothing is kept there (dataGenerationOf is null).
 */
export class KeptAnswers {
  private readonly answers = new Map<string, { generation: number; data: unknown; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly data: DataGeneration,
    private readonly budget = MAX_BYTES,
  ) {}

  generation(): number {
    return this.data.current();
  }

  /** The answer kept under this key at this generation, or undefined. */
  get(key: string, generation: number): unknown {
    const kept = this.answers.get(key);
    if (!kept) return undefined;
    this.answers.delete(key);
    if (kept.generation !== generation) {
      this.bytes -= kept.bytes;
      return undefined;
    }
    this.answers.set(key, kept); // most recently used last
    return kept.data;
  }

  /** Keeps an answer read at `generation`, if no write happened meanwhile; the least recently used go first. */
  set(key: string, generation: number, data: unknown): void {
    if (generation !== this.data.current()) return;
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
    this.answers.set(key, { generation, data: deepFreeze(data), bytes });
    this.bytes += bytes;
  }

  get size(): number {
    return this.answers.size;
  }
}

/** Memory the kept answers may hold, estimated (a report's answer is a few kilobytes, a list page about ten). */
const MAX_BYTES = 32 * 2 ** 20;

/** What identifies an answer besides its generation. */
export function answerKey(path: string, session: Session, rawInput: unknown): string {
  const who = `${session.organizationId}:${session.userId}:${session.role}:${session.apiKey ? `${session.apiKey.id}:${session.apiKey.scope}` : ''}`;
  return `${path}\n${who}\n${parisToday(clock.now())}\n${JSON.stringify(rawInput ?? null)}`;
}

const texts = { rest: new WeakMap<object, string>(), trpc: new WeakMap<object, string>() };

/**
 * An answer's text for a door, serialized once per kept answer: a kept answer is frozen, so its text cannot change,
 * and a report's page of a thousand lines costs more to serialize than to find. Any other answer is serialized anew.
 */
export function answerText(door: keyof typeof texts, answer: unknown, serialize: () => string): string {
  if (answer === null || typeof answer !== 'object' || !Object.isFrozen(answer)) return serialize();
  const kept = texts[door].get(answer);
  if (kept !== undefined) return kept;
  const text = serialize();
  texts[door].set(answer, text);
  return text;
}

const stores = new WeakMap<Db, KeptAnswers>();

/** The kept answers of this database handle; null where nothing may be kept (see KeptAnswers). */
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
