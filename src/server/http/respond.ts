import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { getTRPCErrorFromUnknown } from '@trpc/server';
import { fieldsOf, messagesOf } from '../errors';
import { inputSchemaOf } from '../input-schemas';
import { logger } from '../logger';
import { AppResponse } from './app-response';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** An answer already serialized (a stored idempotent answer is sent again byte for byte). */
/**
 * Every 503 here is a moment's refusal (heavy work queued full or over its budget, the process stopping, a provider
 * down): it says when to come back, as HTTP lets it, unless a more precise Retry-After was set before.
 */
const RETRY_AFTER_SECONDS = '5';
/**
 * HTTP requires a 401 to say how to authenticate: a bearer API key (a browser's session cookie is not a scheme HTTP
 * names). A browser shows no login box for the Bearer scheme, so the application's own login page stays in charge.
 */
export const WWW_AUTHENTICATE = 'Bearer realm="Facturier"';

/** `payload`: the JSON's text, or its UTF-8 bytes (a kept answer's, encoded once: kept-answers.ts's answerBytes). */
export function sendJsonText(res: ServerResponse, status: number, payload: string | Buffer): void {
  // One writeHead with every header: cheaper than a setHeader each on the hot path; Set-Cookie set earlier is kept.
  const headers: OutgoingHttpHeaders = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
  };
  if (status === 503 && !res.hasHeader('retry-after')) headers['Retry-After'] = RETRY_AFTER_SECONDS;
  if (status === 401 && !res.hasHeader('www-authenticate')) headers['WWW-Authenticate'] = WWW_AUTHENTICATE;
  res.writeHead(status, headers);
  res.end(payload);
}

/**
 * JSON `{ messages }` with the HTTP status; a 500 says only `Erreur interne du serveur`.
 * `procedure` is the tRPC path that refused the input, if any: its schema names the invalid fields, as tRPC's
 * error formatter does for /api/trpc. A 400 about fields also carries `fields` ({ path: message }), the same object
 * as tRPC's `data.fields`, so a REST client can show each message beside its field.
 */
export function sendError(res: ServerResponse, cause: unknown, procedure?: string): void {
  const { status, body } = errorAnswer(cause, procedure, answerRequestId(res));
  sendJsonText(res, status, body);
}

/**
 * The error answer of `sendError`, as status and JSON text (an idempotent request stores it). `requestId` names the
 * request in the line a 500 logs (a read holds no request scope: logger.ts).
 */
export function errorAnswer(cause: unknown, procedure?: string, requestId?: string): { status: number; body: string } {
  const error = getTRPCErrorFromUnknown(cause);
  const status = getHTTPStatusCodeFromError(error);
  if (status >= 500) logger.error('request failed', error.cause ?? error, requestId);
  const fields = fieldsOf(error);
  return { status, body: JSON.stringify({ messages: messagesOf(error, inputSchemaOf(procedure)), ...(fields ? { fields } : {}) }) };
}

/** The id the handler gave this answer (http/handler.ts sets it first). */
export function answerRequestId(res: ServerResponse): string | undefined {
  if (res instanceof AppResponse) return res.requestId || undefined;
  const id = res.getHeader('X-Request-Id');
  return typeof id === 'string' ? id : undefined;
}

export function sendMessage(res: ServerResponse, status: number, messages: string): void {
  sendJson(res, status, { messages });
}
