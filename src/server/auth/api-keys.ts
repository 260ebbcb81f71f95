import { randomBytes } from 'node:crypto';
import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import type { Db } from '../db/connection';
import { findApiKeyBySecretHash, touchApiKey } from '../db/queries/api-keys';
import { AppError } from '../errors';
import { clock } from '../clock';
import { ROLES, roleAllows, type ProcedureRule, type Role } from '../../shared/roles';
import { API_KEY_SECRET_PREFIX, type ApiKeyScope } from '../../shared/schemas/api-keys';
import type { Session } from './sessions';
import type { RateLimiter } from './rate-limit';
import { hashToken } from './tokens';

/**
 * Whether a key may call a procedure of this rule. The webhooks' procedures (their `apiKeyScope`) need the key's
 * `webhooks` scope, and then what the key's creator may do (an owner or an admin); every other procedure, the role
 * the key acts with.
 */
export function apiKeyMayCall(
  apiKey: NonNullable<Session['apiKey']>,
  role: Role,
  rule: ProcedureRule | undefined,
  scope?: 'webhooks',
): boolean {
  if (scope === 'webhooks') return apiKey.webhooks && roleAllows(apiKey.creatorRole, rule);
  return roleAllows(role, rule);
}

/**
 * What a key may do, as a role the procedures' rules are read against (trpc.ts): `read` is the accountant's reach
 * (reads and exports), `write` the member's (the day's records). Never settings, members, keys or billing.
 */
export const API_KEY_ROLE: Record<ApiKeyScope, Role> = { read: 'accountant', write: 'member' };

/** The visible start of a secret: the fixed prefix and 4 characters, enough to tell keys apart in a list. */
const VISIBLE_LENGTH = API_KEY_SECRET_PREFIX.length + 4;
const SECRET_PATTERN = new RegExp(`^${API_KEY_SECRET_PREFIX}[a-z2-7]{52}$`);

/** A new secret (32 random bytes, base32, after `fk_live_`), what the database keeps of it, and its visible prefix. */
export function generateApiKeySecret(): { secret: string; secretHash: string; prefix: string } {
  const secret = `${API_KEY_SECRET_PREFIX}${encodeBase32LowerCaseNoPadding(randomBytes(32))}`;
  return { secret, secretHash: hashToken(secret), prefix: secret.slice(0, VISIBLE_LENGTH) };
}

/** The less powerful of two roles (ROLES runs from the most to the least powerful). */
const lesserRole = (a: Role, b: Role): Role => (ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b);

/** `last_used_at` is refreshed at most once a minute: a script's every request would otherwise be a write too. */
const LAST_USED_RESOLUTION_MS = 60_000;

export const API_KEY_UNKNOWN = 'Clé d’API inconnue : vérifiez-la, ou créez-en une dans Paramètres → API';
export const API_KEY_REVOKED = 'Cette clé d’API a été révoquée : créez-en une nouvelle dans Paramètres → API';
export const API_KEY_ORPHANED = 'Cette clé d’API ne vaut plus : la personne qui l’a créée ne fait plus partie de l’entreprise';
export const AUTHORIZATION_MALFORMED = 'En-tête Authorization invalide : envoyez « Bearer » suivi de votre clé d’API';

export const API_KEY_SELF_REFUSAL = 'Une clé d’API agit pour l’entreprise : elle n’a pas accès aux réglages d’un compte personnel';
export const API_KEY_WEBHOOKS_REFUSAL =
  'Cette clé d’API n’a pas la portée « webhooks » : créez dans Paramètres → API une clé qui gère les webhooks';
export const apiKeyScopeRefusal = (scope: ApiKeyScope) =>
  scope === 'read'
    ? 'Cette clé d’API est en lecture seule : créez une clé « Lecture et écriture » pour modifier des données'
    : 'Une clé d’API ne gère ni les réglages, ni l’équipe, ni les clés d’API, ni l’abonnement';

/** The secret of an `Authorization` header, or a 401 for any other form (never a fallback to the cookie). */
export function bearerSecretOf(header: string): string {
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) throw new AppError('UNAUTHORIZED', AUTHORIZATION_MALFORMED);
  return match[1];
}

export type ApiKeyAuthentication = { session: Session } | { refusal: AppError; retryAfterSeconds?: number };

/**
 * Resolves a bearer secret to a session of the key's organisation, acting with the lesser of the key's role and its
 * creator's current role; counts the request against the key's limit. Revoked, unknown or over the limit: refused.
 */
export async function authenticateApiKey(db: Db, limiter: RateLimiter, secret: string): Promise<ApiKeyAuthentication> {
  if (!SECRET_PATTERN.test(secret)) return { refusal: new AppError('UNAUTHORIZED', API_KEY_UNKNOWN) }; // not one of ours: skip the query
  const row = await findApiKeyBySecretHash(db, { secretHash: hashToken(secret) });
  if (!row) return { refusal: new AppError('UNAUTHORIZED', API_KEY_UNKNOWN) };
  if (row.revoked_at) return { refusal: new AppError('UNAUTHORIZED', API_KEY_REVOKED) };
  if (!row.creator_role) return { refusal: new AppError('UNAUTHORIZED', API_KEY_ORPHANED) };
  const bucket = String(row.id);
  if (!(await limiter.take(bucket))) {
    return {
      refusal: new AppError(
        'TOO_MANY_REQUESTS',
        `Trop de requêtes avec cette clé d’API : ${limiter.limit} par minute au plus, réessayez dans un instant`,
      ),
      retryAfterSeconds: Math.max(1, Math.ceil((await limiter.resetInMs(bucket)) / 1000)),
    };
  }
  const now = clock.now();
  if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) >= LAST_USED_RESOLUTION_MS) {
    await touchApiKey(db, { id: row.id, now: now.toISOString() });
  }
  return {
    session: {
      id: `api-key:${row.id}`,
      userId: row.created_by,
      organizationId: row.organization_id,
      role: lesserRole(API_KEY_ROLE[row.scope], row.creator_role),
      expiresAt: new Date(now.getTime() + LAST_USED_RESOLUTION_MS),
      apiKey: { id: row.id, scope: row.scope, webhooks: row.webhooks === 1, creatorRole: row.creator_role },
      ...(row.data_generation === undefined ? {} : { dataGeneration: row.data_generation }),
    },
  };
}
