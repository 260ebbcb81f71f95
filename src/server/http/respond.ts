import type { ServerResponse } from 'node:http';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { getTRPCErrorFromUnknown } from '@trpc/server';
import { messagesOf } from '../errors';
import { logger } from '../logger';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.setHeader('Cache-Control', 'no-store');
  res.end(payload);
}

/** CONTRACT.md "Errors": JSON `{ messages }` with the HTTP status; a 500 says only `Erreur interne du serveur`. */
export function sendError(res: ServerResponse, cause: unknown): void {
  const error = getTRPCErrorFromUnknown(cause);
  const status = getHTTPStatusCodeFromError(error);
  if (status >= 500) logger.error('request failed', error.cause ?? error);
  sendJson(res, status, { messages: messagesOf(error) });
}

export function sendMessage(res: ServerResponse, status: number, messages: string): void {
  sendJson(res, status, { messages });
}
