import { createTRPCReact, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/react-query';
import type { Operation, TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import superjson from 'superjson';
import { navigate } from 'wouter/use-browser-location';
import type { AppRouter } from '../server/routers/_app';
import { showMessage } from './stores/snackbar';
import { MAX_BATCH_CALLS } from '../shared/api-limits';
import { aloneAfterBatchRefusalLink } from './lib/batch-refusal-link';
import { fetchWithTimeout, NETWORK_ERROR, PlainCallError, type ErrorInfo } from './lib/plain-call';

export const trpc = createTRPCReact<AppRouter>();

export { NETWORK_ERROR, type ErrorInfo };

/** The `messages` and HTTP status of any failed call; a call that got no answer is the network error, status 400. */
export function errorInfo(error: unknown): ErrorInfo {
  if (error instanceof PlainCallError) return { messages: error.messages, status: error.status };
  if (error instanceof TRPCClientError) {
    const data = error.data as { messages?: string | string[]; httpStatus?: number } | undefined;
    if (data?.httpStatus) return { messages: data.messages ?? error.message, status: data.httpStatus };
  }
  return { messages: NETWORK_ERROR, status: 400 };
}

/**
 * The messages a refused write gives field by field (the server's `data.fields`, keyed by the field's path in the form:
 * 'customer_id', 'address.postal_code'), for the form to show beside each field. Empty for anything else.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const fields = (error.data as { fields?: unknown } | undefined)?.fields;
  if (typeof fields !== 'object' || fields === null) return {};
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The snackbar shows the answer's messages coloured by status; a 401 also goes to /auth/login. */
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

/** A random key: crypto.getRandomValues works on plain http too (randomUUID needs a secure context). */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * "nothing doubled": one Idempotency-Key per user action (src/server/http/idempotency.ts applies a repeated
 * POST once). An action is one `mutate(variables)`: TanStack Query's retries call the link again with the same
 * variables object, so the key is remembered per object. A second identical mutation sent while the first is still in
 * flight (a double click that got past the disabled button) is the same action: it reuses the first one's key, and the
 * server answers it with the first answer instead of creating twice.
 */
const keysByInput = new WeakMap<object, string>();
const inFlight = new Map<string, { key: string; calls: number }>();

function idempotencyKeyFor(op: Operation): { key: string; done: () => void } {
  const remembered = typeof op.input === 'object' && op.input !== null ? keysByInput.get(op.input) : undefined;
  const signature = `${op.path}\n${JSON.stringify(op.input) ?? ''}`;
  const flying = inFlight.get(signature);
  const key = remembered ?? flying?.key ?? randomKey();
  if (typeof op.input === 'object' && op.input !== null) keysByInput.set(op.input, key);
  const entry = flying?.key === key ? flying : { key, calls: 0 };
  entry.calls += 1;
  inFlight.set(signature, entry);
  let released = false;
  return {
    key,
    done: () => {
      if (released) return;
      released = true;
      entry.calls -= 1;
      if (entry.calls === 0 && inFlight.get(signature) === entry) inFlight.delete(signature);
    },
  };
}

/** Gives each mutation its action's key (in `op.context`), held "in flight" until its answer or failure comes back. */
const idempotencyLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) => {
      if (op.type !== 'mutation') return next(op).subscribe(observer);
      const { key, done } = idempotencyKeyFor(op);
      const subscription = next({ ...op, context: { ...op.context, idempotencyKey: key } }).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          done();
          observer.error(error);
        },
        complete: () => {
          done();
          observer.complete();
        },
      });
      return () => {
        done();
        subscription.unsubscribe();
      };
    });

export const trpcClient = trpc.createClient({
  links: [
    idempotencyLink,
    aloneAfterBatchRefusalLink,
    splitLink({
      condition: (op) => op.type === 'mutation' || op.context.alone === true,
      // Each mutation alone, so that its request carries its own action's key; a read sent again alone as well.
      true: httpLink({
        url: '/api/trpc',
        transformer: superjson,
        fetch: fetchWithTimeout,
        headers: ({ op }) => {
          const key = op.context.idempotencyKey;
          return typeof key === 'string' ? { 'Idempotency-Key': key } : {};
        },
      }),
      false: httpBatchLink({ url: '/api/trpc', transformer: superjson, fetch: fetchWithTimeout, maxItems: MAX_BATCH_CALLS }),
    }),
  ],
});
