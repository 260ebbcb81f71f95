import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Feedback carries a PNG screenshot of the whole page. */
export const FEEDBACK_BODY_LIMIT = 10 * 1024 * 1024;

export function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `La requête est trop volumineuse (${Math.round(limit / 1024 / 1024)} Mo au plus)`);
}

/** Refuses early on a declared length over the limit, and stops reading once an undeclared body passes it. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** An empty body is `undefined` (a procedure without input); anything else must be JSON. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('BAD_REQUEST', 'Le corps de la requête n’est pas un JSON valide');
  }
}
