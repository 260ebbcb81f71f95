// Sessions as in Lucia's implementation guide (lucia-auth.com, "Basic session API", SQLite): a random token in the
// cookie, SHA-256(token) as the session id in the database, sliding expiry. Not the frozen `lucia` package.
import type { Db } from '../db/connection';
import {
  deleteSession,
  deleteUserSessions,
  extendSession,
  findSession,
  findSessionNow,
  insertSession,
  type SessionRow,
  touchSession,
} from '../db/queries/sessions';
import { clock } from '../clock';
import type { Role } from '../../shared/roles';
import type { ApiKeyScope } from '../../shared/schemas/api-keys';
import { generateToken, hashToken } from './tokens';

export const SESSION_COOKIE = 'session';
const DAY = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * DAY;

export interface Session {
  id: string;
  userId: number;
  organizationId: number;
  /** The user's role in that organisation, read with the session on every request. */
  role: Role;
  expiresAt: Date;
  /**
   * The organisation's data generation, read by the session lookup in its own statement where the generations live in
   * the database (PostgreSQL, db/data-generation.ts): the request's kept answers use it instead of reading it again.
   * Absent on SQLite, whose generations live in the process, and on a session just created.
   */
  dataGeneration?: number;
  /** Set when the request carries an API key rather than a cookie (auth/api-keys.ts): it acts for the organisation. */
  apiKey?: {
    id: number;
    scope: ApiKeyScope;
    /** The `webhooks` scope: the key manages the webhooks too, within what its creator may (creatorRole). */
    webhooks: boolean;
    creatorRole: Role;
  };
}

export async function createSession(
  db: Db,
  params: { userId: number; organizationId: number; role: Role; userAgent: string; ip: string },
): Promise<{ token: string; session: Session }> {
  const token = generateToken();
  const now = clock.now();
  const session: Session = {
    id: hashToken(token),
    userId: params.userId,
    organizationId: params.organizationId,
    role: params.role,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
  };
  await insertSession(db, {
    id: session.id,
    userId: session.userId,
    organizationId: session.organizationId,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: now.toISOString(),
    userAgent: params.userAgent,
    ip: params.ip,
  });
  return { token, session };
}

/** How stale « dernière activité » may be: refreshing it on every request would make every read a write. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;
/** What a token of ours looks like (generateToken): anything else is refused without a query. */
const TOKEN_SHAPE = /^[a-z2-7]{40,64}$/;

export interface ValidSession {
  session: Session;
  /** The expiry slid forward (the session had spent half its life): the caller re-sends the cookie with the new date. */
  renewed: boolean;
}

/**
 * Resolves a cookie token to a live session. On every request: where the handle reads directly (SQLite outside a
 * transaction) and nothing is to be written (an expired session deleted, the last visit noted, the expiry slid), the
 * answer comes at once, without a promise; callers `await` it either way.
 */
export function validateSessionToken(db: Db, token: string, seenFrom?: { ip: string }): ValidSession | null | Promise<ValidSession | null> {
  if (!TOKEN_SHAPE.test(token)) return null; // not one of ours: skip the query
  const id = hashToken(token);
  const row = findSessionNow(db, { id });
  if (row === null) return findSession(db, { id }).then((found) => sessionOfRow(db, found, seenFrom));
  return sessionOfRow(db, row, seenFrom);
}

/** The live session of the row found (none: null), after the writes it is due, if any. */
function sessionOfRow(db: Db, row: SessionRow | undefined, seenFrom?: { ip: string }): ValidSession | null | Promise<ValidSession | null> {
  if (!row) return null;
  const now = clock.now().getTime();
  const expiresAt = new Date(row.expires_at);
  if (now >= expiresAt.getTime()) return deleteSession(db, { id: row.id }).then(() => null);
  const session: Session = { id: row.id, userId: row.user_id, organizationId: row.organization_id, role: row.role, expiresAt };
  if (row.data_generation !== undefined) session.dataGeneration = row.data_generation;
  const touch = seenFrom !== undefined && (!row.last_seen_at || now - Date.parse(row.last_seen_at) > LAST_SEEN_RESOLUTION_MS);
  const renew = expiresAt.getTime() - now < SESSION_LIFETIME_MS / 2;
  if (!touch && !renew) return { session, renewed: false };
  return sessionUpkeep(db, session, now, touch ? seenFrom : undefined, renew);
}

/** The last visit noted (`seenFrom`), then the expiry slid forward (`renew`), in that order. */
async function sessionUpkeep(
  db: Db,
  session: Session,
  now: number,
  seenFrom: { ip: string } | undefined,
  renew: boolean,
): Promise<ValidSession> {
  if (seenFrom) await touchSession(db, { id: session.id, now: new Date(now).toISOString(), ip: seenFrom.ip });
  if (!renew) return { session, renewed: false };
  session.expiresAt = new Date(now + SESSION_LIFETIME_MS);
  await extendSession(db, { id: session.id, expiresAt: session.expiresAt.toISOString() });
  return { session, renewed: true };
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await deleteSession(db, { id: sessionId });
}

export async function invalidateUserSessions(db: Db, userId: number): Promise<void> {
  await deleteUserSessions(db, { userId });
}
