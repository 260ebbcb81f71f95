import { sql } from 'kysely';
import { clock } from '../clock';
import type { Db } from '../db/connection';
import { AppError } from '../errors';
import { logger } from '../logger';

/** One key's current window: hits counted, when it ends and when the last hit came (epoch milliseconds). */
export interface RateWindow {
  count: number;
  resetAt: number;
  lastAt: number;
}

/**
 * Where the windows live. SQLite runs as one process (`npm start`): memory is the shared state, and the fastest.
 * PostgreSQL serves several processes behind a load balancer: the windows are rows of `rate_limits` (migration
 * 0041), or a brute force spread over N processes would get N times the tries.
 */
export interface RateStore {
  /** The key's unexpired window, if any. */
  get(name: string, key: string, now: number): Promise<RateWindow | undefined>;
  /** Counts one hit (a new window when none is running). */
  hit(name: string, key: string, windowMs: number, now: number): Promise<void>;
  /** Counts one hit unless `limit` is already reached: false (and nothing counted) when it is. Atomic. */
  take(name: string, key: string, limit: number, windowMs: number, now: number): Promise<boolean>;
  reset(name: string, key: string): Promise<void>;
}

/** Windows are pruned as they are read, and wholesale when the map grows large. */
export class MemoryRateStore implements RateStore {
  private readonly windows = new Map<string, RateWindow>();

  async get(name: string, key: string, now: number): Promise<RateWindow | undefined> {
    return this.current(`${name}\n${key}`, now);
  }

  async hit(name: string, key: string, windowMs: number, now: number): Promise<void> {
    const id = `${name}\n${key}`;
    const entry = this.current(id, now);
    if (entry) {
      entry.count += 1;
      entry.lastAt = now;
    } else this.windows.set(id, { count: 1, resetAt: now + windowMs, lastAt: now });
    if (this.windows.size > 50_000) this.prune(now);
  }

  async take(name: string, key: string, limit: number, windowMs: number, now: number): Promise<boolean> {
    // No await between the check and the count: one process, so nothing can come in between.
    const entry = this.current(`${name}\n${key}`, now);
    if (entry && entry.count >= limit) return false;
    await this.hit(name, key, windowMs, now);
    return true;
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

/**
 * The windows in the database, shared by every process: each hit is one upsert (`insert … on conflict do update set
 * count = count + 1`), which PostgreSQL applies under the row's lock, so concurrent hits from several processes all
 * count. An expired window is restarted by the same statement.
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

  async hit(name: string, key: string, windowMs: number, now: number): Promise<void> {
    await this.upsert(name, key, windowMs, now, undefined);
    await this.pruneNowAndThen(now);
  }

  async take(name: string, key: string, limit: number, windowMs: number, now: number): Promise<boolean> {
    const taken = await this.upsert(name, key, windowMs, now, limit);
    await this.pruneNowAndThen(now);
    return taken;
  }

  async reset(name: string, key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('name', '=', name).where('key', '=', key).execute();
  }

  /** With a limit, the update only happens below it (or on an expired window): no row back means refused. */
  private async upsert(name: string, key: string, windowMs: number, now: number, limit: number | undefined): Promise<boolean> {
    const expired = sql<boolean>`rate_limits.reset_at <= ${now}`;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ name, key, count: 1, reset_at: now + windowMs, last_at: now })
      .onConflict((oc) => {
        const update = oc.columns(['name', 'key']).doUpdateSet({
          count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
          reset_at: sql<number>`case when ${expired} then ${now + windowMs} else rate_limits.reset_at end`,
          last_at: now,
        });
        return limit === undefined ? update : update.where(sql<boolean>`(${expired} or rate_limits.count < ${limit})`);
      })
      .returning('count')
      .executeTakeFirst();
    return row !== undefined;
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

/** A fixed-window counter per key, named so that several limiters share one store. */
export class RateLimiter {
  constructor(
    readonly name: string,
    readonly limit: number,
    private readonly windowMs: number,
    private readonly store: RateStore = new MemoryRateStore(),
  ) {}

  /** The key's current window, to read several figures of it with one look-up (`limitedBy`, `waitOf`). */
  window(key: string): Promise<RateWindow | undefined> {
    return this.store.get(this.name, key, clock.now().getTime());
  }

  /** True when the window has reached the limit. */
  limitedBy(window: RateWindow | undefined): boolean {
    return window !== undefined && window.count >= this.limit;
  }

  /**
   * How long the key must still wait: nothing for its first `free` hits in the window, then 1 s, 2 s, 4 s… (at most a
   * minute) after the last one. Guessing slows to a crawl long before the lock, and nobody else is locked out.
   */
  waitOf(window: RateWindow | undefined, free: number): number {
    if (!window || window.count < free) return 0;
    const delay = Math.min(1000 * 2 ** (window.count - free), 60_000);
    return Math.max(0, window.lastAt + delay - clock.now().getTime());
  }

  /** True when the key has reached its limit within the current window. */
  async isLimited(key: string): Promise<boolean> {
    return this.limitedBy(await this.window(key));
  }

