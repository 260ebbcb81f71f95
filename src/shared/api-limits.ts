/**
 * A tRPC batch is one request that the server answers at once, so its size is the size of the work one
 * request may ask for. The SPA and the scripts split their batches at this count (httpBatchLink's maxItems).
 */
export const MAX_BATCH_CALLS = 20;

/** What one tRPC batch's answers may weigh, and its calls take, before the calls left are refused (server/http/batch-budget.ts). */
export const BATCH_ANSWER_BUDGET_BYTES = 2 * 1024 * 1024;
export const BATCH_WORK_BUDGET_MS = 1_000;

/** The refusal of a call a batch had no budget left for: the call did not run, and may be sent again alone. */
export const BATCH_OVER_BUDGET = `Lot trop lourd : cet appel n’a pas été exécuté, les précédents du même lot dépassent déjà ${
  BATCH_ANSWER_BUDGET_BYTES / 1024 / 1024
} Mo ou ${BATCH_WORK_BUDGET_MS / 1000} s de travail ; redemandez-le seul`;
