import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { parseSynchronously } from '../../../src/server/procedure-parsers';

const t = initTRPC.create();

/** A router of the shapes the app uses, its schemas watched: how many times tRPC's async parse ran. */
function watchedRouter() {
  const input = z.object({ name: z.string().min(1), count: z.coerce.number().default(1) });
  const output = z.object({ greeting: z.string(), count: z.number() });
  let checks = 0;
  const asyncInput = z.object({ code: z.string() }).refine(async (value) => {
    checks++;
    return value.code === 'ok';
  }, 'code refusé');
  const schemas = [input, output, asyncInput];
  const parseAsync = schemas.map((schema) => vi.spyOn(schema, 'parseAsync'));
  const router = t.router({
    greet: t.procedure
      .input(input)
      .output(output)
      .query(({ input: value }) => ({ greeting: `Bonjour ${value.name}`, count: value.count })),
    broken: t.procedure.output(output).query(() => ({ greeting: 42 }) as unknown as { greeting: string; count: number }),
    chained: t.procedure
      .input(z.object({ id: z.number() }))
      .input(z.object({ note: z.string().trim() }))
      .query(({ input: value }) => value),
    checked: t.procedure.input(asyncInput).query(({ input: value }) => value.code),
  });
  const asyncCalls = () => parseAsync.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  return { router, asyncCalls, checks: () => checks };
}

async function refusalOf(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  if (!(error instanceof TRPCError)) throw new Error('expected a TRPCError');
  return error;
}

describe('parseSynchronously', () => {
  it('parses inputs and outputs without Zod’s async mode, with the same answers', async () => {
    const { router, asyncCalls } = watchedRouter();
    const before = t.createCallerFactory(router)({});
    expect(await before.greet({ name: 'Léa' })).toEqual({ greeting: 'Bonjour Léa', count: 1 });
    expect(asyncCalls()).toBe(2);

    parseSynchronously(router);
    const caller = t.createCallerFactory(router)({});
    expect(await caller.greet({ name: 'Léa', count: '3' as unknown as number })).toEqual({ greeting: 'Bonjour Léa', count: 3 });
    expect(await caller.chained({ id: 4, note: '  à revoir ' })).toEqual({ id: 4, note: 'à revoir' });
    expect(asyncCalls()).toBe(2);
  });

  it('refuses a bad input with tRPC’s 400 and a bad output with its 500, the Zod error as their cause', async () => {
    const { router } = watchedRouter();
    parseSynchronously(router);
    const caller = t.createCallerFactory(router)({});
    const badInput = await refusalOf(caller.greet({ name: '' }));
    expect(badInput.code).toBe('BAD_REQUEST');
    expect(badInput.cause).toBeInstanceOf(z.ZodError);
    const badOutput = await refusalOf(caller.broken());
    expect(badOutput.code).toBe('INTERNAL_SERVER_ERROR');
    expect(badOutput.message).toBe('Output validation failed');
    expect(badOutput.cause).toBeInstanceOf(z.ZodError);
  });

  it('parses an asynchronous schema as tRPC does', async () => {
    const { router, checks } = watchedRouter();
    parseSynchronously(router);
    const caller = t.createCallerFactory(router)({});
    // Its refinement runs only in Zod's async mode: a synchronous parse alone would refuse even the good code.
    expect(await caller.checked({ code: 'ok' })).toBe('ok');
    const refused = await refusalOf(caller.checked({ code: 'non' }));
    expect(refused.code).toBe('BAD_REQUEST');
    // Found asynchronous at its first call (the check ran in the synchronous try, then again), async since.
    expect(checks()).toBe(3);
  });
});
