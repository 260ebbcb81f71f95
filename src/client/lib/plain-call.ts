import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/routers/_app';
import { LOGIN_DOOR, VERSION_DOOR } from '../../shared/rest-doors';

// What every call to the server shares, tRPC or plain fetch: the timeout, the network error, the error's shape. Kept
// out of trpc.ts so that the login page, which posts without the tRPC client, has them too.

/** 30 s timeout on every call. */
const TIMEOUT_MS = 30_000;
export const NETWORK_ERROR = 'Network error or no response received';

export interface ErrorInfo {
  messages: string | string[];
  status: number;
}

export function fetchWithTimeout(input: RequestInfo | URL, init?: RequestInit) {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  return fetch(input, { ...init, credentials: 'same-origin', signal });
}

/** A refused REST call: the answer's `messages` and its HTTP status. */
export class PlainCallError extends Error implements ErrorInfo {
  constructor(
    readonly messages: string | string[],
    readonly status: number,
  ) {
    super(Array.isArray(messages) ? messages.join('\n') : messages);
  }
}

type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;

/** One REST door, answered as the procedure behind it answers (its `.output()` schema checked it on the server). */
async function callDoor<T>(door: { method: 'GET' | 'POST'; path: string }, input?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetchWithTimeout(door.path, {
      method: door.method,
      headers: input === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: input === undefined ? undefined : JSON.stringify(input),
    });
  } catch {
    throw new PlainCallError(NETWORK_ERROR, 400);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok && body !== undefined) return body as T;
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  const said = typeof messages === 'string' || Array.isArray(messages);
  // An answer that is not the server's own (a proxy's error page): told as the network error, with its status.
  throw new PlainCallError(said ? (messages as string | string[]) : NETWORK_ERROR, response.ok ? 400 : response.status);
}

/** `auth.login` through its REST door. */
export const signIn = (input: Inputs['auth']['login']) => callDoor<Outputs['auth']['login']>(LOGIN_DOOR, input);

/** `system.version` through its REST door. */
export const serverVersion = () => callDoor<Outputs['system']['version']>(VERSION_DOOR);
