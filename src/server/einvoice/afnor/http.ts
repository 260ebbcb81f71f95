import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { OutboundRefusedError, resolveOutbound } from '../../net/outbound-guard';
import { AfnorError, type AfnorService } from './errors';

/** How long one call to the platform may take, connection and answer included. */
export const AFNOR_TIMEOUT_MS = 15_000;
/** The most of a JSON answer kept; a downloaded flow says its own limit (`maxBytes`). */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export interface AfnorRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  timeoutMs?: number;
  /** Ends the exchange at once (the server stopping): the call fails as `aborted`. */
  signal?: AbortSignal;
  /** The most of the answer read: past it, the call fails as `too-large`. */
  maxBytes?: number;
}

export interface AfnorAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/**
 * One HTTP call to a platform URL the user typed: through the outbound guard (the host is resolved and checked, then
 * the socket goes to that very address, so DNS rebinding cannot reach an internal one), no redirect followed, a
 * timeout for the whole exchange. Answers any status; throws AfnorError only when no answer came.
 */
export async function afnorHttp(service: AfnorService, request: AfnorRequest, allowPrivate: boolean): Promise<AfnorAnswer> {
  const url = new URL(request.url);
  const port = portOf(url);
  let address: string;
  try {
    address = await resolveOutbound(url.hostname, port, { allowPrivate, ports: [port] });
  } catch (error) {
    if (error instanceof OutboundRefusedError) {
      throw new AfnorError(
        service,
        'refused-target',
        `l’adresse ${url.host} n’est pas joignable depuis Facturier (adresses internes refusées)`,
      );
    }
    throw error;
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const timeoutMs = request.timeoutMs ?? AFNOR_TIMEOUT_MS;
  const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { answer: AfnorAnswer } | { error: AfnorError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ('answer' in outcome) resolve(outcome.answer);
      else reject(outcome.error);
    };
    const req = (url.protocol === 'https:' ? https : http).request(
      {
        method: request.method,
        host: address,
        port,
        path: `${url.pathname}${url.search}`,
        // The certificate is checked against the name typed, while the socket goes to the address checked above.
        servername: net.isIP(hostname) ? undefined : hostname,
        headers: {
          accept: 'application/json',
          ...request.headers,
          host: url.host,
          ...(body ? { 'content-length': String(body.length) } : {}),
        },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > (request.maxBytes ?? MAX_ANSWER_BYTES)) {
            response.destroy();
            finish({ error: new AfnorError(service, 'too-large', 'réponse trop volumineuse', response.statusCode ?? null) });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish({ answer: { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) } }),
        );
        response.on('error', () => finish({ error: new AfnorError(service, 'network', 'connexion interrompue pendant la réponse') }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ error: new AfnorError(service, 'timeout', `pas de réponse en ${Math.max(1, Math.round(timeoutMs / 1000))} s`) });
    }, timeoutMs);
    const abort = () => {
      req.destroy();
      finish({ error: new AfnorError(service, 'aborted', 'échange interrompu par l’arrêt du serveur') });
    };
    if (request.signal?.aborted) abort();
    request.signal?.addEventListener('abort', abort, { once: true });
    req.on('close', () => request.signal?.removeEventListener('abort', abort));
    req.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'ECONNREFUSED'
          ? 'connexion refusée (le service est-il démarré ? l’URL est-elle juste ?)'
          : error.code === 'ECONNRESET'
            ? 'connexion interrompue'
            : error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT')
              ? `certificat TLS refusé (${error.code})`
              : `échec de la connexion (${error.code ?? error.message})`;
      finish({ error: new AfnorError(service, 'network', reason) });
    });
    req.end(body);
  });
}
