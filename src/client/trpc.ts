import { createTRPCReact, httpBatchLink, TRPCClientError } from '@trpc/react-query';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import superjson from 'superjson';
import { navigate } from 'wouter/use-browser-location';
import type { AppRouter } from '../server/routers/_app';
import { showMessage } from './stores/snackbar';

export const trpc = createTRPCReact<AppRouter>();

/** SPEC §7: 30 s timeout on every call. */
const TIMEOUT_MS = 30_000;
export const NETWORK_ERROR = 'Network error or no response received';

export interface ErrorInfo {
  messages: string | string[];
  status: number;
}

/** The `messages` and HTTP status of any failed call; a call that got no answer is SPEC §8's network error, status 400. */
export function errorInfo(error: unknown): ErrorInfo {
  if (error instanceof TRPCClientError) {
    const data = error.data as { messages?: string | string[]; httpStatus?: number } | undefined;
    if (data?.httpStatus) return { messages: data.messages ?? error.message, status: data.httpStatus };
  }
  return { messages: NETWORK_ERROR, status: 400 };
}

/** SPEC §8: the snackbar shows the answer's messages coloured by status; a 401 also goes to /auth/login. */
export function reportError(error: unknown) {
  const { messages, status } = errorInfo(error);
  showMessage(messages, status);
  if (status === 401 && !window.location.pathname.startsWith('/auth/')) navigate('/auth/login');
}

interface CallMeta {
  /** The caller handles the error itself (e.g. the guard's session check, which only logs). */
  silent?: boolean;
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (!(query.meta as CallMeta | undefined)?.silent) reportError(error);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error, _vars, _ctx, mutation) => {
      if (!(mutation.meta as CallMeta | undefined)?.silent) reportError(error);
    },
  }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

export const trpcClient = trpc.createClient({
  links: [
    httpBatchLink({
      url: '/api/trpc',
      transformer: superjson,
      fetch: (input, init) => {
        const timeout = AbortSignal.timeout(TIMEOUT_MS);
        const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
        return fetch(input, { ...init, credentials: 'same-origin', signal });
      },
    }),
  ],
});
