import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, Session } from '../helpers/clients';
import { ensureServerBuild } from '../../scripts/build-if-stale.mjs';
import { defined } from '../../src/shared/defined';

/** What `npm start` runs: the Vite-bundled server (with the tRPC build patch), started by plain node. */
describe('the built server process', () => {
  let child: ChildProcess;
  let dir: string;
  let url: string;
  let output = '';

  beforeAll(async () => {
    await ensureServerBuild();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-built-'));
    child = spawn(process.execPath, ['dist/server/main.js'], {
      env: {
        ...process.env,
        PORT: '0',
        DATABASE_URL: `file:${path.join(dir, 'db.sqlite')}`,
        DATA_DIR: dir,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    defined(child.stdout, 'child.stdout').on('data', (c: Buffer) => (output += c.toString()));
    defined(child.stderr, 'child.stderr').on('data', (c: Buffer) => (output += c.toString()));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /écoute sur (http:\/\/\S+)/.exec(output);
        if (match) {
          clearInterval(timer);
          resolve(defined(match[1], 'match[1]'));
        }
      }, 20);
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
  }, 120_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves both doors, logs one line per request, and stops cleanly on SIGTERM', async () => {
    const session = new Session(url);
    const user = await session.trpc().auth.register.mutate(newUser());
    const [viaRest, viaBatch] = await Promise.all([session.rest('GET', '/api/auth'), session.trpc().auth.me.query()]);
    expect(viaRest.body).toEqual(user);
    expect(viaBatch).toEqual(user);
    const error = await session.rest('POST', '/api/auth/login', '{oops', { 'content-type': 'application/json' });
    expect(error).toMatchObject({ status: 400, body: { messages: 'Le corps de la requête n’est pas un JSON valide' } });

    const logLine = output.split('\n').find((l) => l.includes('"path":"/api/auth"'));
    expect(JSON.parse(defined(logLine, 'logLine'))).toMatchObject({ method: 'GET', path: '/api/auth', status: 200 });
    expect(JSON.parse(defined(logLine, 'logLine')).ms).toBeTypeOf('number');

    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM reçu');
  });
});
