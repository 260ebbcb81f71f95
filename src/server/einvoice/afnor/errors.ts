/** Which API of the platform a call went to, as the user reads it. */
export type AfnorService = 'flow' | 'directory' | 'token';

export const AFNOR_SERVICE_LABELS: Record<AfnorService, string> = {
  flow: 'Flow Service',
  directory: 'Directory Service',
  token: 'Serveur d’authentification OAuth2',
};

export type AfnorFailure =
  | 'network'
  | 'timeout'
  | 'refused-target'
  | 'unauthorized'
  | 'throttled'
  | 'unavailable'
  | 'http'
  | 'garbage'
  | 'too-large'
  | 'aborted';

/** The platform's own error body (XP Z12-013 `Error`), as it sent it: kept raw for support and for reason codes. */
export interface PlatformErrorBody {
  errorCode: string;
  errorMessage: string;
  details: string;
}

/**
 * A call to the platform that did not succeed, with a French sentence naming the service and the reason.
 * `retryAfterSeconds` carries a 429's or 503's Retry-After for the callers that wait and retry (outgoing flows).
 */
export class AfnorError extends Error {
  constructor(
    readonly service: AfnorService,
    readonly failure: AfnorFailure,
    readonly detail: string,
    readonly status: number | null = null,
    readonly retryAfterSeconds: number | null = null,
    readonly platformError: PlatformErrorBody | null = null,
  ) {
    super(`${AFNOR_SERVICE_LABELS[service]} : ${detail}`);
  }

  /** Whether trying again later may succeed (network, timeout, 429, 5xx), as opposed to a setting to fix. */
  get transient(): boolean {
    return this.failure === 'network' || this.failure === 'timeout' || this.failure === 'throttled' || this.failure === 'unavailable';
  }
}

const shortText = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');

/** The platform's own error body (XP Z12-013 `Error`), when it sent one: its code is shown to help support. */
function platformErrorOf(body: string): PlatformErrorBody | null {
  try {
    const parsed = JSON.parse(body) as { errorCode?: unknown; errorMessage?: unknown; details?: unknown };
    if (typeof parsed.errorCode !== 'string' || parsed.errorCode.length > 100) return null;
    return { errorCode: parsed.errorCode, errorMessage: shortText(parsed.errorMessage, 500), details: shortText(parsed.details, 1000) };
  } catch {
    return null;
  }
}

/** Retry-After in seconds (a number or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The error of a non-2xx answer, in French. */
export function errorOfStatus(service: AfnorService, status: number, body: string, retryAfter: string | undefined): AfnorError {
  const platformError = platformErrorOf(body);
  const code = platformError?.errorCode;
  const suffix = code ? ` (code ${code})` : '';
  const wait = parseRetryAfter(retryAfter);
  if (status === 401)
    return new AfnorError(
      service,
      'unauthorized',
      `identifiants refusés (HTTP 401)${suffix} : vérifiez l’identifiant, le secret ou le jeton`,
      status,
    );
  if (status === 403)
    return new AfnorError(service, 'unauthorized', `accès refusé (HTTP 403)${suffix} : ce compte n’a pas les droits nécessaires`, status);
  if (status === 404) return new AfnorError(service, 'http', `adresse introuvable (HTTP 404)${suffix} : vérifiez l’URL du service`, status);
  if (status === 429) {
    const after = wait === null ? 'réessayez plus tard' : `réessayez dans ${wait} s`;
    return new AfnorError(service, 'throttled', `trop de requêtes (HTTP 429)${suffix}, ${after}`, status, wait);
  }
  if (status === 503)
    return new AfnorError(service, 'unavailable', `service indisponible (HTTP 503)${suffix}, réessayez plus tard`, status, wait);
  if (status >= 500)
    return new AfnorError(
      service,
      'unavailable',
      `erreur de la plateforme (HTTP ${status})${suffix}, réessayez plus tard`,
      status,
      wait,
      platformError,
    );
  return new AfnorError(service, 'http', `requête refusée (HTTP ${status})${suffix}`, status, null, platformError);
}
