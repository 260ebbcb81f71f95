import { ScopedStore } from './scoped-store';
import { maskSecrets } from './log-secrets';

/**
 * The write being served, so that every line logged while serving it carries its id (http/handler.ts). A read enters
 * no scope (see scoped-store.ts): the doors name its id in the lines they log themselves (`requestId` below).
 */
export const requestScope = new ScopedStore<{ requestId: string }>();

const scoped = (requestId?: string) => {
  const id = requestId ?? requestScope.getStore()?.requestId;
  return id === undefined ? {} : { request_id: id };
};

/**
 * One JSON line per event on stdout (requests) or stderr (errors): what a log shipper or `grep` wants. The keys a URL
 * may carry (a share link, a calendar token) are masked in the whole line, whichever field or stack holds them.
 */
let silent = false;

const line = (event: Record<string, unknown>, requestId?: string) =>
  `${maskSecrets(JSON.stringify({ t: new Date().toISOString(), ...scoped(requestId), ...event }))}\n`;

export const logger = {
  configure(opts: { level: 'info' | 'silent' }) {
    silent = opts.level === 'silent';
  },
  enabled: () => !silent,
  info(event: Record<string, unknown>) {
    if (!silent) process.stdout.write(line(event));
  },
  /** `requestId`: the request the line is about, when the caller knows it (a door answering a read). */
  error(message: string, error?: unknown, requestId?: string) {
    const detail =
      error instanceof Error ? { error: error.message, stack: error.stack } : error === undefined ? {} : { error: String(error) };
    process.stderr.write(line({ level: 'error', message, ...detail }, requestId));
  },
};
