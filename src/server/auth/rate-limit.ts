import { clock } from '../clock';
import type { Db } from '../db/connection';
import { AppError } from '../errors';
import { DatabaseRateStore, delayAfter, MemoryRateStore, type RateRule, type RateStore, type RateWindow } from './rate-store';

/** A fixed-window counter per key, named so that several limiters share one store. */
export class RateLimiter {
  constructor(
    readonly name: string,
    private readonly rule: RateRule,
    private readonly store: RateStore = new MemoryRateStore(),
  ) {}

  get limit(): number {
    return this.rule.limit;
  }

  /** The key's current window, to read several figures of it with one look-up (`limitedBy`, `waitOf`). */
  window(key: string): Promise<RateWindow | undefined> {
    return this.store.get(this.name, key, clock.now().getTime());
  }

  /** True when the window has reached the limit. */
  limitedBy(window: RateWindow | undefined): boolean {
    return window !== undefined && window.count >= this.rule.limit;
  }

  /** How long the key must still wait after its last hit before the next is admitted (`delayAfter`); 0 when none. */
  waitOf(window: RateWindow | undefined): number {
    if (!window) return 0;
    return Math.max(0, window.lastAt + delayAfter(window.count, this.rule.freeHits) - clock.now().getTime());
  }

  /** How long until the key's window ends (0 when it has none). */
  async resetInMs(key: string): Promise<number> {
    const window = await this.window(key);
    return window ? Math.max(0, window.resetAt - clock.now().getTime()) : 0;
  }

  /**
   * Counts one hit unless the limit is reached or the key must still wait; false, and nothing counted, when so.
   * Atomic: of many concurrent takes, exactly those within the rule succeed, on every process.
   */
  take(key: string): Promise<boolean> {
    return this.store.take(this.name, key, this.rule, clock.now().getTime());
  }

  /** Gives back one hit taken in the running window: a reservation whose attempt turned out not to count. */
  release(key: string): Promise<void> {
    return this.store.release(this.name, key, clock.now().getTime());
  }

  reset(key: string): Promise<void> {
    return this.store.reset(this.name, key);
  }
}

/**
 * Takes one hit of each limiter in turn; at the first refusal gives back those already taken and returns the refusing
 * limiter (null when all took). Each count stays exact under concurrency: never more than a limit, only briefly more
 * than the attempts that count.
 */
export async function takeEach(takes: [RateLimiter, string][]): Promise<RateLimiter | null> {
  for (const [index, [limiter, key]] of takes.entries()) {
    if (await limiter.take(key)) continue;
    await Promise.all(takes.slice(0, index).map(([taken, takenKey]) => taken.release(takenKey)));
    return limiter;
  }
  return null;
}

/** The limiters "by IP" count a client by `rateLimitKeyOf(ip)` (net/client-ip.ts): an IPv6 /64 is one client. */
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

/** Failed logins from one address on one e-mail before each further try must wait (1 s, 2 s, 4 s…). */
export const FREE_LOGIN_ATTEMPTS = 3;
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
  const refusedBy = await takeEach([
    [limits.heavyWritesBySession, sessionId],
    [limits.heavyWritesByOrganization, String(organizationId)],
  ]);
  if (!refusedBy) return null;
  return new AppError(
    'TOO_MANY_REQUESTS',
    'Trop d’opérations lourdes en une minute (copies, imports, envois, PDF) : réessayez dans un instant',
  );
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
  const limiter = (name: string, limit: number, windowMs: number, freeHits?: number) =>
    new RateLimiter(name, { limit, windowMs, freeHits }, store);
  return {
    loginFailuresByEmailAndIp: limiter('login_failures_email_ip', config.loginMaxFailures, config.loginWindowMs, FREE_LOGIN_ATTEMPTS),
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

/** A sender confirmation link is a mail through the same SMTP server as a test: counted in the same hourly budget. */
export async function senderLinkRefusal(limits: RateLimits, organizationId: number): Promise<AppError | null> {
  if (await limits.smtpTestsByOrganization.take(String(organizationId))) return null;
  return new AppError(
    'TOO_MANY_REQUESTS',
    `${SMTP_TESTS_PER_HOUR} e-mails de test ou liens de confirmation par heure au plus : réessayez plus tard`,
  );
}
