/**
 * What a procedure's REST door may declare about its body and its file answer: the size a body may have and the file
 * types it answers. The procedures name them in their `.meta({ rest })`; the doors in http/ enforce them.
 */

/** Bytes a JSON body may have unless the procedure declares more. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Feedback carries a PNG screenshot of the whole page; imports carry a file. */
export const FEEDBACK_BODY_LIMIT = 10 * 1024 * 1024;

export type FileCharset = 'utf-8' | 'iso-8859-15';

/**
 * The CSV exports' door: the file itself (`curl -o clients.csv` saves a CSV), or the `{ filename, content }` object
 * for a client that asks for JSON (the SPA goes through tRPC and always gets the object).
 */
export const CSV_FILE = { contentType: 'text/csv', charset: 'utf-8', jsonWhenAsked: true } as const;