  /** How long until the key's window ends (0 when it has none). */
  async resetInMs(key: string): Promise<number> {
    const window = await this.window(key);
    return window ? Math.max(0, window.resetAt - clock.now().getTime()) : 0;
  }

  hit(key: string): Promise<void> {
    return this.store.hit(this.name, key, this.windowMs, clock.now().getTime());
  }

  /** Counts one hit unless the limit is reached; false, and nothing counted, when it is. */
  take(key: string): Promise<boolean> {
    return this.store.take(this.name, key, this.limit, this.windowMs, clock.now().getTime());
  }

  reset(key: string): Promise<void> {
    return this.store.reset(this.name, key);
  }
}

export interface RateLimits {
  /** Keyed by e-mail and IP together: a stranger failing on an owner's address never locks the owner out. */
  loginFailuresByEmailAndIp: RateLimiter;
  loginFailuresByIp: RateLimiter;
  registrationsByIp: RateLimiter;
  resetMailsByEmail: RateLimiter;
  heavyWritesBySession: RateLimiter;
  heavyWritesByOrganization: RateLimiter;
  /** PDFs printed for /documents/download/{uuid}: public links, so counted per client IP. */
  pdfDownloadsByIp: RateLimiter;
  /** "Envoyer un e-mail de test" opens a connection to an address the user typed: a probe if repeated, so few. */
  smtpTestsByOrganization: RateLimiter;
  /** Requests a minute per API key (API_KEY_MAX_PER_MINUTE): a script looping too fast slows down, others don't. */
  requestsByApiKey: RateLimiter;
}

/** Heavy writes (ProcedureMeta.heavy) a minute: one person working fast stays far below; a script looping does not. */
export const HEAVY_WRITES_PER_SESSION = 30;
export const HEAVY_WRITES_PER_ORGANIZATION = 120;
export const PDF_DOWNLOADS_PER_IP = 120;
export const SMTP_TESTS_PER_HOUR = 20;

/** Counts one SMTP test of the organisation, or refuses it in French. */
export async function smtpTestRefusal(limits: RateLimits, organizationId: number): Promise<AppError | null> {
  if (await limits.smtpTestsByOrganization.take(String(organizationId))) return null;
  return new AppError('TOO_MANY_REQUESTS', `${SMTP_TESTS_PER_HOUR} e-mails de test par heure au plus : réessayez plus tard`);
}

/** Counts one heavy write, or says why it is refused (the refused one is not counted). */
export async function heavyWriteRefusal(limits: RateLimits, sessionId: string, organizationId: number): Promise<AppError | null> {
  const org = String(organizationId);
  const [bySession, byOrganization] = await Promise.all([
    limits.heavyWritesBySession.isLimited(sessionId),
    limits.heavyWritesByOrganization.isLimited(org),
  ]);
  if (bySession || byOrganization) {
    return new AppError(
      'TOO_MANY_REQUESTS',
      'Trop d’opérations lourdes en une minute (copies, imports, envois, PDF) : réessayez dans un instant',
    );
  }
  await Promise.all([limits.heavyWritesBySession.hit(sessionId), limits.heavyWritesByOrganization.hit(org)]);
  return null;
}

/**
 * The app's limiters. `db` given (PostgreSQL, several processes): their windows are shared rows of the database;
 * otherwise (SQLite, one process) they are kept in this process's memory.
 */
export function createRateLimits(
  config: {
    loginMaxFailures: number;
    loginWindowMs: number;
    loginMaxFailuresPerIp: number;
    registerMaxPerHour: number;
    resetMailMaxPerHour: number;
    apiKeyMaxPerMinute: number;
  },
  db?: Db,
): RateLimits {
  const HOUR = 60 * 60 * 1000;
  const store: RateStore = db ? new DatabaseRateStore(db) : new MemoryRateStore();
  const limiter = (name: string, limit: number, windowMs: number) => new RateLimiter(name, limit, windowMs, store);
  return {
    loginFailuresByEmailAndIp: limiter('login_failures_email_ip', config.loginMaxFailures, config.loginWindowMs),
    loginFailuresByIp: limiter('login_failures_ip', config.loginMaxFailuresPerIp, config.loginWindowMs),
    registrationsByIp: limiter('registrations_ip', config.registerMaxPerHour, HOUR),
    resetMailsByEmail: limiter('reset_mails_email', config.resetMailMaxPerHour, HOUR),
    heavyWritesBySession: limiter('heavy_writes_session', HEAVY_WRITES_PER_SESSION, 60_000),
    heavyWritesByOrganization: limiter('heavy_writes_organization', HEAVY_WRITES_PER_ORGANIZATION, 60_000),
    pdfDownloadsByIp: limiter('pdf_downloads_ip', PDF_DOWNLOADS_PER_IP, 60_000),
    smtpTestsByOrganization: limiter('smtp_tests_organization', SMTP_TESTS_PER_HOUR, HOUR),
    requestsByApiKey: limiter('requests_api_key', config.apiKeyMaxPerMinute, 60_000),
  };
}
