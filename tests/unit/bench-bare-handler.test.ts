import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The scale bench's yardstick must do what the app does for a request, nothing less: the session lookup on every
// request, the captured statements, the app's own answer bytes, and answers kept only while no other connection wrote.
const script = path.resolve(import.meta.dirname, '../../scripts/bench/bare-sql-server.mjs');
const token = 'abcdefghijklmnopqrstuvwxyz234567abcdefghij';
const sessionLookup = 'select id, user_id, expires_at from sessions where id = ?';

let dir: string;
let bare: ChildProcess;
let url: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-'));
  const dbPath = path.join(dir, 'bench.db');
  const db = new SQLite(dbPath);
  db.pragma('journal_mode = WAL');
  db.exec('create table sessions (id text primary key, user_id integer, expires_at text); create table items (n integer)');
  db.prepare('insert into sessions values (?, 1, ?)').run(createHash('sha256').update(token).digest('hex'), '2999-01-01T00:00:00.000Z');
  db.close();
  const routes = {
    everyAnswer: ['X-Frame-Options', 'DENY', 'Cache-Control', 'no-store'],
    lookup: { statements: [{ sql: sessionLookup, parameters: ['captured'] }] },
    routes: [
      {
        path: '/kept',
        kept: true,
        answer: { total: 1, data: ['é'] },
        statements: [{ sql: 'select count(*) as n from items', parameters: [] }],
      },
      { path: '/each', kept: false, answer: { used: 2 }, statements: [{ sql: 'select count(*) as n from items', parameters: [] }] },
    ],
  };
  fs.writeFileSync(path.join(dir, 'routes.json'), JSON.stringify(routes));
  bare = spawn(process.execPath, [script], {
    env: { ...process.env, BENCH_DB: dbPath, BENCH_ROUTES: path.join(dir, 'routes.json') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve) => bare.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  url = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  const exited = new Promise((resolve) => bare.once('exit', resolve));
  bare.kill('SIGTERM');
  await exited;
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (pathname: string, cookie?: string) => fetch(`${url}${pathname}`, { headers: cookie ? { cookie } : {} });

describe('the scale bench bare handler', () => {
  it('refuses a request without a session, or with a token the sessions table does not hold, as the app does', async () => {
    expect((await get('/each')).status).toBe(401);
    expect((await get('/each', 'session=unknownunknownunknownunknownunknownunkno')).status).toBe(401);
  });

  it('answers the app answer bytes once the session is found, for every path it was given', async () => {
    const kept = await get('/kept', `session=${token}`);
    expect(kept.status).toBe(200);
    expect(await kept.text()).toBe(JSON.stringify({ total: 1, data: ['é'] }));
    // The headers every answer of the app carries, and a request id of its own.
    expect(kept.headers.get('x-frame-options')).toBe('DENY');
    expect(kept.headers.get('cache-control')).toBe('no-store');
    expect(kept.headers.get('x-request-id')).toMatch(/^[\da-f-]{36}$/);
    expect(await (await get('/each', `theme=dark; session=${token}`)).json()).toEqual({ used: 2 });
    expect((await get('/nowhere', `session=${token}`)).status).toBe(404);
  });
});
