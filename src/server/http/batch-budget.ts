import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError } from '../errors';
import { BATCH_ANSWER_BUDGET_BYTES, BATCH_OVER_BUDGET, BATCH_WORK_BUDGET_MS } from '../../shared/api-limits';

/**
 * What one tRPC batch may make the server do. One read of a 2,000-line document costs ~80 ms of CPU (the item
 * rows, the output schema, superjson's walk) for a 600 KB answer, so 20 of them held every other request for
 * 2 s. A batch's calls now run one after another, each answer counted as it is made: once the answers reach
 * BATCH_ANSWER_BUDGET_BYTES, or the calls BATCH_WORK_BUDGET_MS, the calls left are refused without running.
 * The first call always runs: a batch never answers less than the same call sent alone, and the SPA sends a refused
 * call again alone (client/trpc.ts).
 */
export class BatchBudget {
  private bytes = 0;
  private milliseconds = 0;

  /** Runs one call and counts what it cost; between two calls, other requests get their turn. */
  async spend<T extends { body: string }>(first: boolean, call: () => Promise<T>): Promise<T> {
    if (!first) await nextTurn();
    const started = performance.now();
    const answer = await call();
    this.milliseconds += performance.now() - started;
    this.bytes += answer.body.length;
    return answer;
  }

  /** The refusal for the next call, or null while the batch is within its budget. */
  refusal(): AppError | null {
    if (this.bytes < BATCH_ANSWER_BUDGET_BYTES && this.milliseconds < BATCH_WORK_BUDGET_MS) return null;
    return new AppError('PAYLOAD_TOO_LARGE', BATCH_OVER_BUDGET);
  }
}
