import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registered, Session } from '../helpers/clients';
import { draft, line, readyToInvoice } from '../helpers/documents';
import { testDatabaseUrl } from '../helpers/postgres';
import { removeTestEnv, testEnv } from '../helpers/server';

/**
 * Issue 21: several processes share one PostgreSQL database behind a load balancer. Numbering must stay gapless
 * across them: the counter row is locked by the issue transaction (INSERT … ON CONFLICT DO UPDATE … RETURNING in
 * db/queries/counters.ts), so a second process waits for the first to commit. PostgreSQL run only: SQLite is one
 * process (`npm start`).
 */
const root = path.resolve(import.meta.dirname, '../..');
const processes: ChildProcess[] = [];
let urls: string[] = [];
let cleanup: () => void = () => {};

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
});
