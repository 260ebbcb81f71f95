import crypto from 'node:crypto';

/**
 * One audit key for the whole test process and the processes it starts (servers, `npm run audit:verify`): the key is
 * the process's (services/audit-key.ts), and several test servers share a process. Set in the environment, so that
 * a child started with `process.env` reads the same one.
 */
process.env.AUDIT_KEY ??= crypto.randomBytes(32).toString('hex');

export const TEST_AUDIT_KEY: string = process.env.AUDIT_KEY;
