import { createTRPCClient, httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { MAX_BATCH_CALLS } from '../../src/shared/api-limits';
import { aloneAfterBatchRefusalLink } from '../../src/client/lib/batch-refusal-link';
import superjson from 'superjson';
import type { AppRouter } from '../../src/server/routers/_app';
import { defined } from '../../src/shared/defined';

/** One browser-like cookie jar shared by the REST door and the typed tRPC client. */
export class Session {
  cookie: string | undefined;

  constructor(readonly baseUrl: string) {}

  absorb(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, value] = defined(pair, 'pair').split('=');
      if (name !== 'session') continue;
      this.cookie = value ? `session=${value}` : undefined;
    }
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    const response = await fetch(input, { ...init, headers });
    this.absorb(response);
    return response;
  };

  /** Plain JSON on a REST path: `{ status, body }`. */
  async rest(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await this.fetch(`${this.baseUrl}${path}`, init);
    const text = await response.text();
    let json: unknown = text;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    // biome-ignore lint/suspicious/noExplicitAny: a REST answer is plain JSON, checked by the tests' expect() rather than by types
    return { status: response.status, body: json as any, headers: response.headers };
  }

  /** The typed client of the SPA and scripts, over HTTP, with this jar's cookie. */
  trpc(opts: { batch?: boolean } = {}) {
    const options = { url: `${this.baseUrl}/api/trpc`, transformer: superjson, fetch: this.fetch };
    // As the SPA: writes one per request (the server refuses them in a batch), reads batched unless told otherwise, a
    // read refused for its batch's budget sent again alone.
    const link = splitLink<AppRouter>({
      condition: (op) => op.type === 'mutation' || op.context.alone === true || opts.batch === false,
      true: httpLink(options),
      false: httpBatchLink({ ...options, maxItems: MAX_BATCH_CALLS }),
    });
    return createTRPCClient<AppRouter>({ links: [aloneAfterBatchRefusalLink, link] });
  }
}

let counter = 0;
export function newUser(overrides: Partial<Record<'first_name' | 'last_name' | 'email' | 'password' | 'organization', string>> = {}) {
  counter += 1;
  return {
    first_name: 'Camille',
    last_name: 'Durand',
    email: `camille.durand+${process.pid}-${counter}@exemple.fr`,
    password: 'motdepasse-solide',
    organization: 'Durand Conseil SARL',
    ...overrides,
  };
}

export async function registered(baseUrl: string, overrides: Parameters<typeof newUser>[0] = {}) {
  const session = new Session(baseUrl);
  const user = newUser(overrides);
  const answer = await session.rest('POST', '/api/auth/register', user);
  if (answer.status !== 201) throw new Error(`registration failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { session, user, profile: answer.body };
}
