import type { AnyProcedure, AnyRouter } from '@trpc/server/unstable-core-do-not-import';
import type { ProcedureRule } from '../shared/roles';
import type { ProcedureMeta } from './trpc';

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

/** Each procedure's meta by its dotted path, for the doors to read per request without walking the router. */
export function procedureMetasOf(router: AnyRouter): Map<string, ProcedureMeta | undefined> {
  return new Map(proceduresOf(router).map(({ path, procedure }) => [path, procedure._def.meta as ProcedureMeta | undefined]));
}

/** The rule a procedure carries in its type (trpc.ts's builders); `never` for one without a single rule. */
type RuleOf<TProcedure> = TProcedure extends { meta: { allow?: infer TRule } }
  ? ProcedureRule extends NonNullable<TRule>
    ? never
    : NonNullable<TRule>
  : never;

/** Every dotted procedure path of a router's record (`customers.update`). */
export type ProcedurePathOf<TRecord, TPrefix extends string = ''> = {
  [K in keyof TRecord & string]: TRecord[K] extends AnyProcedure ? `${TPrefix}${K}` : ProcedurePathOf<TRecord[K], `${TPrefix}${K}.`>;
}[keyof TRecord & string];

type RuleAt<TRecord, TPath extends string> = TPath extends `${infer THead}.${infer TTail}`
  ? THead extends keyof TRecord
    ? RuleAt<TRecord[THead], TTail>
    : never
  : TPath extends keyof TRecord
    ? RuleOf<TRecord[TPath]>
    : never;

/**
 * Each procedure's path and the rule its type carries: the screens' map of rules satisfies this type, so a procedure
 * missing from it, left in it after it went, or carrying another rule than the map says fails the typecheck.
 */
export type ProcedureRulesOf<TRouter extends AnyRouter> = {
  [P in ProcedurePathOf<TRouter['_def']['record']>]: RuleAt<TRouter['_def']['record'], P>;
};
