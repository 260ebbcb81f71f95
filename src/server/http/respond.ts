import type { ServerResponse } from 'node:http';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { getTRPCErrorFromUnknown } from '@trpc/server';
import { messagesOf } from '../errors';
import { inputSchemaOf } from '../input-schemas';
import { logger } from '../logger';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  // One writeHead with every header: cheaper than a setHeader each on the hot path; Set-Cookie set earlier is kept.
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
  });
  res.end(payload);
}

/**
 * CONTRACT.md "Errors": JSON `{ messages }` with the HTTP status; a 500 says only `Erreur interne du serveur`.
 * `procedure` is the tRPC path that refused the input, if any: its schema names the invalid fields, as tRPC's
 * error formatter does for /api/trpc.
 */
export function sendError(res: ServerResponse, cause: unknown, procedure?: string): void {
  const error = getTRPCErrorFromUnknown(cause);
  const status = getHTTPStatusCodeFromError(error);
  if (status >= 500) logger.error('request failed', error.cause ?? error);
  sendJson(res, status, { messages: messagesOf(error, inputSchemaOf(procedure)) });
}

export function sendMessage(res: ServerResponse, status: number, messages: string): void {
  sendJson(res, status, { messages });
}
