import type { Db } from '../connection';
import type { EmailTokenKind } from '../schema';

export async function insertEmailToken(
  db: Db,
  params: { id: string; userId: number; kind: EmailTokenKind; expiresAt: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('email_tokens')
    .values({
      id: params.id,
      user_id: params.userId,
      kind: params.kind,
      expires_at: params.expiresAt,
      used_at: null,
      created_at: params.createdAt,
    })
    .execute();
}

/** A token is good once: unused, unexpired, of the right kind. */
export async function findUsableEmailToken(db: Db, params: { id: string; kind: EmailTokenKind; now: string }) {
  return db
    .selectFrom('email_tokens')
    .select(['id', 'user_id'])
    .where('id', '=', params.id)
    .where('kind', '=', params.kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', params.now)
    .executeTakeFirst();
}

/** Spends every open token of that kind for the user, so an older reset link dies with the one just used. */
export async function spendEmailTokens(db: Db, params: { userId: number; kind: EmailTokenKind; now: string }): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: params.now })
    .where('user_id', '=', params.userId)
    .where('kind', '=', params.kind)
    .where('used_at', 'is', null)
    .execute();
}
