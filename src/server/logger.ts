import { AsyncLocalStorage } from 'node:async_hooks';
import { maskSecrets } from './log-secrets';

/** The request being served, so that every line logged while serving it carries its id. */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

const scoped = () => {
  const id = requestScope.getStore()?.requestId;
  return id === undefined ? {} : { request_id: id };
};

/**
 * One JSON line per event on stdout (requests) or stderr (errors): what a log shipper or `grep` wants. The keys a URL
 * may carry (a share link, a calendar token) are masked in the whole line, whichever field or stack holds them.
 */
let silent = false;

const line = (event: Record<string, unknown>) => `${maskSecrets(JSON.stringify({ t: new Date().toISOString(), ...scoped(), ...event }))}\n`;

export const logger = {
  configure(opts: { level: 'info' | 'silent' }) {
    silent = opts.level === 'silent';
  },
  enabled: () => !silent,
  info(event: Record<string, unknown>) {
    if (!silent) process.stdout.write(line(event));
  },
  error(message: string, error?: unknown) {
    const detail =
      error instanceof Error ? { error: error.message, stack: error.stack } : error === undefined ? {} : { error: String(error) };
    process.stderr.write(line({ level: 'error', message, ...detail }));
  },
};
