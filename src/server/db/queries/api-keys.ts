import { sql } from 'kysely';
import type { Db } from '../connection';
import { postgresGenerationOf } from '../data-generation';
import { isPostgres } from '../dialect';
import { precompiled } from '../precompiled';
import type { ApiKeyScope } from '../../../shared/schemas/api-keys';
import type { MembershipRole } from '../schema';

export async function insertApiKey(
  db: Db,
  params: {
    organizationId: number;
    createdBy: number;
    name: string;
    scope: ApiKeyScope;
    webhooks: boolean;
    prefix: string;
    secretHash: string;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('api_keys')
    .values({
      organization_id: params.organizationId,
      created_by: params.createdBy,
      name: params.name,
      scope: params.scope,
      webhooks: params.webhooks ? 1 : 0,
      prefix: params.prefix,
      secret_hash: params.secretHash,
      created_at: params.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const apiKeyColumns = [
  'api_keys.id',
  'api_keys.name',
  'api_keys.scope',
  'api_keys.webhooks',
  'api_keys.prefix',
  'api_keys.created_at',
  'api_keys.last_used_at',
  'users.first_name',
  'users.last_name',
] as const;

/** The organisation's live keys, newest first (Paramètres → API); never the hash. */
export async function listApiKeys(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.created_by')
    .select(apiKeyColumns)
    .where('api_keys.organization_id', '=', params.organizationId)
    .where('api_keys.revoked_at', 'is', null)
    .orderBy('api_keys.id', 'desc')
    .execute();
}

export async function findApiKey(db: Db, params: { organizationId: number; id: number }) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.created_by')
    .select(apiKeyColumns)
    .where('api_keys.organization_id', '=', params.organizationId)
    .where('api_keys.id', '=', params.id)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Revokes a live key of the organisation; 0 when there is none by that id (another organisation's included). */
export async function revokeApiKey(db: Db, params: { organizationId: number; id: number; now: string }): Promise<number> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: params.now })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

// Runs on every request that carries a key: compiled once. The creator's membership comes with it (left join: a key
// whose creator left the organisation is found, and refused by the caller with its own message), and on PostgreSQL the
// organisation's data generation, as with a session (db/queries/sessions.ts, which says why the parameter is cast).
const selectKeyByHash = precompiled<
  [secretHash: string],
  {
    id: number;
    organization_id: number;
    created_by: number;
    scope: ApiKeyScope;
    webhooks: number;
    last_used_at: string | null;
    revoked_at: string | null;
    creator_role: MembershipRole | null;
    /** PostgreSQL only. */
    data_generation?: number;
  }
>((db) => {
  const query = db
    .selectFrom('api_keys')
    .leftJoin('memberships', (j) =>
      j.onRef('memberships.user_id', '=', 'api_keys.created_by').onRef('memberships.organization_id', '=', 'api_keys.organization_id'),
    )
    .select([
      'api_keys.id',
      'api_keys.organization_id',
      'api_keys.created_by',
      'api_keys.scope',
      'api_keys.webhooks',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
      'memberships.role as creator_role',
    ])
    .where('api_keys.secret_hash', '=', sql<string>`cast(${''} as text)`);
  return isPostgres(db) ? query.select(postgresGenerationOf(sql.ref('api_keys.organization_id')).as('data_generation')) : query;
}, 1);

export async function findApiKeyBySecretHash(db: Db, params: { secretHash: string }) {
  const [row] = await selectKeyByHash(db, params.secretHash);
  return row;
}

export async function touchApiKey(db: Db, params: { id: number; now: string }): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: params.now }).where('id', '=', params.id).execute();
}
