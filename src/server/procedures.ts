import type { AnyProcedure, AnyRouter } from '@trpc/server/unstable-core-do-not-import';

function isProcedure(value: unknown): value is AnyProcedure {
  return (
    typeof value === 'function' && '_def' in value && typeof value._def === 'object' && value._def !== null && 'procedure' in value._def
  );
}

/**
 * Every procedure of the router with its dotted path (`customers.update`): tRPC keeps them in a flat record. The one
 * walk that the REST door, the OpenAPI document and the error formatter's schema lookup all read from.
 */
export function proceduresOf(router: AnyRouter): { path: string; procedure: AnyProcedure }[] {
  const record: Record<string, unknown> = router._def.procedures;
  return Object.entries(record).flatMap(([path, procedure]) => (isProcedure(procedure) ? [{ path, procedure }] : []));
}
