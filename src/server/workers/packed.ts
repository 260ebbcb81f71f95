/**
 * Plain data bound for a worker thread, as UTF-8 JSON bytes handed over without a copy. A structured clone of many rows
 * is one long pause of the event loop at `postMessage` (a year of invoices: a fifth of a second); packed page by page,
 * each page costs a few milliseconds between other requests, and the bytes are transferred, not copied.
 */
export type Packed<T> = Uint8Array & { readonly __packed?: T };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const pack = <T>(value: T): Packed<T> => encoder.encode(JSON.stringify(value));

export const unpack = <T>(bytes: Packed<T>): T => JSON.parse(decoder.decode(bytes)) as T;

/** The buffers to transfer with the task (the caller must not read the packs afterwards). */
export const transferOf = (packs: Packed<unknown>[]): ArrayBuffer[] => packs.map((bytes) => bytes.buffer as ArrayBuffer);

/**
 * Lets the event loop serve what waits before the next page: better-sqlite3 answers synchronously, so awaiting a query
 * alone never gives it a turn.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
