import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** 32 bytes of key: 64 hexadecimal characters, or base64 of 32 bytes; null when it is neither. */
export function parseKey(text: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? bytes : null;
}

/**
 * A key kept in a file of the data directory, never in the database: created on first need with owner-only
 * permissions, read afterwards. `what` names it in the error of an unreadable file.
 */
export function keyFromFile(dataDir: string, name: string, what: string): Buffer {
  const file = path.join(dataDir, name);
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    // 'wx': two processes starting together never overwrite each other's key; the loser reads the winner's.
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = parseKey(fs.readFileSync(file, 'utf8').trim());
  if (!key) throw new Error(`${file} : ${what} illisible (64 caractères hexadécimaux attendus)`);
  return key;
}
