import crypto from 'node:crypto';
import { z } from 'zod';
import type { AfnorConnection } from './connection';
import { AfnorError } from './errors';
import { afnorHttp } from './http';

/** A token is dropped this long before the platform says it expires (at most a tenth of its life), so no call carries one that dies in flight. */
const EARLY_RENEWAL_SECONDS = 30;
/** RFC 6749 makes expires_in optional: without it, a token is kept five minutes. */
const DEFAULT_LIFETIME_SECONDS = 300;

const tokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive().optional(),
});

interface Cached {
  fingerprint: string;
  token: string;
  renewAt: number;
}

type OAuth = Extract<AfnorConnection['auth'], { kind: 'oauth' }>;

/** Identifies the credentials a token was granted for: new settings never reuse the old one's token. */
const fingerprintOf = (auth: OAuth) =>
  crypto.createHash('sha256').update(`${auth.tokenUrl}\n${auth.clientId}\n${auth.clientSecret}`).digest('hex');

/** RFC 6749 §5.2's error codes in the words of a user. */
function oauthRefusal(body: string): string {
  let code = '';
  try {
    code = String((JSON.parse(body) as { error?: unknown }).error ?? '');
  } catch {
    /* not JSON: the status says enough */
  }
  if (code === 'invalid_client' || code === 'unauthorized_client') return 'identifiant ou secret client refusé';
  if (code === 'invalid_grant' || code === 'unsupported_grant_type')
    return 'le flux « client credentials » n’est pas accepté pour ce client';
  if (code === 'invalid_scope') return 'les droits demandés ne sont pas accordés à ce client';
  return 'identifiants refusés';
}

/**
 * OAuth2 client-credentials tokens, one per organisation, kept in this process until shortly before they expire.
 * Concurrent callers share one request for a new token.
 */
export class AfnorTokenCache {
  private readonly cached = new Map<number, Cached>();
  private readonly pending = new Map<number, Promise<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A valid token: the cached one, or a new one from the token URL. */
  async get(connection: AfnorConnection & { auth: OAuth }): Promise<string> {
    const fingerprint = fingerprintOf(connection.auth);
    const hit = this.cached.get(connection.organizationId);
    if (hit && hit.fingerprint === fingerprint && hit.renewAt > this.now()) return hit.token;
    const inFlight = this.pending.get(connection.organizationId);
    if (inFlight) return inFlight;
    const request = this.fetch(connection, fingerprint).finally(() => this.pending.delete(connection.organizationId));
    this.pending.set(connection.organizationId, request);
    return request;
  }

  /** Forgets the organisation's token (the platform refused it: revoked or expired early). */
  invalidate(organizationId: number): void {
    this.cached.delete(organizationId);
  }

  private async fetch(connection: AfnorConnection & { auth: OAuth }, fingerprint: string): Promise<string> {
    const { auth } = connection;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.clientId, client_secret: auth.clientSecret });
    const answer = await afnorHttp(
      'token',
      {
        method: 'POST',
        url: auth.tokenUrl,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      },
      connection.allowPrivate,
    );
    const text = answer.body.toString('utf8');
    if (answer.status === 400 || answer.status === 401) {
      throw new AfnorError('token', 'unauthorized', `${oauthRefusal(text)} (HTTP ${answer.status})`, answer.status);
    }
    if (answer.status === 429 || answer.status >= 500) {
      throw new AfnorError(
        'token',
        answer.status === 429 ? 'throttled' : 'unavailable',
        `service indisponible (HTTP ${answer.status}), réessayez plus tard`,
        answer.status,
      );
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new AfnorError('token', 'http', `requête refusée (HTTP ${answer.status}) : vérifiez l’URL du jeton`, answer.status);
    }
    let parsed: z.infer<typeof tokenAnswerSchema>;
    try {
      parsed = tokenAnswerSchema.parse(JSON.parse(text));
    } catch {
      throw new AfnorError('token', 'garbage', 'réponse illisible (un JSON avec access_token est attendu)', answer.status);
    }
    const lifetime = parsed.expires_in ?? DEFAULT_LIFETIME_SECONDS;
    const early = Math.min(EARLY_RENEWAL_SECONDS, lifetime / 10);
    this.cached.set(connection.organizationId, {
      fingerprint,
      token: parsed.access_token,
      renewAt: this.now() + (lifetime - early) * 1000,
    });
    return parsed.access_token;
  }
}

/** The process's cache: every request and job of this process shares it. */
export const afnorTokens = new AfnorTokenCache();
