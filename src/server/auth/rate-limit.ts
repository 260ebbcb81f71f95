import { clock } from '../clock';
import { AppError } from '../errors';

/**
 * A fixed-window counter per key, in memory: one Node process serves the app (README "Deploy"), so memory is
 * the shared state. Windows are pruned as they are read, and wholesale when the map grows large.
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number; lastAt: number }>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** True when the key has reached its limit within the current window. */
  isLimited(key: string): boolean {
    const entry = this.current(key);
    return entry !== undefined && entry.count >= this.limit;
  }

  /**
   * How long the key must still wait: nothing for its first `free` hits in the window, then 1 s, 2 s, 4 s… (at most a
   * minute) after the last one. Guessing slows to a crawl long before the lock, and nobody else is locked out.
   */
  waitMs(key: string, free: number): number {
    const entry = this.current(key);
    if (!entry || entry.count < free) return 0;
    const delay = Math.min(1000 * 2 ** (entry.count - free), 60_000);
    return Math.max(0, entry.lastAt + delay - clock.now().getTime());
  }

  /** How long until the key's window ends (0 when it has none). */
  resetInMs(key: string): number {
    const entry = this.current(key);
    return entry ? Math.max(0, entry.resetAt - clock.now().getTime()) : 0;
  }

  hit(key: string): void {
    const now = clock.now().getTime();
    const entry = this.current(key);
    if (entry) {
      entry.count += 1;
      entry.lastAt = now;
    } else this.hits.set(key, { count: 1, resetAt: now + this.windowMs, lastAt: now });
    if (this.hits.size > 50_000) this.prune(now);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private current(key: string) {
    const entry = this.hits.get(key);
    if (entry && entry.resetAt <= clock.now().getTime()) {
      this.hits.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(now: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
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
export function smtpTestRefusal(limits: RateLimits, organizationId: number): AppError | null {
  const key = String(organizationId);
  if (limits.smtpTestsByOrganization.isLimited(key)) {
    return new AppError('TOO_MANY_REQUESTS', `${SMTP_TESTS_PER_HOUR} e-mails de test par heure au plus : réessayez plus tard`);
  }
  limits.smtpTestsByOrganization.hit(key);
  return null;
}

/** Counts one heavy write, or says why it is refused (the refused one is not counted). */
export function heavyWriteRefusal(limits: RateLimits, sessionId: string, organizationId: number): AppError | null {
  const org = String(organizationId);
  if (limits.heavyWritesBySession.isLimited(sessionId) || limits.heavyWritesByOrganization.isLimited(org)) {
    return new AppError(
      'TOO_MANY_REQUESTS',
      'Trop d’opérations lourdes en une minute (copies, imports, envois, PDF) : réessayez dans un instant',
    );
  }
  limits.heavyWritesBySession.hit(sessionId);
  limits.heavyWritesByOrganization.hit(org);
  return null;
}

export function createRateLimits(config: {
  loginMaxFailures: number;
  loginWindowMs: number;
  loginMaxFailuresPerIp: number;
  registerMaxPerHour: number;
  resetMailMaxPerHour: number;
  apiKeyMaxPerMinute: number;
}): RateLimits {
  const HOUR = 60 * 60 * 1000;
  return {
    loginFailuresByEmailAndIp: new RateLimiter(config.loginMaxFailures, config.loginWindowMs),
    loginFailuresByIp: new RateLimiter(config.loginMaxFailuresPerIp, config.loginWindowMs),
    registrationsByIp: new RateLimiter(config.registerMaxPerHour, HOUR),
    resetMailsByEmail: new RateLimiter(config.resetMailMaxPerHour, HOUR),
    heavyWritesBySession: new RateLimiter(HEAVY_WRITES_PER_SESSION, 60_000),
    heavyWritesByOrganization: new RateLimiter(HEAVY_WRITES_PER_ORGANIZATION, 60_000),
    pdfDownloadsByIp: new RateLimiter(PDF_DOWNLOADS_PER_IP, 60_000),
    smtpTestsByOrganization: new RateLimiter(SMTP_TESTS_PER_HOUR, HOUR),
    requestsByApiKey: new RateLimiter(config.apiKeyMaxPerMinute, 60_000),
  };
}
