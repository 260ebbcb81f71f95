import type { Db } from '../connection';

export interface IdempotencyScope {
  organizationId: number;
  userId: number;
  key: string;
  /** The door and the procedure: 'rest:documents.create', 'trpc:documents.create#0'. */
  procedure: string;
}

export interface StoredAnswer {
  requestHash: string;
  /** Null while the first request is still running. */
  status: number | null;
  body: string | null;
  createdAt: string;
}

const inScope = (scope: IdempotencyScope) => ({
  organization_id: scope.organizationId,
  user_id: scope.userId,
  key: scope.key,
  procedure: scope.procedure,
});

/** Reserves the key; false when it is already taken. One INSERT … ON CONFLICT DO NOTHING: atomic, so two racing requests cannot both win. */
export async function reserveIdempotencyKey(
  db: Db,
  params: { scope: IdempotencyScope; requestHash: string; createdAt: string },
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ ...inScope(params.scope), request_hash: params.requestHash, status: null, body: null, created_at: params.createdAt })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<StoredAnswer | undefined> {
  const s = inScope(scope);
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status', 'body', 'created_at'])
    .where('organization_id', '=', s.organization_id)
    .where('user_id', '=', s.user_id)
    .where('key', '=', s.key)
    .where('procedure', '=', s.procedure)
    .executeTakeFirst();
  return row && { requestHash: row.request_hash, status: row.status, body: row.body, createdAt: row.created_at };
}

export async function storeIdempotentAnswer(db: Db, params: { scope: IdempotencyScope; status: number; body: string }): Promise<void> {
  const s = inScope(params.scope);
  await db
    .updateTable('idempotency_keys')
    .set({ status: params.status, body: params.body })
    .where('organization_id', '=', s.organization_id)
    .where('user_id', '=', s.user_id)
    .where('key', '=', s.key)
    .where('procedure', '=', s.procedure)
    .execute();
}

export async function releaseIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<void> {
  const s = inScope(scope);
  await db
    .deleteFrom('idempotency_keys')
    .where('organization_id', '=', s.organization_id)
    .where('user_id', '=', s.user_id)
    .where('key', '=', s.key)
    .where('procedure', '=', s.procedure)
    .execute();
}

/** Keys created before `before` (24 h ago) are forgotten: their key may serve again. */
export async function deleteIdempotencyKeysBefore(db: Db, params: { before: string }): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', params.before).execute();
}
