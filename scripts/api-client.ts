import { createTRPCClient, httpBatchLink, httpLink, splitLink } from '@trpc/client';
import { MAX_BATCH_CALLS } from '../src/shared/api-limits';
import superjson from 'superjson';
import type { AppRouter } from '../src/server/routers/_app';

/** The typed tRPC client over HTTP that scripts (seed, bench) use, carrying the session cookie like a browser. */
export function createApiClient(baseUrl: string) {
  let cookie: string | undefined;
  const options = {
    url: `${baseUrl}/api/trpc`,
    transformer: superjson,
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      if (cookie) headers.set('cookie', cookie);
      const response = await fetch(input, { ...init, headers });
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
