import crypto from 'node:crypto';
import path from 'node:path';
import { keyFromFile } from '../crypto/key-file';
import { loadEnv } from '../env';

/**
 * The key of the audit log. A plain SHA-256 chain can be recomputed by anyone who can write to the database, so the
 * entries are chained with HMAC-SHA-256 under a key that never enters the database: AUDIT_KEY when set, else
 * `audit.key` under DATA_DIR, created once with owner-only permissions. The closings are signed with Ed25519, its
 * seed derived from the same key: the exported file carries the public key, so whoever holds the file can check that
 * it was not altered, and only the holder of the key could have made it.
 */
export const AUDIT_KEY_FILE = 'audit.key';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export class AuditKey {
  private readonly signingKey: crypto.KeyObject;
  /** SPKI DER of the closings' public key, base64: what an exported closing names as its signer. */
  readonly publicKey: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The audit key must be 32 bytes');
    // A separate derivation for the signature: the chain's HMAC key is never used as a signing seed.
    const seed = crypto.createHmac('sha256', key).update('facturier-audit-closing-ed25519').digest();
    this.signingKey = crypto.createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    this.publicKey = crypto.createPublicKey(this.signingKey).export({ format: 'der', type: 'spki' }).toString('base64');
  }

  /** HMAC-SHA-256 of a text, hex: an entry's own hash. */
  mac(text: string): string {
    return crypto.createHmac('sha256', this.key).update(text, 'utf8').digest('hex');
  }

  /** Ed25519 signature of a closing's payload text, base64. */
  sign(text: string): string {
    return crypto.sign(null, Buffer.from(text, 'utf8'), this.signingKey).toString('base64');
  }
}

/** Whether `signature` (base64) is the signature of `text` by the holder of `publicKey` (SPKI DER, base64). */
export function signatureValid(publicKey: string, text: string, signature: string): boolean {
  try {
    const key = crypto.createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    return crypto.verify(null, Buffer.from(text, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

const resolved = new Map<string, AuditKey>();

/** AUDIT_KEY (validated by env.ts), else the key file of DATA_DIR, created on first use. */
export function resolveAuditKey(env: { auditKey: Buffer | undefined; dataDir: string }): AuditKey {
  const source = env.auditKey ? `env:${env.auditKey.toString('hex')}` : `file:${path.resolve(env.dataDir)}`;
  let key = resolved.get(source);
  if (!key) {
    key = new AuditKey(env.auditKey ?? keyFromFile(env.dataDir, AUDIT_KEY_FILE, 'clé du journal'));
    resolved.set(source, key);
  }
  return key;
}

let current: AuditKey | undefined;

/**
 * Makes `key` the process's audit key. Entries are appended deep in services that only hold a transaction, so the
 * key is the process's, set once at start (createApp, scripts); a process serves one DATA_DIR.
 */
export function setAuditKey(key: AuditKey): void {
  current = key;
}

/** The process's audit key; a script that did not set one takes its environment's (AUDIT_KEY or DATA_DIR/audit.key). */
export function currentAuditKey(): AuditKey {
  current ??= resolveAuditKey(loadEnv());
  return current;
}
