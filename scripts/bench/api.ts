import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { createApiClient } from '../api-client';
import { ensureServerBuild } from '../build-if-stale.mjs';
import { SERVER_NODE_ENV, SERVER_NODE_FLAGS } from '../server-node-flags.mjs';
import { defined } from '../../src/shared/defined';

const root = path.resolve(import.meta.dirname, '../..');
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = 16;

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) resolve(match[1] ?? match[0]);
    });
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before it was ready:\n${seen}`)));
  });
}

/** The process's resident memory in MiB (VmRSS), read from /proc as `ps` would. */
function residentMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS'));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024);
}

/** Seconds the server is left alone before its idle memory is read: start-up's garbage is collected by then. */
const IDLE_S = 5;

async function run(title: string, url: string, cookie: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers: { cookie } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${title}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** One authenticated read (the current user) through both doors, against a bare handler running the same queries. */
export async function benchApi(): Promise<void> {
  await ensureServerBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-bench-'));
  const dbPath = path.join(dir, 'bench.db');
  const started = performance.now();
  // As `npm start` starts it (scripts/server-node-flags.mjs says why the flags).
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, 'dist/server/main.js')], {
    env: {
      ...process.env,
      ...SERVER_NODE_ENV,
      PORT: '0',
      DATABASE_URL: `file:${dbPath}`,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      PLAN_LIMITS: 'off',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let bare: ChildProcess | undefined;
  try {
    const base = await waitForLine(server, /écoute sur (http:\/\/\S+)/);
    const coldStartMs = performance.now() - started;
    // What a process holds before its first request, on an empty database: what loads at start, not on first use.
    await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    const idleRss = residentMb(defined(server.pid, 'server.pid'));

    const { client, cookie: sessionCookie } = createApiClient(base);
    await client.auth.register.mutate({
      first_name: 'Bench',
      last_name: 'Mark',
      email: 'bench@exemple.fr',
      password: 'bench-password',
      organization: 'Bench SAS',
    });
    const cookie = defined(sessionCookie(), 'the session cookie');

    bare = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.mjs')], {
      env: { ...process.env, BENCH_DB: dbPath },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const barePort = await waitForLine(bare, /^(\d+)\n/);

    console.log(
      `\n## API: one authenticated read (current user), ${CONNECTIONS} connections, ${DURATION_S} s each, loopback, 1 user in the database`,
    );
    console.log(
      `cold start of the built server to listening: ${coldStartMs.toFixed(0)} ms; idle RSS ${IDLE_S} s after it, empty database: ${idleRss} MB`,
    );
    const rows = [
      await run('bare node:http + better-sqlite3', `http://127.0.0.1:${barePort}/`, cookie),
      await run('REST  GET /api/auth', `${base}/api/auth`, cookie),
      await run('tRPC  GET /api/trpc/auth.me', `${base}/api/trpc/auth.me`, cookie),
    ];
    const bareRps = defined(rows[0], 'the bare handler row').rps;
    console.log('| door | req/s | p50 ms | p99 ms | ratio to bare |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of rows) console.log(`| ${r.title} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / bareRps).toFixed(2)} |`);
  } finally {
    bare?.kill('SIGTERM');
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
