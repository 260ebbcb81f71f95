/**
 * Issue 20: a tRPC batch is one request that the server answers at once, so its size is the size of the work one
 * request may ask for. The SPA and the scripts split their batches at this count (httpBatchLink's maxItems).
 */
export const MAX_BATCH_CALLS = 20;

/** A batch's answer is built in memory before it is sent: past this, ask for fewer things at a time. */
export const MAX_BATCH_ANSWER_BYTES = 16 * 1024 * 1024;
