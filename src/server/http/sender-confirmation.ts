import type { ServerResponse } from 'node:http';
import type { Db } from '../db/connection';
import { confirmSenderToken, SENDER_LINK_INVALID, senderConfirmed, senderLinkExpired } from '../services/sender-address';

/** The link mailed to a new sender address: a small page of the server's own, readable without an account. */
export const SENDER_CONFIRM_PREFIX = '/sender/confirm/';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Light and dark follow the reader's system, as the app does; no script, no outside resource. */
const STYLE = `
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --fg: #1b1f24; --muted: #5b6470; --ok: #157347; --ko: #b42318; }
@media (prefers-color-scheme: dark) { :root { --bg: #111418; --card: #1b2027; --fg: #e8eaed; --muted: #a3acb8; --ok: #4cc38a; --ko: #f97066; } }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 30rem; margin: 1.5rem; padding: 2rem; background: var(--card); border-radius: 12px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
h1.ok { color: var(--ok); } h1.ko { color: var(--ko); }
p { margin: 0 0 1rem; } p.brand { color: var(--muted); font-size: 0.875rem; margin: 1.5rem 0 0; }
a { color: inherit; }`;

function page(res: ServerResponse, status: number, ok: boolean, title: string, text: string, appUrl: string): void {
  const html = `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} — Facturier</title><style>${STYLE}</style></head>
<body><main><h1 class="${ok ? 'ok' : 'ko'}">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>
<p class="brand"><a href="${escapeHtml(`${appUrl}/settings/email`)}">Facturier — Paramètres → Envoi d’emails</a></p></main></body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(html);
}

/** Opens the mailed link: confirms the address and says so in French, or says why not (expired, replaced, unknown). */
export async function serveSenderConfirmation(res: ServerResponse, pathname: string, deps: { db: Db; appUrl: string }): Promise<void> {
  const token = pathname.slice(SENDER_CONFIRM_PREFIX.length).replace(/\/+$/, '');
  const result = await confirmSenderToken(deps.db, token);
  switch (result.outcome) {
    case 'confirmed':
      return page(res, 200, true, 'Adresse d’expédition confirmée', senderConfirmed(result), deps.appUrl);
    case 'already':
      return page(res, 200, true, 'Adresse déjà confirmée', senderConfirmed(result), deps.appUrl);
    case 'expired':
      return page(res, 410, false, 'Lien expiré', senderLinkExpired(result.address), deps.appUrl);
    default:
      return page(res, 404, false, 'Lien non valable', SENDER_LINK_INVALID, deps.appUrl);
  }
}
