import type { AnyRouter } from '@trpc/server/unstable-core-do-not-import';
import { z } from 'zod';
import { proceduresOf } from './procedures';

/**
 * Each procedure's input schema by its dotted path, so that the error formatter (trpc.ts, which the routers import)
 * names an invalid field by walking the schema that refused it. Filled once by routers/_app.ts, beside the router.
 */
const inputSchemas = new Map<string, z.core.$ZodType>();

/** Whether a procedure's parser is a Zod schema (rather than a function or another validator). */
export const isSchema = (parser: unknown): parser is z.core.$ZodType => parser instanceof z.core.$ZodType;

export function registerInputSchemas(router: AnyRouter): void {
  for (const { path, procedure } of proceduresOf(router)) {
    const schemas = procedure._def.inputs.filter(isSchema);
    // Chained `.input()`s are merged by tRPC: their intersection is what the procedure parses.
    const [first, ...rest] = schemas;
    if (first)
      inputSchemas.set(
        path,
        rest.reduce<z.core.$ZodType>((all, next) => z.intersection(all, next), first),
      );
  }
}

/** The input schema of the procedure at `path`, when it has one. */
export function inputSchemaOf(path: string | undefined): z.core.$ZodType | undefined {
  return path === undefined ? undefined : inputSchemas.get(path);
}
