import crypto from 'node:crypto';
import type { AfnorConnection } from './connection';
import { AfnorError, errorOfStatus } from './errors';
import { type AfnorAnswer, afnorHttp } from './http';
import { type AfnorTokenCache, afnorTokens } from './tokens';

export type AfnorApi = 'flow' | 'directory';

export interface AfnorCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** The API path, from /v1/…, appended to the service's base URL. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  timeoutMs?: number;
  /** The Request-Id sent (a new uuid when unset): the caller keeps it to quote to the platform's support. */
  requestId?: string;
  signal?: AbortSignal;
  /** The most of the answer read (a downloaded file); JSON answers keep the default. */
  maxBytes?: number;
}

/**
 * A client of the platform's XP Z12-013 APIs for one organisation: every call carries a bearer token (the static one,
 * or an OAuth2 client-credentials token from the cache) and a Request-Id; a 401 on a cached OAuth2 token gets one new
 * token and one retry. A non-2xx answer throws AfnorError with a French reason.
 */
export class AfnorClient {
  constructor(
    private readonly connection: AfnorConnection,
    private readonly tokens: AfnorTokenCache = afnorTokens,
  ) {}

  private baseOf(api: AfnorApi): string {
    return api === 'flow' ? this.connection.flowUrl : this.connection.directoryUrl;
  }

  private async bearer(): Promise<string> {
    const { auth } = this.connection;
    if (auth.kind === 'bearer') return auth.token;
    return this.tokens.get({ ...this.connection, auth });
  }

  /** The 2xx answer of one call. */
  async call(api: AfnorApi, call: AfnorCall): Promise<AfnorAnswer> {
    let answer = await this.send(api, call, await this.bearer());
    if (answer.status === 401 && this.connection.auth.kind === 'oauth') {
      // Expired or revoked before its announced end: one new token, one retry; a second 401 is a real refusal.
      this.tokens.invalidate(this.connection.organizationId);
      answer = await this.send(api, call, await this.bearer());
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw errorOfStatus(api, answer.status, answer.body.toString('utf8'), headerOf(answer, 'retry-after'));
    }
    return answer;
  }

  private send(api: AfnorApi, call: AfnorCall, token: string): Promise<AfnorAnswer> {
    return afnorHttp(
      api,
      {
        method: call.method,
        url: `${this.baseOf(api)}${call.path}`,
        headers: { ...call.headers, authorization: `Bearer ${token}`, 'request-id': call.requestId ?? crypto.randomUUID() },
        body: call.body,
        timeoutMs: call.timeoutMs,
        signal: call.signal,
        maxBytes: call.maxBytes,
      },
      this.connection.allowPrivate,
    );
  }

  /** GET /v1/healthcheck of one service: resolves when it answers 200. */
  async healthcheck(api: AfnorApi): Promise<void> {
    await this.call(api, { method: 'GET', path: '/v1/healthcheck', timeoutMs: 10_000 });
  }
}

function headerOf(answer: AfnorAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export { AfnorError };
