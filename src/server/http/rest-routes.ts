import type { AnyRouter } from '@trpc/server/unstable-core-do-not-import';
import { proceduresOf } from '../procedures';
import type { ProcedureMeta, RestMeta } from '../trpc';

/** One REST door: a procedure's `meta.rest`, with what the dispatcher and the OpenAPI document need beside it. */
export interface RestRoute extends RestMeta {
  /** The procedure's dotted tRPC path (`customers.update`). */
  procedure: string;
  type: 'query' | 'mutation';
  /** Names of the `{name}` path parameters, in order. */
  params: string[];
  /** Whether the procedure has an input at all: one without reads no body (a stray body cannot fail it). */
  takesInput: boolean;
  /** The input and output parsers (Zod schemas here), for the OpenAPI document. */
  inputs: unknown[];
  output: unknown;
  /** The rest of the procedure's metadata (plan limits, heavy work, outside services): the answers it may give. */
  meta: Omit<ProcedureMeta, 'rest'>;
}

/**
 * Every procedure that declares a REST path, read once from the router: tRPC keeps
 * its procedures in a flat record by dotted path.
 */
export function restRoutesOf(router: AnyRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const { path, procedure } of proceduresOf(router)) {
    const def = procedure._def;
    // The router's `.meta<ProcedureMeta>()` types every procedure's `.meta()`; tRPC's own types forget it per procedure.
    const { rest, ...meta } = (def.meta as ProcedureMeta | undefined) ?? {};
    if (!rest || def.type === 'subscription') continue;
    // A file answer is never stored for an Idempotency-Key replay: only a read may send one.
    if (rest.file && rest.method !== 'GET') throw new Error(`${path}: meta.rest.file is for GET paths only`);
    routes.push({
      ...rest,
      procedure: path,
      type: def.type,
      params: [...rest.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
      takesInput: def.inputs.length > 0,
      inputs: def.inputs,
      output: 'output' in def ? def.output : undefined,
      meta,
    });
  }
  return routes;
}

interface PatternedPath {
  pattern: RegExp;
  names: string[];
  routes: RestRoute[];
}

export interface RestMatch {
  routes: RestRoute[];
  params: Record<string, string>;
}

/** Exact paths in a map, parameterised ones as patterns (each `{name}` one path segment); exact paths win. */
export function compileRestRoutes(routes: RestRoute[]): (pathname: string) => RestMatch | undefined {
  const exact = new Map<string, RestRoute[]>();
  const patterned = new Map<string, PatternedPath>();
  for (const route of routes) {
    if (route.params.length === 0) {
      exact.set(route.path, [...(exact.get(route.path) ?? []), route]);
      continue;
    }
    const existing = patterned.get(route.path);
    if (existing) existing.routes.push(route);
    else {
      const source = route.path.replace(/\{(\w+)\}/g, '([^/]+)');
      patterned.set(route.path, { pattern: new RegExp(`^${source}$`), names: route.params, routes: [route] });
    }
  }
  const candidates = [...patterned.values()];
  return (pathname) => {
    const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    const plain = exact.get(path);
    if (plain) return { routes: plain, params: {} };
    for (const candidate of candidates) {
      const match = candidate.pattern.exec(path);
      if (match) {
        const params: Record<string, string> = {};
        candidate.names.forEach((name, i) => {
          params[name] = decodeURIComponent(match[i + 1] ?? '');
        });
        return { routes: candidate.routes, params };
      }
    }
    return undefined;
  };
}
