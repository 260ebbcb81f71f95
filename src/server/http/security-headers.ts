/**
 * The page may load only what this server serves: no inline or foreign script, no plugin, no framing by another
 * site (clickjacking on the app and on the public share page). Styles allow 'unsafe-inline' because Ark UI's
 * positioning and html2canvas write style elements at run time; a style cannot run code, a script can.
 * Images also come as data: and blob: URLs (logo previews, screenshots of the feedback form).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** One year, as browsers' preload lists ask; only sent when the app is reached over https (APP_URL). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * What every answer carries — HTML, API and assets alike — as name, value, name, value…: the server's responses add
 * them to each status line (app-response.ts), so no door forgets them; a door that sets one of them itself keeps its
 * own. Vite's development server injects inline scripts (React refresh): the policy is left out there only.
 */
export function securityHeadersOf(opts: { https: boolean; development: boolean }): readonly string[] {
  return Object.freeze([
    'X-Content-Type-Options',
    'nosniff',
    'X-Frame-Options',
    'DENY',
    'Referrer-Policy',
    'strict-origin-when-cross-origin',
    'Permissions-Policy',
    'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy',
    'same-origin',
    ...(opts.development ? [] : ['Content-Security-Policy', CONTENT_SECURITY_POLICY]),
    ...(opts.https ? ['Strict-Transport-Security', HSTS] : []),
  ]);
}

/**
 * A path whose percent-escapes do not decode (`/%E0%A4%A`) names nothing: a 400, not a 500 from some decoder. The
 * decoded value is returned and compared, never thrown away: a bundler that takes `decodeURIComponent` for a pure
 * function drops a call whose result is unused, and the built server then let every malformed path through.
 */
export function isMalformedPath(pathname: string): boolean {
  // Without a '%' there is nothing to decode: most paths, spared a decoding per request.
  return pathname.includes('%') && decodedPath(pathname) === undefined;
}

/** `pathname` with its percent-escapes decoded, or undefined when one does not decode. */
function decodedPath(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}
