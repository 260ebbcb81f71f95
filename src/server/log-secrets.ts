/**
 * Parts of a URL that are keys, not names: whoever reads them can open what they point at without a session (a
 * shared document and its PDF, a quote to accept, a private calendar feed, a password reset, an invitation, an
 * e-mail confirmation). Logs go to shippers, terminals and support tickets, so these are never written whole.
 */
const SECRET_SEGMENTS = [
  /(\/share\/)([^/?#\s"'\\]+)/g, // /share/{uuid} (the public page, which the PDF printer loads too), /api/share/{uuid}/…
  /(\/documents\/download\/)([^/?#\s"'\\]+)/g,
  /(\/api\/calendar\/)([^/?#\s"'\\.]+)/g, // /api/calendar/{token}.ics
  /([?&](?:token|invitation|code|key)=)([^&#\s"'\\]+)/gi, // ?token= of the reset, confirmation and invitation links
];

/** How much of a secret stays readable: enough to tell two apart in a log, far too little to use. */
export const KEPT_CHARACTERS = 4;

const masked = (secret: string) => (secret.length <= KEPT_CHARACTERS ? secret : `${secret.slice(0, KEPT_CHARACTERS)}…`);

/** The text with every secret of a URL in it cut to its first characters and `…`. */
export function maskSecrets(text: string): string {
  let out = text;
  for (const pattern of SECRET_SEGMENTS) out = out.replace(pattern, (_, before: string, secret: string) => `${before}${masked(secret)}`);
  return out;
}
