import type { Db } from '../connection';

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

export async function findSession(db: Db, params: { id: string }) {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'organization_id', 'expires_at'])
    .where('id', '=', params.id)
    .executeTakeFirst();
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
