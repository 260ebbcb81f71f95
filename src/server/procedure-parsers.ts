import {
  type AnyMiddlewareFunction,
  type AnyRouter,
  createInputMiddleware,
  createOutputMiddleware,
  type ParseFn,
} from '@trpc/server/unstable-core-do-not-import';
import { z } from 'zod';
import { proceduresOf } from './procedures';
import { isSchema } from './input-schemas';

/**
 * `schema`'s parse, synchronous: Zod's async mode makes a promise for every field and skips its compiled check of
 * objects — some 2 µs of every answer's output check on a small object where the synchronous parse takes 0.2
 * (`npm run bench -- scale`). A schema that turns out asynchronous (an async refinement; none is today) is parsed as
 * tRPC parses it from then on. Its first call has run the async check once already, its promise dropped by Zod:
 * such a check must do nothing but answer.
 */
function synchronousParseOf(schema: z.core.$ZodType): ParseFn<unknown> {
  let asynchronous = false;
  return (value) => {
    if (asynchronous) return z.parseAsync(schema, value);
    try {
      return z.parse(schema, value);
    } catch (error) {
      if (!(error instanceof z.core.$ZodAsyncError)) throw error;
      asynchronous = true;
      return z.parseAsync(schema, value);
    }
  };
}

/**
 * tRPC parses a Zod schema with `parseAsync`, for its input and its output alike. Each procedure's input and output
 * middlewares are rebuilt here, once, around the synchronous parse of the same schemas: tRPC's own middlewares, in
 * the same places, with the same errors. Procedures are called through their `_def.middlewares` array, which the
 * procedure and its caller share, so the array is changed in place. Filled once by routers/_app.ts, beside the router.
 */
export function parseSynchronously(router: AnyRouter): void {
  for (const { procedure } of proceduresOf(router)) {
    // The middlewares and the output are in tRPC's `_def`, outside its public type.
    const { middlewares, inputs, output } = procedure._def as unknown as {
      middlewares: (AnyMiddlewareFunction & { _type?: string })[];
      inputs: unknown[];
      output?: unknown;
    };
    const inputMiddlewares = middlewares.flatMap((middleware, index) => (middleware._type === 'input' ? [index] : []));
    const outputMiddlewares = middlewares.flatMap((middleware, index) => (middleware._type === 'output' ? [index] : []));
    // Each `.input()` adds its schema and its middleware, in the same order; anything else is left as tRPC built it.
    if (inputMiddlewares.length === inputs.length) {
      inputMiddlewares.forEach((at, n) => {
        const schema = inputs[n];
        if (isSchema(schema)) middlewares[at] = createInputMiddleware(synchronousParseOf(schema));
      });
    }
    const [outputAt] = outputMiddlewares;
    if (outputMiddlewares.length === 1 && outputAt !== undefined && isSchema(output))
      middlewares[outputAt] = createOutputMiddleware(synchronousParseOf(output));
  }
}
