// Sessions as in Lucia's implementation guide (lucia-auth.com, "Basic session API", SQLite): a random token in the
// cookie, SHA-256(token) as the session id in the database, sliding expiry. Not the frozen `lucia` package.
import type { Db } from '../db/connection';
import { deleteSession, deleteUserSessions, extendSession, findSession, insertSession, touchSession } from '../db/queries/sessions';
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

/**
 * Resolves a cookie token to a live session. `renewed` says the expiry slid forward (the session had spent half
 * its life), so the caller re-sends the cookie with the new date.
 */
/** How stale « dernière activité » may be: refreshing it on every request would make every read a write. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

export async function validateSessionToken(
  db: Db,
  token: string,
  seenFrom?: { ip: string },
): Promise<{ session: Session; renewed: boolean } | null> {
  if (!/^[a-z2-7]{40,64}$/.test(token)) return null; // not one of ours: skip the query
  const row = await findSession(db, { id: hashToken(token) });
  if (!row) return null;
  const now = clock.now().getTime();
  const expiresAt = new Date(row.expires_at);
  if (now >= expiresAt.getTime()) {
    await deleteSession(db, { id: row.id });
    return null;
  }
  const session: Session = { id: row.id, userId: row.user_id, organizationId: row.organization_id, role: row.role, expiresAt };
  if (row.data_generation !== undefined) session.dataGeneration = row.data_generation;
  if (seenFrom && (!row.last_seen_at || now - Date.parse(row.last_seen_at) > LAST_SEEN_RESOLUTION_MS)) {
    await touchSession(db, { id: row.id, now: new Date(now).toISOString(), ip: seenFrom.ip });
  }
  if (expiresAt.getTime() - now < SESSION_LIFETIME_MS / 2) {
    session.expiresAt = new Date(now + SESSION_LIFETIME_MS);
    await extendSession(db, { id: row.id, expiresAt: session.expiresAt.toISOString() });
    return { session, renewed: true };
  }
  return { session, renewed: false };
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await deleteSession(db, { id: sessionId });
}

export async function invalidateUserSessions(db: Db, userId: number): Promise<void> {
  await deleteUserSessions(db, { userId });
}
