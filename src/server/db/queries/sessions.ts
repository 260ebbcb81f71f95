import type { Db } from '../connection';
import { precompiled } from '../precompiled';
import type { MembershipRole } from '../schema';

export async function insertSession(
  db: Db,
  params: { id: string; userId: number; organizationId: number; expiresAt: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: params.id,
      user_id: params.userId,
      organization_id: params.organizationId,
      expires_at: params.expiresAt,
      created_at: params.createdAt,
    })
    .execute();
}

// Runs on every authenticated request: compiled once. The role comes with it (the procedures' permission check
// reads it); a session whose membership was removed finds no row, so it no longer opens that organisation.
const selectSession = precompiled<
  [id: string],
  { id: string; user_id: number; organization_id: number; expires_at: string; role: MembershipRole }
>(
  (db) =>
    db
      .selectFrom('sessions')
      .innerJoin('memberships', (j) =>
        j.onRef('memberships.user_id', '=', 'sessions.user_id').onRef('memberships.organization_id', '=', 'sessions.organization_id'),
      )
      .select(['sessions.id', 'sessions.user_id', 'sessions.organization_id', 'sessions.expires_at', 'memberships.role'])
      .where('sessions.id', '=', ''),
  1,
);

export async function findSession(db: Db, params: { id: string }) {
  const [row] = await selectSession(db, params.id);
  return row;
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
