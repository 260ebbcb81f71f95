import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registered, Session } from '../helpers/clients';
import { draft, line, readyToInvoice } from '../helpers/documents';
import { testDatabaseUrl } from '../helpers/postgres';
import { removeTestEnv, testEnv } from '../helpers/server';

/**
 * Several processes share one PostgreSQL database behind a load balancer. Numbering must stay gapless
 * across them: the counter row is locked by the issue transaction (INSERT … ON CONFLICT DO UPDATE … RETURNING in
 * db/queries/counters.ts), so a second process waits for the first to commit. PostgreSQL run only: SQLite is one
 * process (`npm start`).
 */
const root = path.resolve(import.meta.dirname, '../..');
const processes: ChildProcess[] = [];
let urls: string[] = [];
let cleanup: () => void = () => {};
const LOGIN_MAX_FAILURES = 3;
const LOGIN_MAX_FAILURES_PER_IP = 8;
const LOCKED = 'Trop de tentatives de connexion. Réessayez dans 15 minutes.';

function startProcess(env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'tests/fixtures/processes/server.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  processes.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /LISTENING (\S+)/.exec(out);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
  });
}

describe.skipIf(!testDatabaseUrl())('several processes on one PostgreSQL database', () => {
  beforeAll(async () => {
    const { env, dataDir } = testEnv();
    cleanup = () => removeTestEnv(env, dataDir);
    const childEnv = {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: env.databasePath,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PLAN_LIMITS: 'off',
      // The limits of auth.test.ts's single server, small enough to reach in a few requests.
      LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
      LOGIN_MAX_FAILURES_PER_IP: String(LOGIN_MAX_FAILURES_PER_IP),
    };
    // One after the other: the first migrates (a no-op on the template's copy), the others find it done.
    urls = [await startProcess(childEnv)];
    urls.push(...(await Promise.all([startProcess(childEnv), startProcess(childEnv)])));
  });

  afterAll(async () => {
    await Promise.all(
      processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    cleanup();
  });

  it('50 concurrent issues spread over 3 processes give the numbers 1 to 50, no gap and no duplicate', async () => {
    expect(new Set(urls).size).toBe(3);
    const { session } = await registered(urls[0] as string);
    const { customerId } = await readyToInvoice(session);
    const drafts = [];
    for (let i = 0; i < 50; i++) drafts.push(await draft(session, { customer_id: customerId, items: [line(`Ligne ${i}`, 1, 10 + i)] }));
    // The same session on each process: sessions live in the shared database.
    const sessions = urls.map((url) => Object.assign(new Session(url), { cookie: session.cookie }));
    const answers = await Promise.all(
      drafts.map((d, i) => (sessions[i % sessions.length] as Session).rest('POST', `/api/documents/${d.id}/issue`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const numbers = answers.map((a) => a.body.data.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `F2026-${String(i + 1).padStart(4, '0')}`));
  }, 180_000);

  it('login failures spread round-robin over the 3 processes are refused after the count of one process (shared limits)', async () => {
    const { user } = await registered(urls[0] as string);
    const on = (i: number) => new Session(urls[i % urls.length] as string);
    const login = (i: number, email: string, password: string) => on(i).rest('POST', '/api/auth/login', { email, password });
    // Per e-mail and IP: each process saw one failure, yet the fourth try is locked, even with the right password.
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const failed = await login(i, user.email, 'mauvais');
      expect([failed.status, failed.body.messages]).toEqual([401, 'Adresse e-mail ou mot de passe incorrect']);
    }
    for (let i = LOGIN_MAX_FAILURES; i < LOGIN_MAX_FAILURES + 3; i++) {
      const locked = await login(i, user.email, user.password);
      expect([locked.status, locked.body.messages]).toEqual([429, LOCKED]);
    }
    // Per IP, over many addresses: the failures above count too; the limit is reached across the processes as on one.
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IP - LOGIN_MAX_FAILURES + 3; i++) {
      const answer = await login(i, `inconnu${i}@exemple.fr`, 'mauvais');
      statuses.push(answer.status);
      if (answer.status === 429) expect(answer.body.messages).toBe(LOCKED);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });
});
