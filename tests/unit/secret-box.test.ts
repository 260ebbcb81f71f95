import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSecretsKey, SECRETS_KEY_FILE, SecretBox, secretBoxFor, SecretKeyMismatchError } from '../../src/server/crypto/secret-box';
import { EnvError, loadEnv } from '../../src/server/env';

describe('secret box (AES-256-GCM, key outside the database)', () => {
  const secret = 'client-secret-à-ne-jamais-stocker-en-clair';

  it('seals to a value that holds no plaintext, different each time, and opens it back', () => {
    const box = new SecretBox(crypto.randomBytes(32));
    const a = box.seal(secret);
    const b = box.seal(secret);
    expect(a).not.toBe(b);
    for (const sealed of [a, b]) {
      expect(sealed).not.toContain(secret);
      expect(sealed).not.toContain(Buffer.from(secret).toString('base64'));
      expect(sealed).not.toContain(Buffer.from(secret).toString('hex'));
      expect(box.open(sealed)).toBe(secret);
    }
  });

  it('refuses with a clear error, never garbage, under a wrong key or when the value was altered', () => {
    const sealed = new SecretBox(crypto.randomBytes(32)).seal(secret);
    expect(() => new SecretBox(crypto.randomBytes(32)).open(sealed)).toThrow(SecretKeyMismatchError);
    expect(() => new SecretBox(crypto.randomBytes(32)).open(sealed)).toThrow(/clé de chiffrement .* n’est plus celle qui l’a chiffré/);
    const box = new SecretBox(crypto.randomBytes(32));
    const parts = box.seal(secret).split('.');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[4] = body.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SecretKeyMismatchError);
  });

  it('creates the key file once under DATA_DIR with owner-only permissions, and prefers SECRETS_KEY', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-secrets-'));
    try {
      const sealed = secretBoxFor({ secretsKey: undefined, dataDir }).seal(secret);
      const file = path.join(dataDir, SECRETS_KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const key = fs.readFileSync(file, 'utf8').trim();
      // A new process reads the same file: what was sealed still opens.
      expect(new SecretBox(parseSecretsKey(key) as Buffer).open(sealed)).toBe(secret);
      const fromEnv = secretBoxFor({ secretsKey: crypto.randomBytes(32), dataDir });
      expect(() => fromEnv.open(sealed)).toThrow(SecretKeyMismatchError);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('accepts SECRETS_KEY as 64 hex characters or base64 of 32 bytes, and refuses anything else at start', () => {
    expect(loadEnv({ SECRETS_KEY: 'ab'.repeat(32) }).secretsKey?.length).toBe(32);
    expect(loadEnv({ SECRETS_KEY: crypto.randomBytes(32).toString('base64') }).secretsKey?.length).toBe(32);
    expect(loadEnv({}).secretsKey).toBeUndefined();
    expect(() => loadEnv({ SECRETS_KEY: 'trop-court' })).toThrow(EnvError);
    expect(() => loadEnv({ SECRETS_KEY: 'trop-court' })).toThrow(/SECRETS_KEY/);
  });
});
