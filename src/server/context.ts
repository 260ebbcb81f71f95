import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Db } from './db/connection';
import type { Env } from './env';
import type { Mailer } from './mail/mailer';
import type { RateLimits } from './auth/rate-limit';
import type { Session, ValidSession } from './auth/sessions';
import { validateSessionToken } from './auth/sessions';
import { readCookie, sessionCookie } from './auth/cookies';
import type { BuildInfo } from './build-info';
import type { IssueArchiver } from './services/issue-archive';
import type { EinvoiceDeps } from './services/einvoice-send';
import type { PdfDeps } from './pdf/document-pdf';
import { clientIp } from './net/client-ip';
import { authenticateApiKey, bearerSecretOf } from './auth/api-keys';
import type { PaymentProvider } from './payments/provider';

/** What lives as long as the process: handed to every request's context. */
export interface AppDeps {
  db: Db;
  env: Env;
  mailer: Mailer;
  rateLimits: RateLimits;
  buildInfo: BuildInfo;
  /** Keeps the PDF of a document just issued, after its transaction (services/issue-archive.ts). */
  issueArchiver: IssueArchiver;
  /** The approved platform's connector and what sending to it needs (services/einvoice-send.ts). */
  einvoice: EinvoiceDeps;
  /** Prints a document's public page (the PDF a mail attaches when none is kept). */
  pdf: PdfDeps;
  /** Stripe when configured; null = plans applied at once. */
  payments: PaymentProvider | null;
}

export interface Context extends AppDeps {
  session: Session | null;
  ip: string;
  /** The client's User-Agent header ('' when none): recorded with an estimate accepted online. */
  userAgent: string;
  /** Adds a Set-Cookie header to this request's answer (both doors). */
  setCookie(header: string): void;
}

/** For tests and scripts: a context without HTTP, on a real database. */
export function createContextInner(
  deps: AppDeps,
  opts: { session?: Session | null; ip?: string; userAgent?: string; setCookie?: (h: string) => void } = {},
): Context {
  // Listed rather than spread: built on every request, and spreads showed in the profile (`npm run bench`).
  return {
    db: deps.db,
    env: deps.env,
    mailer: deps.mailer,
    rateLimits: deps.rateLimits,
    buildInfo: deps.buildInfo,
    issueArchiver: deps.issueArchiver,
    einvoice: deps.einvoice,
    pdf: deps.pdf,
    payments: deps.payments,
    session: opts.session ?? null,
    ip: opts.ip ?? '127.0.0.1',
    userAgent: opts.userAgent ?? '',
    setCookie: opts.setCookie ?? (() => {}),
  };
}

/**
 * For HTTP: resolves the session cookie, slides its expiry, and lets procedures set cookies on `res`. The context
 * comes at once, without a promise, where the session's lookup does (most do: auth/sessions.ts); callers take it as
 * it comes, since even an `await` of a ready value costs every request a pause.
 */
export function createContext(deps: AppDeps, req: IncomingMessage, res: ServerResponse): Context | Promise<Context> {
  const setCookie = (header: string) => res.appendHeader('Set-Cookie', header);
  const ip = clientIp(req, deps.env.trustedProxies);
  const userAgent = String(req.headers['user-agent'] ?? '').slice(0, 500);
  const authorization = req.headers.authorization;
  // An API key: the request stands or falls with it, the cookie is never read instead.
  if (authorization !== undefined) return apiKeyContext(deps, res, authorization, { ip, userAgent, setCookie });
  const token = readCookie(req.headers.cookie, 'session');
  if (!token) return createContextInner(deps, { session: null, ip, userAgent, setCookie });
  const contextOf = (result: ValidSession | null) => {
    if (result?.renewed) setCookie(sessionCookie(token, result.session.expiresAt, deps.env.sessionSecure));
    return createContextInner(deps, { session: result?.session ?? null, ip, userAgent, setCookie });
  };
  const found = validateSessionToken(deps.db, token, { ip });
  return found instanceof Promise ? found.then(contextOf) : contextOf(found);
}

async function apiKeyContext(
  deps: AppDeps,
  res: ServerResponse,
  authorization: string,
  seen: { ip: string; userAgent: string; setCookie: (header: string) => void },
): Promise<Context> {
  const result = await authenticateApiKey(deps.db, deps.rateLimits.requestsByApiKey, bearerSecretOf(authorization));
  if ('refusal' in result) {
    if (result.retryAfterSeconds) res.setHeader('Retry-After', String(result.retryAfterSeconds));
    throw result.refusal;
  }
  return createContextInner(deps, { session: result.session, ...seen });
}
