import { createTRPCClient, httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { MAX_BATCH_CALLS } from '../src/shared/api-limits';
import superjson from 'superjson';
import type { AppRouter } from '../src/server/routers/_app';

/** How many times a request refused with 429 is sent again, after the Retry-After the server names. */
const RATE_LIMIT_RETRIES = 5;

/**
 * The typed tRPC client over HTTP that scripts (seed, bench) use: carrying the session cookie like a browser, or,
 * given `apiKey`, an `Authorization: Bearer` header — then it waits and retries when the key's
 * per-minute limit answers 429.
 */
export function createApiClient(baseUrl: string, opts: { apiKey?: string } = {}) {
  let cookie: string | undefined;
  const send = async (input: RequestInfo | URL, init: RequestInit | undefined, headers: Headers): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(input, { ...init, headers });
      if (response.status !== 429 || !opts.apiKey || attempt >= RATE_LIMIT_RETRIES) return response;
      const seconds = Number(response.headers.get('retry-after')) || 1;
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  };
  const options = {
    url: `${baseUrl}/api/trpc`,
    transformer: superjson,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      if (opts.apiKey) headers.set('authorization', `Bearer ${opts.apiKey}`);
      else if (cookie) headers.set('cookie', cookie);
      const response = await send(input, init, headers);
      const set = response.headers.getSetCookie().find((c) => c.startsWith('session='));
      if (set) cookie = set.split(';')[0];
      return response;
    },
  };
  // As the SPA: reads batched (at most what the server takes), writes one per request (the server refuses them in a batch).
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'mutation',
        true: httpLink(options),
        false: httpBatchLink({ ...options, maxItems: MAX_BATCH_CALLS }),
      }),
    ],
  });
  return { client, cookie: () => cookie };
}

export type ApiClient = ReturnType<typeof createApiClient>['client'];
