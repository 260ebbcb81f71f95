import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { clock } from '../clock';
import type { Db } from '../db/connection';
import {
  deleteIdempotencyKeysBefore,
  findIdempotencyKey,
  type IdempotencyScope,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
  storeIdempotentAnswer,
} from '../db/queries/idempotency-keys';
import { AppError } from '../errors';

/**
 * "nothing doubled": a POST sent with an `Idempotency-Key` header is applied once.
 *
 * - Scope: the session's organisation and user, the door and the procedure. REST stores under 'rest:<procedure>';
 *   /api/trpc under 'trpc:<procedure>' and, in a batch (one header for several calls), 'trpc:<procedure>#<index>':
 *   the typed client sends each mutation alone with its own key (src/client/trpc.ts), so a batch only comes from other
 *   clients, which then must repeat the same batch. A request without a session is not deduplicated (nothing to scope
 *   by; the auth paths create nothing a repeat could double).
 * - Reservation: the key is inserted (INSERT … ON CONFLICT DO NOTHING, atomic) before the procedure runs, with no
 *   answer yet. A repeat that finds it still running waits for the answer (up to WAIT_MS, then 409): the procedure
 *   never runs twice. A reservation left running by a process that died is taken over after STALE_MS.
 * - The first answer (status + JSON body) is stored and answered again to every repeat with the same input for 24 h.
 *   A 5xx is not stored (the key is released) so that a retry can succeed. The same key with another input is refused
 *   with 422; the header is ignored on GET, PUT and DELETE, which are repeatable by nature.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const LIFETIME_MS = 24 * 60 * 60 * 1000;
const WAIT_MS = 30_000;
const POLL_MS = 25;
const STALE_MS = 2 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export const IDEMPOTENCY_KEY_REUSED =
  'Cette clé Idempotency-Key a déjà servi pour une autre requête : envoyez une nouvelle clé pour une nouvelle action';
export const IDEMPOTENCY_KEY_RUNNING = 'La même requête est encore en cours de traitement : réessayez dans un instant';
export const IDEMPOTENCY_KEY_INVALID = 'L’en-tête Idempotency-Key doit compter de 1 à 255 caractères visibles, sans espace';

/** An HTTP answer as stored: its status and its JSON text. */
export interface StoredHttpAnswer {
  status: number;
  body: string;
}

/** The request's key, if it sent one; a malformed key is a 400 rather than silently ignored (it would not protect). */
export function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const header = req.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!KEY_PATTERN.test(key)) throw new AppError('BAD_REQUEST', IDEMPOTENCY_KEY_INVALID);
  return key;
}

/** The fingerprint of a request's input: a repeat must send the same input to get the first answer. */
export const requestHash = (input: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(input) ?? '')
    .digest('hex');

export async function runIdempotent(
  db: Db,
  params: { scope: IdempotencyScope; requestHash: string },
  run: () => Promise<StoredHttpAnswer>,
): Promise<StoredHttpAnswer> {
  const { scope } = params;
  const now = clock.now().getTime();
  await deleteIdempotencyKeysBefore(db, { before: new Date(now - LIFETIME_MS).toISOString() });
  const deadline = Date.now() + WAIT_MS; // real time: tests may stop the clock
  for (;;) {
    const createdAt = clock.now().toISOString();
    if (await reserveIdempotencyKey(db, { scope, requestHash: params.requestHash, createdAt })) {
      let answer: StoredHttpAnswer;
      try {
        answer = await run();
      } catch (error) {
        await releaseIdempotencyKey(db, scope);
        throw error;
      }
      if (answer.status >= 500) await releaseIdempotencyKey(db, scope);
      else await storeIdempotentAnswer(db, { scope, status: answer.status, body: answer.body });
      return answer;
    }
    const stored = await findIdempotencyKey(db, scope);
    if (!stored) continue; // released between our insert and our read: try to reserve again
    if (stored.requestHash !== params.requestHash) throw new AppError('UNPROCESSABLE_CONTENT', IDEMPOTENCY_KEY_REUSED);
    if (stored.status !== null && stored.body !== null) return { status: stored.status, body: stored.body };
    if (clock.now().getTime() - Date.parse(stored.createdAt) > STALE_MS) {
      await releaseIdempotencyKey(db, scope);
      continue;
    }
    if (Date.now() > deadline) throw new AppError('CONFLICT', IDEMPOTENCY_KEY_RUNNING);
    await sleep(POLL_MS);
  }
}
