/** One JSON line per event on stdout (requests) or stderr (errors): what a log shipper or `grep` wants. */
let silent = false;

export const logger = {
  configure(opts: { level: 'info' | 'silent' }) {
    silent = opts.level === 'silent';
  },
  enabled: () => !silent,
  info(event: Record<string, unknown>) {
    if (!silent) process.stdout.write(`${JSON.stringify({ t: new Date().toISOString(), ...event })}\n`);
  },
  error(message: string, error?: unknown) {
    const detail =
      error instanceof Error ? { error: error.message, stack: error.stack } : error === undefined ? {} : { error: String(error) };
    process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), level: 'error', message, ...detail })}\n`);
  },
};
