import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '../../server/routers/_app';
import { BATCH_OVER_BUDGET } from '../../shared/api-limits';

/** A call the server did not run because the batch it came in had spent its budget (server/http/batch-budget.ts). */
const refusedForItsBatch = (error: unknown) =>
  error instanceof TRPCClientError &&
  (error.data as { httpStatus?: number } | undefined)?.httpStatus === 413 &&
  error.message === BATCH_OVER_BUDGET;

/**
 * A read refused for its batch's budget is sent again alone, once, as the refusal asks: a page whose reports are heavy
 * together (the first figures of a large organisation) then draws each of them instead of an error. The link after it
 * sends an operation whose `context.alone` is true in a request of its own. The SPA's client and the tests' typed
 * client both use it, so that a busy machine's slower batches are taken the same way.
 */
export const aloneAfterBatchRefusalLink: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) => {
      let subscription = next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => {
          if (op.type !== 'query' || op.context.alone || !refusedForItsBatch(error)) return observer.error(error);
          subscription = next({ ...op, context: { ...op.context, alone: true } }).subscribe(observer);
        },
        complete: () => observer.complete(),
      });
      return () => subscription.unsubscribe();
    });
