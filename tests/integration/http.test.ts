import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { EnvError, loadEnv } from '../../src/server/env';

describe('static SPA with history fallback', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`,
    );
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
    server = await startTestServer({ env: { CLIENT_DIST: dist } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it.each(['/', '/auth/login', '/invoices/12/edit', '/share/0b5e4c9e-6a43-4a0e-9a43-2f1d6f3c1b11', '/page/inconnue'])(
    'serves index.html on %s',
    async (p) => {
      const r = await fetch(`${server.url}${p}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      expect(await r.text()).toContain('<div id="root">');
    },
  );

  it('serves hashed assets immutable and gzipped', async () => {
    const r = await fetch(`${server.url}/assets/app-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toContain('immutable');
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect(await r.text()).toContain('console.log');
  });

  it('answers 404 for a missing file and never serves outside the build folder', async () => {
    expect((await fetch(`${server.url}/assets/absent.js`)).status).toBe(404);
    const traversal = await new Promise<number>((resolve) => {
      http.get({ host: '127.0.0.1', port: new URL(server.url).port, path: '/../../../../etc/passwd' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
    });
    expect([200, 404]).toContain(traversal);
    const body = await (await fetch(`${server.url}/%2e%2e/%2e%2e/etc/passwd`)).text();
    expect(body).not.toContain('root:');
  });

  it('gives a build id that changes when a new build lands', async () => {
    const first = (await (await fetch(`${server.url}/api/version`)).json()) as { version: string; build_id: string };
    expect(first.version).toBe('1.0.0');
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div><!-- new build --></body></html>');
    const second = (await (await fetch(`${server.url}/api/version`)).json()) as { build_id: string };
    expect(second.build_id).not.toBe(first.build_id);
  });
});

describe('environment', () => {
  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ APP_URL: 'pas une url' }, /APP_URL/],
    [{ SESSION_SECURE: 'peut-être' }, /SESSION_SECURE/],
    [{ SMTP_URL: 'http://mail' }, /SMTP_URL/],
    [{ DATABASE_URL: 'mysql://x' }, /file: \(SQLite\) ou postgres:\/\/ \(PostgreSQL\)/],
    [{ LOGIN_MAX_FAILURES: '-1' }, /LOGIN_MAX_FAILURES/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadEnv(env)).toThrow(EnvError);
    expect(() => loadEnv(env)).toThrow(message);
  });

  it('selects PostgreSQL for a postgres:// URL, its files in ./data unless DATA_DIR says otherwise', () => {
    for (const url of ['postgres://u@h/db', 'postgresql://u:p@h:5433/db'])
      expect(loadEnv({ DATABASE_URL: url })).toMatchObject({ databaseKind: 'postgres', databasePath: url, dataDir: path.resolve('data') });
    expect(loadEnv({ DATABASE_URL: 'postgres://u@h/db', DATA_DIR: '/srv/facturier' }).dataDir).toBe('/srv/facturier');
    expect(loadEnv({}).databaseKind).toBe('sqlite');
  });

  it('applies CONTRACT.md defaults', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ port: 3000, host: '127.0.0.1', appUrl: 'http://localhost:3000', sessionSecure: false, smtpUrl: undefined });
    expect(env.databasePath).toBe(path.resolve('data/facturier.db'));
    expect(loadEnv({ APP_URL: 'https://factures.exemple.fr/' })).toMatchObject({
      appUrl: 'https://factures.exemple.fr',
      sessionSecure: true,
    });
  });

  it('the process exits 1 with the message instead of starting half-configured', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, PORT: 'quatre-vingts', DATABASE_URL: `file:${path.join(os.tmpdir(), 'never.db')}` },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Configuration invalide');
    expect(run.stderr).toContain('PORT');
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight, refuses new connections, then closes the database', async () => {
    const server = await startTestServer();
    const { session } = await registered(server.url);
    const { port } = new URL(server.url);
    const body = JSON.stringify({ message: 'envoyé pendant l’arrêt', screenshot: null });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/feedback',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), cookie: session.cookie },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10)); // half a request is on the wire when the shutdown starts
      setTimeout(() => req.end(body.slice(10)), 300);
    });
    await new Promise((r) => setTimeout(r, 100));
    const closed = server.app.close();
    const result = await answer;
    expect(result.status).toBe(200);
    expect(result.text).toContain('Votre feedback a été envoyé avec succès');
    await closed;
    await expect(fetch(`${server.url}/api/version`)).rejects.toThrow();
    // The pool or the file is closed: the database refuses the next query.
    await expect(server.app.deps.db.selectFrom('users').select('id').execute()).rejects.toThrow();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });
});
