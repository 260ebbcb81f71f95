import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv, runsAsRoot } from '../../src/server/env';
import { chromiumFlags } from '../../src/server/pdf/pdf-renderer';
import { SANDBOX_RULE, withChromiumSandbox } from '../../scripts/chromium-seccomp.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-env-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function secret(name: string, content: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

describe('DATABASE_PASSWORD_FILE (a Docker or systemd secret)', () => {
  it('puts the file’s password into the PostgreSQL URL, encoded, without its final newline, over any password of the URL', () => {
    const file = secret('pw', 'p@ss:w/ord é\n');
    const env = loadEnv({ DATABASE_URL: 'postgres://facturier:old@db:5432/facturier', DATABASE_PASSWORD_FILE: file });
    const url = new URL(env.databasePath);
    expect(decodeURIComponent(url.password)).toBe('p@ss:w/ord é');
    expect(url.username).toBe('facturier');
    expect(url.host).toBe('db:5432');
    expect(url.pathname).toBe('/facturier');
    expect(env.databaseKind).toBe('postgres');
  });

  it('refuses, in French, a file that is missing or empty, and a SQLite database', () => {
    expect(() => loadEnv({ DATABASE_URL: 'postgres://u@db/x', DATABASE_PASSWORD_FILE: path.join(dir, 'absent') })).toThrow(
      /DATABASE_PASSWORD_FILE illisible .*ENOENT/,
    );
    expect(() => loadEnv({ DATABASE_URL: 'postgres://u@db/x', DATABASE_PASSWORD_FILE: secret('empty', '\n') })).toThrow(
      'DATABASE_PASSWORD_FILE est vide',
    );
    expect(() => loadEnv({ DATABASE_URL: 'file:./x.db', DATABASE_PASSWORD_FILE: secret('pw2', 'x') })).toThrow(
      'DATABASE_PASSWORD_FILE ne sert qu’avec une DATABASE_URL postgres://',
    );
  });
});

describe('CHROMIUM_SANDBOX', () => {
  it('keeps the sandbox for any user but root, unless told', () => {
    expect(loadEnv({}).chromiumSandbox).toBe(!runsAsRoot());
    expect(loadEnv({ CHROMIUM_SANDBOX: 'on' }).chromiumSandbox).toBe(true);
    expect(loadEnv({ CHROMIUM_SANDBOX: 'off' }).chromiumSandbox).toBe(false);
    expect(() => loadEnv({ CHROMIUM_SANDBOX: 'oui' })).toThrow('CHROMIUM_SANDBOX : attendu : on ou off');
  });

  it('launches Chromium with --no-sandbox only when the sandbox is off', () => {
    expect(chromiumFlags(true)).not.toContain('--no-sandbox');
    expect(chromiumFlags(false)).toContain('--no-sandbox');
    expect(chromiumFlags(true)).toContain('--disable-background-networking');
  });
});

describe('the seccomp profile that keeps Chromium’s sandbox in a container', () => {
  const dockerLike = {
    defaultAction: 'SCMP_ACT_ERRNO',
    syscalls: [
      { names: ['read', 'write'], action: 'SCMP_ACT_ALLOW' },
      { names: ['clone', 'unshare', 'setns'], action: 'SCMP_ACT_ALLOW', includes: { caps: ['CAP_SYS_ADMIN'] } },
    ],
  };

  it('adds the namespace calls for every container, once, and changes nothing else', () => {
    const widened = withChromiumSandbox(dockerLike);
    expect(widened.defaultAction).toBe('SCMP_ACT_ERRNO');
    expect(widened.syscalls.slice(0, 2)).toEqual(dockerLike.syscalls);
    expect(widened.syscalls[2]).toEqual(SANDBOX_RULE);
    expect(SANDBOX_RULE).not.toHaveProperty('includes');
    expect(withChromiumSandbox(widened)).toEqual(widened);
  });

  it('refuses what is not a Docker profile', () => {
    expect(() => withChromiumSandbox({ syscalls: [] })).toThrow('n’est pas un profil seccomp de Docker');
    expect(() => withChromiumSandbox(null)).toThrow('n’est pas un profil seccomp de Docker');
  });
});
