import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '../context';
import { createCaller } from '../routers/_app';
import { AppError } from '../errors';
import { DEFAULT_BODY_LIMIT, FEEDBACK_BODY_LIMIT, readJsonBody } from './body';
import { sendError, sendJson } from './respond';

type Caller = ReturnType<typeof createCaller>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RestRoute {
  method: Method;
  path: string;
  /** Where the procedure's input comes from: the JSON body, the query string, or nowhere. */
  input: 'body' | 'query' | 'none';
  status?: number;
  bodyLimit?: number;
  call: (caller: Caller, input: unknown) => Promise<unknown>;
}

/**
 * CONTRACT.md's REST paths, each one door onto the same tRPC procedure as /api/trpc (one procedure, two doors):
 * the procedure validates input and shapes output; this table only says where the input comes from.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
const routes: RestRoute[] = [
  { method: 'POST', path: '/api/auth/register', input: 'body', status: 201, call: (c, i) => c.auth.register(i as any) },
  { method: 'POST', path: '/api/auth/login', input: 'body', call: (c, i) => c.auth.login(i as any) },
  { method: 'POST', path: '/api/auth/logout', input: 'none', call: (c) => c.auth.logout() },
  { method: 'GET', path: '/api/auth', input: 'none', call: (c) => c.auth.me() },
  { method: 'POST', path: '/api/auth/password/forgot', input: 'body', call: (c, i) => c.auth.forgotPassword(i as any) },
  { method: 'POST', path: '/api/auth/password/reset', input: 'body', call: (c, i) => c.auth.resetPassword(i as any) },
  { method: 'POST', path: '/api/auth/verify_email', input: 'body', call: (c, i) => c.auth.verifyEmail(i as any) },
  { method: 'GET', path: '/api/settings', input: 'query', call: (c, i) => c.settings.get(i as any) },
  { method: 'PUT', path: '/api/settings', input: 'body', call: (c, i) => c.settings.update(i as any) },
  { method: 'POST', path: '/api/feedback', input: 'body', bodyLimit: FEEDBACK_BODY_LIMIT, call: (c, i) => c.feedback.send(i as any) },
  { method: 'GET', path: '/api/version', input: 'none', call: (c) => c.system.version() },
];

const byPath = new Map<string, RestRoute[]>();
for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);

export function findRestRoutes(pathname: string): RestRoute[] | undefined {
  return byPath.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

function queryInput(search: string): Record<string, string> | undefined {
  if (search === '' || search === '?') return undefined;
  return Object.fromEntries(new URLSearchParams(search));
}

export async function handleRest(
  candidates: RestRoute[],
  req: IncomingMessage,
  res: ServerResponse,
  search: string,
  makeContext: () => Promise<Context>,
): Promise<void> {
  const route = candidates.find((r) => r.method === req.method || (req.method === 'HEAD' && r.method === 'GET'));
  if (!route) {
    res.setHeader('Allow', candidates.map((r) => r.method).join(', '));
    return sendError(res, new AppError('METHOD_NOT_SUPPORTED', 'Méthode non prise en charge pour cette adresse'));
  }
  try {
    const input =
      route.input === 'body' ? await readJsonBody(req, route.bodyLimit ?? DEFAULT_BODY_LIMIT) : route.input === 'query' ? queryInput(search) : undefined;
    const ctx = await makeContext();
    const caller = createCaller(ctx);
    const answer = await route.call(caller, input);
    sendJson(res, route.status ?? 200, answer);
  } catch (error) {
    sendError(res, error);
  }
}
