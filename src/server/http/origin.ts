import type { IncomingMessage } from 'node:http';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing requests from a foreign Origin are refused (403). Browsers send Origin on every
 * cross-site POST; the cookie's SameSite=Lax already blocks most of it, this closes the rest. A request without
 * Origin (curl, scripts, the seed) is not a browser acting for someone else.
 */
export function isForeignOrigin(req: IncomingMessage, appUrl: string): boolean {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return false;
  // An Authorization header replaces the cookie (context.ts never falls back to it): a foreign page can only act with
  // a key it already holds, so there is no visitor's session to protect.
  if (req.headers.authorization !== undefined) return false;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  if (origin === 'null') return true;
  const allowed = new Set([new URL(appUrl).origin]);
  const host = req.headers.host;
  if (host) {
    allowed.add(`http://${host}`);
    allowed.add(`https://${host}`);
  }
  return !allowed.has(origin);
}
