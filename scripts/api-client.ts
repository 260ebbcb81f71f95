import { createTRPCClient, httpBatchLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../src/server/routers/_app';

/** The typed tRPC client over HTTP that scripts (seed, bench) use, carrying the session cookie like a browser. */
export function createApiClient(baseUrl: string) {
  let cookie: string | undefined;
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${baseUrl}/api/trpc`,
        transformer: superjson,
        fetch: async (input, init) => {
          const headers = new Headers(init?.headers);
          if (cookie) headers.set('cookie', cookie);
          const response = await fetch(input, { ...init, headers });
          const set = response.headers.getSetCookie().find((c) => c.startsWith('session='));
          if (set) cookie = set.split(';')[0];
          return response;
        },
      }),
    ],
  });
  return { client, cookie: () => cookie };
}

export type ApiClient = ReturnType<typeof createApiClient>['client'];
