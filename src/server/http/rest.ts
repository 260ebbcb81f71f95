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
  /** With `{name}` segments for path parameters. */
  path: string;
  /**
   * Where the procedure's input comes from: the JSON body, the query string, nowhere, or a function of the path
   * parameters and the body (`withBody` says whether to read one).
   */
  input: 'body' | 'query' | 'none' | ((parts: { params: Record<string, string>; body: unknown; query: Record<string, string> }) => unknown);
  withBody?: boolean;
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
  // `?key=document` writes what `GET ?key=document` reads (the whole template as body); without a key, the app settings.
  {
    method: 'PUT',
    path: '/api/settings',
    input: ({ body, query }) => (query.key === undefined ? { settings: body } : { keyed: { key: query.key, data: body } }),
    withBody: true,
    call: (c, i) => ((i as any).keyed ? c.settings.updateDocument((i as any).keyed) : c.settings.update((i as any).settings)),
  },
  { method: 'GET', path: '/api/settings/email', input: 'none', call: (c) => c.emailSettings.get() },
  { method: 'PUT', path: '/api/settings/email', input: 'body', call: (c, i) => c.emailSettings.update(i as any) },
  { method: 'POST', path: '/api/settings/email/test', input: 'none', call: (c) => c.emailSettings.sendTest() },
  { method: 'POST', path: '/api/feedback', input: 'body', bodyLimit: FEEDBACK_BODY_LIMIT, call: (c, i) => c.feedback.send(i as any) },
  { method: 'GET', path: '/api/version', input: 'none', call: (c) => c.system.version() },

  { method: 'GET', path: '/api/customers', input: 'query', call: (c, i) => c.customers.list(i as any) },
  { method: 'POST', path: '/api/customers', input: 'body', status: 201, call: (c, i) => c.customers.create(i as any) },
  {
    method: 'POST',
    path: '/api/customers/import',
    input: 'body',
    bodyLimit: FEEDBACK_BODY_LIMIT,
    call: (c, i) => c.customers.import(i as any),
  },
  { method: 'GET', path: '/api/customers/export', input: 'none', call: (c) => c.customers.export() },
  { method: 'GET', path: '/api/customers/{id}', input: ({ params }) => params, call: (c, i) => c.customers.get(i as any) },
  {
    method: 'PUT',
    path: '/api/customers/{id}',
    input: ({ params, body }) => ({ id: params.id, data: body }),
    withBody: true,
    call: (c, i) => c.customers.update(i as any),
  },
  { method: 'DELETE', path: '/api/customers/{id}', input: ({ params }) => params, call: (c, i) => c.customers.delete(i as any) },
  { method: 'POST', path: '/api/customers/{id}/restore', input: ({ params }) => params, call: (c, i) => c.customers.restore(i as any) },
  { method: 'GET', path: '/api/items', input: 'query', call: (c, i) => c.items.list(i as any) },
  { method: 'POST', path: '/api/items', input: 'body', status: 201, call: (c, i) => c.items.create(i as any) },
  { method: 'POST', path: '/api/items/import', input: 'body', bodyLimit: FEEDBACK_BODY_LIMIT, call: (c, i) => c.items.import(i as any) },
  { method: 'GET', path: '/api/items/export', input: 'none', call: (c) => c.items.export() },
  { method: 'GET', path: '/api/items/{id}', input: ({ params }) => params, call: (c, i) => c.items.get(i as any) },
  {
    method: 'PUT',
    path: '/api/items/{id}',
    input: ({ params, body }) => ({ id: params.id, data: body }),
    withBody: true,
    call: (c, i) => c.items.update(i as any),
  },
  { method: 'DELETE', path: '/api/items/{id}', input: ({ params }) => params, call: (c, i) => c.items.delete(i as any) },
  { method: 'POST', path: '/api/items/{id}/restore', input: ({ params }) => params, call: (c, i) => c.items.restore(i as any) },
  { method: 'GET', path: '/api/documents', input: 'query', call: (c, i) => c.documents.list(i as any) },
  { method: 'POST', path: '/api/documents', input: 'body', status: 201, call: (c, i) => c.documents.create(i as any) },
  { method: 'GET', path: '/api/documents/{id}', input: ({ params }) => params, call: (c, i) => c.documents.get(i as any) },
  {
    method: 'PUT',
    path: '/api/documents/{id}',
    input: ({ params, body }) => ({ id: params.id, data: body }),
    withBody: true,
    call: (c, i) => c.documents.update(i as any),
  },
  { method: 'DELETE', path: '/api/documents/{id}', input: ({ params }) => params, call: (c, i) => c.documents.delete(i as any) },
  { method: 'POST', path: '/api/documents/{id}/issue', input: ({ params }) => params, call: (c, i) => c.documents.issue(i as any) },
  {
    method: 'POST',
    path: '/api/documents/{id}/status',
    input: ({ params, body }) => ({ ...(body as object), id: params.id }),
    withBody: true,
    call: (c, i) => c.documents.setStatus(i as any),
  },
  { method: 'POST', path: '/api/documents/{id}/sent', input: ({ params }) => params, call: (c, i) => c.documents.markSent(i as any) },
  {
    method: 'POST',
    path: '/api/documents/{id}/convert',
    input: ({ params, body }) => ({ ...(body as object), id: params.id }),
    withBody: true,
    status: 201,
    call: (c, i) => c.documents.convert(i as any),
  },
  {
    method: 'POST',
    path: '/api/documents/{id}/duplicate',
    input: ({ params }) => params,
    status: 201,
    call: (c, i) => c.documents.duplicate(i as any),
  },
  {
    method: 'POST',
    path: '/api/documents/{id}/deposit',
    input: ({ params, body }) => ({ ...(body as object), id: params.id }),
    withBody: true,
    status: 201,
    call: (c, i) => c.documents.deposit(i as any),
  },
  { method: 'GET', path: '/api/documents/{id}/payments', input: ({ params }) => params, call: (c, i) => c.documents.payments(i as any) },
  {
    method: 'POST',
    path: '/api/documents/{id}/payments',
    input: ({ params, body }) => ({ id: params.id, data: body }),
    withBody: true,
    status: 201,
    call: (c, i) => c.documents.recordPayment(i as any),
  },
  {
    method: 'PUT',
    path: '/api/documents/{id}/payments/{paymentId}',
    input: ({ params, body }) => ({ id: params.id, paymentId: params.paymentId, data: body }),
    withBody: true,
    call: (c, i) => c.documents.updatePayment(i as any),
  },
  {
    method: 'DELETE',
    path: '/api/documents/{id}/payments/{paymentId}',
    input: ({ params }) => params,
    call: (c, i) => c.documents.deletePayment(i as any),
  },
  { method: 'GET', path: '/api/share/{uuid}', input: ({ params }) => params, call: (c, i) => c.share.get(i as any) },
  { method: 'GET', path: '/api/dashboard', input: 'none', call: (c) => c.figures.dashboard() },
  { method: 'GET', path: '/api/customers/{id}/figures', input: ({ params }) => params, call: (c, i) => c.figures.customer(i as any) },
  { method: 'GET', path: '/api/search', input: 'query', call: (c, i) => c.search.query(i as any) },
  { method: 'GET', path: '/api/organization', input: 'none', call: (c) => c.organization.get() },
  { method: 'PUT', path: '/api/organization', input: 'body', call: (c, i) => c.organization.update(i as any) },
  {
    method: 'POST',
    path: '/api/organization/logo',
    input: 'body',
    bodyLimit: 2 * 1024 * 1024,
    call: (c, i) => c.organization.uploadLogo(i as any),
  },
  { method: 'DELETE', path: '/api/organization/logo', input: 'none', call: (c) => c.organization.deleteLogo() },
  { method: 'GET', path: '/api/taxes', input: 'none', call: (c) => c.taxes.list() },
  { method: 'POST', path: '/api/taxes', input: 'body', status: 201, call: (c, i) => c.taxes.create(i as any) },
  {
    method: 'PUT',
    path: '/api/taxes/{id}',
    input: ({ params, body }) => ({ id: params.id, data: body }),
    withBody: true,
    call: (c, i) => c.taxes.update(i as any),
  },
  { method: 'DELETE', path: '/api/taxes/{id}', input: ({ params }) => params, call: (c, i) => c.taxes.delete(i as any) },
  { method: 'GET', path: '/api/units', input: 'none', call: (c) => c.units.list() },
  { method: 'POST', path: '/api/units', input: 'body', status: 201, call: (c, i) => c.units.create(i as any) },
  { method: 'DELETE', path: '/api/units/{id}', input: ({ params }) => params, call: (c, i) => c.units.delete(i as any) },
  { method: 'GET', path: '/api/currencies', input: 'none', call: (c) => c.currencies.list() },
  { method: 'POST', path: '/api/currencies', input: 'body', status: 201, call: (c, i) => c.currencies.create(i as any) },
  {
    method: 'PUT',
    path: '/api/currencies/{id}',
    input: ({ params, body }) => ({ id: params.id, data: body }),
    withBody: true,
    call: (c, i) => c.currencies.update(i as any),
  },
  { method: 'DELETE', path: '/api/currencies/{id}', input: ({ params }) => params, call: (c, i) => c.currencies.delete(i as any) },
  { method: 'GET', path: '/api/tags', input: 'query', call: (c, i) => c.tags.list(i as any) },
  { method: 'POST', path: '/api/tags', input: 'body', status: 201, call: (c, i) => c.tags.create(i as any) },
  {
    method: 'PUT',
    path: '/api/tags/{id}',
    input: ({ params, body }) => ({ id: params.id, data: body }),
    withBody: true,
    call: (c, i) => c.tags.update(i as any),
  },
  { method: 'DELETE', path: '/api/tags/{id}', input: ({ params }) => params, call: (c, i) => c.tags.delete(i as any) },
];

