import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors';

export { DEFAULT_BODY_LIMIT } from '../door-formats';

export function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `La requête est trop volumineuse (${Math.round(limit / 1024 / 1024)} Mo au plus)`);
}

/**
 * Refuses early on a declared length over the limit, and stops reading once an undeclared (chunked) body passes it.
 * The request is paused there, not destroyed: a destroyed request drops its socket (`req.socket` turns null) while
 * the 413 is still to be written. The rest of the upload is not read; the client stops sending once the 413 arrives.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.pause();
      settle(tooLarge(limit));
    };
    const onEnd = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new AppError('BAD_REQUEST', 'La requête a été interrompue avant la fin de son envoi'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
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
