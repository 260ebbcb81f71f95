import { AsyncLocalStorage } from 'node:async_hooks';

/** The request being served, so that every line logged while serving it carries its id. */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

const scoped = () => {
  const id = requestScope.getStore()?.requestId;
  return id === undefined ? {} : { request_id: id };
};

/** One JSON line per event on stdout (requests) or stderr (errors): what a log shipper or `grep` wants. */
let silent = false;

export const logger = {
  configure(opts: { level: 'info' | 'silent' }) {
    silent = opts.level === 'silent';
  },
  enabled: () => !silent,
  info(event: Record<string, unknown>) {
    if (!silent) process.stdout.write(`${JSON.stringify({ t: new Date().toISOString(), ...scoped(), ...event })}\n`);
  },
  error(message: string, error?: unknown) {
    const detail =
      error instanceof Error ? { error: error.message, stack: error.stack } : error === undefined ? {} : { error: String(error) };
    process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), level: 'error', ...scoped(), message, ...detail })}\n`);
  },
};