interface CompiledPath {
  path: string;
  pattern: RegExp;
  names: string[];
  routes: RestRoute[];
}

/** Exact paths in a map; parameterised ones as patterns, each `{name}` one path segment. */
const exact = new Map<string, RestRoute[]>();
const patterned: CompiledPath[] = [];
for (const route of routes) {
  if (!route.path.includes('{')) {
    exact.set(route.path, [...(exact.get(route.path) ?? []), route]);
    continue;
  }
  const names: string[] = [];
  const source = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const existing = patterned.find((p) => p.path === route.path);
  if (existing) existing.routes.push(route);
  else patterned.push({ path: route.path, pattern: new RegExp(`^${source}$`), names, routes: [route] });
}

export function findRestRoutes(pathname: string): { routes: RestRoute[]; params: Record<string, string> } | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const plain = exact.get(path);
  if (plain) return { routes: plain, params: {} };
  for (const candidate of patterned) {
    const match = candidate.pattern.exec(path);
    if (match)
      return {
        routes: candidate.routes,
        params: Object.fromEntries(candidate.names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)])),
      };
  }
  return undefined;
}

function queryInput(search: string): Record<string, string> | undefined {
  if (search === '' || search === '?') return undefined;
  return Object.fromEntries(new URLSearchParams(search));
}

export async function handleRest(
  { routes: candidates, params }: { routes: RestRoute[]; params: Record<string, string> },
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
    const limit = route.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const input =
      typeof route.input === 'function'
        ? route.input({ params, body: route.withBody ? await readJsonBody(req, limit) : undefined, query: queryInput(search) ?? {} })
        : route.input === 'body'
          ? await readJsonBody(req, limit)
          : route.input === 'query'
            ? queryInput(search)
            : undefined;
    const ctx = await makeContext();
    const caller = createCaller(ctx);
    const answer = await route.call(caller, input);
    sendJson(res, route.status ?? 200, answer);
  } catch (error) {
    sendError(res, error);
  }
}
