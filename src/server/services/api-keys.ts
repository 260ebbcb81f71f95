import type { Context } from '../context';
import type { Session } from '../auth/sessions';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { generateApiKeySecret } from '../auth/api-keys';
import { findApiKey, insertApiKey, listApiKeys, revokeApiKey } from '../db/queries/api-keys';
import type { ApiKey, ApiKeyInput } from '../../shared/schemas/api-keys';

type Authed = Context & { session: Session };

const toApiKey = (row: NonNullable<Awaited<ReturnType<typeof findApiKey>>>): ApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  webhooks: row.webhooks === 1,
  prefix: row.prefix,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  created_by: `${row.first_name} ${row.last_name}`.trim(),
});

export async function apiKeysOf(ctx: Authed) {
  const rows = await listApiKeys(ctx.db, { organizationId: ctx.session.organizationId });
  return { total: rows.length, data: rows.map(toApiKey) };
}

/** Creates a key; its secret is in this answer and nowhere else (the database keeps its SHA-256). */
export async function createApiKey(ctx: Authed, input: ApiKeyInput): Promise<ApiKey & { secret: string }> {
  const { secret, secretHash, prefix } = generateApiKeySecret();
  const organizationId = ctx.session.organizationId;
  const id = await insertApiKey(ctx.db, { organizationId, createdBy: ctx.session.userId, ...input, prefix, secretHash, now: nowIso() });
  const row = await findApiKey(ctx.db, { organizationId, id });
  if (!row) fail('INTERNAL_SERVER_ERROR', 'Erreur interne du serveur');
  return { ...toApiKey(row), secret };
}

export async function revokeKey(ctx: Authed, id: number): Promise<void> {
  const revoked = await revokeApiKey(ctx.db, { organizationId: ctx.session.organizationId, id, now: nowIso() });
  if (revoked === 0) fail('NOT_FOUND', 'Clé d’API introuvable');
}
