import { sql } from 'kysely';
import type { Db } from '../connection';
import { postgresGenerationOf } from '../data-generation';
import { insertionOrder, isPostgres } from '../dialect';
import { precompiled } from '../precompiled';
import type { MembershipRole } from '../schema';

export async function insertSession(
  db: Db,
  params: { id: string; userId: number; organizationId: number; expiresAt: string; createdAt: string; userAgent: string; ip: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: params.id,
      user_id: params.userId,
      organization_id: params.organizationId,
      expires_at: params.expiresAt,
      created_at: params.createdAt,
      user_agent: params.userAgent,
      ip: params.ip,
      last_seen_at: params.createdAt,
    })
    .execute();
}

// Runs on every authenticated request: compiled once. The role comes with it (the procedures' permission check
// reads it); a session whose membership was removed has none, so it no longer opens that organisation. On
// PostgreSQL the organisation's data generation comes with it too (db/data-generation.ts): a kept answer then costs
// this one round trip instead of two. The id is compared with a cast of its parameter: with ANALYZE's samples of
// `sessions` (sqlite_stat4), SQLite would otherwise prepare the statement again at every new id bound, to re-plan it
// for that value (a primary key's lookup, whose plan no value changes). The role is a subquery, not a join: with
// statistics taken while the table held a few sessions, SQLite planned the join as a scan of every session for each
// request (2.5 ms at 50 000 sessions); alone in its FROM, the session is found by its key whatever the statistics.
const selectSession = precompiled<
  [id: string],
  {
    id: string;
    user_id: number;
    organization_id: number;
    expires_at: string;
    last_seen_at: string | null;
    role: MembershipRole | null;
    /** PostgreSQL only. */
    data_generation?: number;
  }
>((db) => {
  const query = db
    .selectFrom('sessions')
    .select((eb) => [
      'sessions.id',
      'sessions.user_id',
      'sessions.organization_id',
      'sessions.expires_at',
      'sessions.last_seen_at',
      eb
        .selectFrom('memberships')
        .select('memberships.role')
        .whereRef('memberships.user_id', '=', 'sessions.user_id')
        .whereRef('memberships.organization_id', '=', 'sessions.organization_id')
        .as('role'),
    ])
    .where('sessions.id', '=', sql<string>`cast(${''} as text)`);
  return isPostgres(db) ? query.select(postgresGenerationOf(sql.ref('sessions.organization_id')).as('data_generation')) : query;
}, 1);

type SelectedSession = Awaited<ReturnType<typeof selectSession>>[number];
export type SessionRow = SelectedSession & { role: MembershipRole };

/** The row of a session that still opens its organisation: one whose membership is gone has no role, and counts as none. */
const liveRow = (row: SelectedSession | undefined): SessionRow | undefined =>
  row?.role === null || row === undefined ? undefined : (row as SessionRow);

export async function findSession(db: Db, params: { id: string }): Promise<SessionRow | undefined> {
  const [row] = await selectSession(db, params.id);
  return liveRow(row);
}

/** The session's row at once (undefined: none) where the handle reads directly (db/precompiled.ts); else null. */
export function findSessionNow(db: Db, params: { id: string }): SessionRow | undefined | null {
  const rows = selectSession.now(db, params.id);
  return rows === null ? null : liveRow(rows[0]);
}

export async function extendSession(db: Db, params: { id: string; expiresAt: string }): Promise<void> {
  await db.updateTable('sessions').set({ expires_at: params.expiresAt }).where('id', '=', params.id).execute();
}

export async function deleteSession(db: Db, params: { id: string }): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', params.id).execute();
}

export async function deleteUserSessions(db: Db, params: { userId: number }): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', params.userId).execute();
}

export async function deleteExpiredSessions(db: Db, params: { now: string }): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', params.now).execute();
}

/** Moves a session to another organisation of its user (the caller has checked the membership). */
export async function setSessionOrganization(db: Db, params: { id: string; organizationId: number }): Promise<void> {
  await db.updateTable('sessions').set({ organization_id: params.organizationId }).where('id', '=', params.id).execute();
}

/** Refreshes when a session was last used, and from where. */
export async function touchSession(db: Db, params: { id: string; now: string; ip: string }): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: params.now, ip: params.ip }).where('id', '=', params.id).execute();
}

/** The user's live sessions, most recently used first (Paramètres → Appareils). */
export async function listUserSessions(db: Db, params: { userId: number; now: string }) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
    .where('user_id', '=', params.userId)
    .where('expires_at', '>', params.now)
    .orderBy('last_seen_at', 'desc')
    .orderBy(insertionOrder(db, 'created_at'), 'desc') // the newest first among sessions seen in the same millisecond
    .execute();
}

/** Deletes the user's sessions whose id starts with `prefix` (the public id of a device), or all but `keep`. */
export async function deleteUserSession(db: Db, params: { userId: number; prefix: string }): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', params.userId)
    .where('id', 'like', `${params.prefix}%`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteOtherUserSessions(db: Db, params: { userId: number; keep: string }): Promise<number> {
  const result = await db.deleteFrom('sessions').where('user_id', '=', params.userId).where('id', '!=', params.keep).executeTakeFirst();
  return Number(result.numDeletedRows);
}
