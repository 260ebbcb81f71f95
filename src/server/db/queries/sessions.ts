import type { Db } from '../connection';
import { precompiled } from '../precompiled';

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

// Runs on every authenticated request: compiled once.
const selectSession = precompiled<[id: string], { id: string; user_id: number; organization_id: number; expires_at: string }>(
  (db) => db.selectFrom('sessions').select(['id', 'user_id', 'organization_id', 'expires_at']).where('id', '=', ''),
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
