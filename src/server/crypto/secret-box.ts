import crypto from 'node:crypto';
import { keyFromFile, parseKey } from './key-file';

/**
 * Secrets an organisation types (a platform's client secret or token) are kept encrypted, AES-256-GCM, with a key
 * that never enters the database: SECRETS_KEY when set, else `secrets.key` under DATA_DIR, created once (0600). A
 * copy of the database alone, or a backup of it, then reveals no secret. The key must be backed up on its own.
 */
export const SECRETS_KEY_FILE = 'secrets.key';

/** Stored form: `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts; the key id names which key sealed it. */
const VERSION = 'v1';

export class SecretKeyMismatchError extends Error {
  constructor() {
    super(
      'Un secret enregistré ne peut pas être déchiffré : la clé de chiffrement (SECRETS_KEY ou data/secrets.key) n’est plus celle qui l’a chiffré. Restaurez cette clé, ou saisissez le secret à nouveau.',
    );
  }
}

/** The 32 bytes of SECRETS_KEY (or of any key given the same way). */
export const parseSecretsKey = parseKey;

/** A short fingerprint of a key (not the key): tells a wrong key from a damaged ciphertext. */
const keyId = (key: Buffer) => crypto.createHash('sha256').update('facturier-secret-box').update(key).digest('base64url').slice(0, 8);

export class SecretBox {
  private readonly id: string;
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
    this.id = keyId(key);
  }

  seal(plaintext: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, this.id, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** The plaintext, or SecretKeyMismatchError: GCM's tag refuses a wrong key or an altered value, never garbage. */
  open(sealed: string): string {
    const [version, id, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || id !== this.id || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new SecretKeyMismatchError();
    }
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretKeyMismatchError();
    }
  }
}

const boxes = new Map<string, SecretBox>();

/** The process's secret box: SECRETS_KEY (validated by env.ts), else the key file of DATA_DIR. */
export function secretBoxFor(env: { secretsKey: Buffer | undefined; dataDir: string }): SecretBox {
  const cacheKey = env.secretsKey ? `env:${keyId(env.secretsKey)}` : `file:${env.dataDir}`;
  let box = boxes.get(cacheKey);
  if (!box) {
    box = new SecretBox(env.secretsKey ?? keyFromFile(env.dataDir, SECRETS_KEY_FILE, 'clé de chiffrement'));
    boxes.set(cacheKey, box);
  }
  return box;
}
