import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/connection';
import { logger } from '../logger';

/** One key's current window: hits counted, when it ends and when the last hit came (epoch milliseconds). */
export interface RateWindow {
  count: number;
  resetAt: number;
  lastAt: number;
}

/** What a limiter allows: `limit` hits a window; after `freeHits` of them (when set) each hit waits its delay. */
export interface RateRule {
  limit: number;
  windowMs: number;
  freeHits?: number;
}

const MAX_DELAY_MS = 60_000;

/**
 * How long a key that has `count` hits must wait after its last one: nothing for the first `freeHits`, then 1 s, 2 s,
 * 4 s… (at most a minute). Guessing slows to a crawl long before the lock, and nobody else is locked out.
 */
export function delayAfter(count: number, freeHits: number | undefined): number {
  if (freeHits === undefined || count < freeHits) return 0;
  return Math.min(1000 * 2 ** (count - freeHits), MAX_DELAY_MS);
}

/** True when one more hit is allowed now: below the limit and past its delay, if any (`window` unexpired, or none). */
export function admits(window: RateWindow | undefined, rule: RateRule, now: number): boolean {
  if (!window) return true;
  const delay = delayAfter(window.count, rule.freeHits);
  // No delay, no look at the time: a last hit stamped ahead (another process's clock) must not refuse the next.
  return window.count < rule.limit && (delay === 0 || window.lastAt + delay <= now);
}

/**
 * Where the windows live. SQLite runs as one process (`npm start`): memory is the shared state, and the fastest.
 * PostgreSQL serves several processes behind a load balancer: the windows are rows of `rate_limits` (migration
 * 0041), or a brute force spread over N processes would get N times the tries.
 */
export interface RateStore {
  /** The key's unexpired window, if any. */
  get(name: string, key: string, now: number): Promise<RateWindow | undefined>;
  /** Counts one hit if the rule admits it (`admits`): false, and nothing counted, when it does not. Atomic. */
  take(name: string, key: string, rule: RateRule, now: number): Promise<boolean>;
  /** Gives one hit of the running window back (a reservation that turned out not to count). */
  release(name: string, key: string, now: number): Promise<void>;
  reset(name: string, key: string): Promise<void>;
}

/** Windows are pruned as they are read, and wholesale when the map grows large. */
export class MemoryRateStore implements RateStore {
  private readonly windows = new Map<string, RateWindow>();

  async get(name: string, key: string, now: number): Promise<RateWindow | undefined> {
    return this.current(`${name}\n${key}`, now);
  }

  async take(name: string, key: string, rule: RateRule, now: number): Promise<boolean> {
    // No await between the check and the count: one process, so nothing can come in between.
    const id = `${name}\n${key}`;
    const entry = this.current(id, now);
    if (!admits(entry, rule, now)) return false;
    if (entry) {
      entry.count += 1;
      entry.lastAt = now;
    } else this.windows.set(id, { count: 1, resetAt: now + rule.windowMs, lastAt: now });
    if (this.windows.size > 50_000) this.prune(now);
    return true;
  }

  async release(name: string, key: string, now: number): Promise<void> {
    const entry = this.current(`${name}\n${key}`, now);
    if (entry && entry.count > 0) entry.count -= 1;
  }

  async reset(name: string, key: string): Promise<void> {
    this.windows.delete(`${name}\n${key}`);
  }

  private current(id: string, now: number): RateWindow | undefined {
    const entry = this.windows.get(id);
    if (entry && entry.resetAt <= now) {
      this.windows.delete(id);
      return undefined;
    }
    return entry;
  }

  private prune(now: number) {
    for (const [id, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(id);
  }
}

/** How often a process deletes the expired windows of every process (a few rows a minute; reads ignore them anyway). */
const PRUNE_EVERY_MS = 60_000;

/** `admits` in SQL, on the conflicting row; the delays' steps written out up to the cap, as literals (the code's own). */
function admitsSql(rule: RateRule, now: number): RawBuilder<boolean> {
  const belowLimit = sql<boolean>`rate_limits.count < ${rule.limit}`;
  const free = rule.freeHits;
  if (free === undefined) return belowLimit;
  const steps: RawBuilder<unknown>[] = [];
  for (let count = free; delayAfter(count, free) < MAX_DELAY_MS; count++) {
    steps.push(sql`when rate_limits.count = ${sql.lit(count)} then ${sql.lit(delayAfter(count, free))}`);
  }
  const delay = sql`case ${sql.join(steps, sql` `)} else ${sql.lit(MAX_DELAY_MS)} end`;
  return sql<boolean>`(${belowLimit} and (rate_limits.count < ${sql.lit(free)} or rate_limits.last_at + ${delay} <= ${now}))`;
}

/**
 * The windows in the database, shared by every process. A hit is one upsert (`insert … on conflict do update … where
 * <admitted> returning`): PostgreSQL decides under the row's lock, so of concurrent hits from several processes
 * exactly those the rule admits count, and the others get no row back. An expired window is restarted by the same
 * statement.
 */
export class DatabaseRateStore implements RateStore {
  private prunedAt = 0;

  constructor(private readonly db: Db) {}

  async get(name: string, key: string, now: number): Promise<RateWindow | undefined> {
    const row = await this.db
      .selectFrom('rate_limits')
      .select(['count', 'reset_at', 'last_at'])
      .where('name', '=', name)
      .where('key', '=', key)
      .where('reset_at', '>', now)
      .executeTakeFirst();
    return row ? { count: Number(row.count), resetAt: Number(row.reset_at), lastAt: Number(row.last_at) } : undefined;
  }

  async take(name: string, key: string, rule: RateRule, now: number): Promise<boolean> {
    const expired = sql<boolean>`rate_limits.reset_at <= ${now}`;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ name, key, count: 1, reset_at: now + rule.windowMs, last_at: now })
      .onConflict((oc) =>
        oc
          .columns(['name', 'key'])
          .doUpdateSet({
            count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
            reset_at: sql<number>`case when ${expired} then ${now + rule.windowMs} else rate_limits.reset_at end`,
            last_at: now,
          })
          .where(sql<boolean>`(${expired} or ${admitsSql(rule, now)})`),
      )
      .returning('count')
      .executeTakeFirst();
    await this.pruneNowAndThen(now);
    return row !== undefined;
  }

  async release(name: string, key: string, now: number): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set({ count: sql<number>`count - 1` })
      .where('name', '=', name)
      .where('key', '=', key)
      .where('reset_at', '>', now)
      .where('count', '>', 0)
      .execute();
  }

  async reset(name: string, key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('name', '=', name).where('key', '=', key).execute();
  }

  private async pruneNowAndThen(now: number): Promise<void> {
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    try {
      await this.db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
    } catch (error) {
      // A missed pruning only leaves expired rows, which every read ignores, until the next one.
      logger.error('rate limit pruning failed', error);
    }
  }
}
