/**
 * A tRPC batch is one request that the server answers at once, so its size is the size of the work one
 * request may ask for. The SPA and the scripts split their batches at this count (httpBatchLink's maxItems).
 */
export const MAX_BATCH_CALLS = 20;
