import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createTRPCQueryUtils } from '@trpc/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../server/routers/_app';
import { queryClient, trpc, trpcClient } from './trpc';
import { RequireAuth } from './components/guard';

export { startRouteData } from './route-data';

/**
 * The data layer (tRPC client, TanStack Query, superjson) and the session guard, in their own chunk: every page but the
 * login page draws inside it, the login page posts through its REST door without it. One query client for
 * the whole tab, so the cache survives a page's provider being mounted again at the next route.
 */
export function DataLayer({ requiresAuth, fallback, children }: { requiresAuth: boolean; fallback?: ReactNode; children: ReactNode }) {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        {requiresAuth ? <RequireAuth fallback={fallback}>{children}</RequireAuth> : children}
      </QueryClientProvider>
    </trpc.Provider>
  );
}

/** The user the login answered, kept as `auth.me`'s answer: the guard of the next page does not ask for it again. */
export function rememberSignedInUser(user: inferRouterOutputs<AppRouter>['auth']['me']) {
  createTRPCQueryUtils({ queryClient, client: trpcClient }).auth.me.setData(undefined, user);
}
