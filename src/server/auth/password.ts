import type * as Argon2 from '@node-rs/argon2';
import { onFirstUse } from '../on-first-use';

const argon2 = onFirstUse<typeof Argon2>('@node-rs/argon2');

// @node-rs/argon2 defaults to argon2id (19 MiB, 2 passes, 1 lane: OWASP's first recommended profile).
export async function hashPassword(password: string): Promise<string> {
  return argon2().hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2().verify(passwordHash, password);
  } catch {
    return false; // a malformed stored hash is a failed login, not a crash
  }
}

/**
 * Verified against when the email is unknown, so a missing account takes as long to refuse as a wrong password.
 * Any hash does: each process computes its own.
 */
let decoyHash: Promise<string> | undefined;
export function getDecoyHash(): Promise<string> {
  decoyHash ??= argon2().hash('facturier-decoy-password');
  return decoyHash;
}
