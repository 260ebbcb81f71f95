import { type ApiClient, createApiClient } from '../api-client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { ensureServerBuild } from '../build-if-stale.mjs';
import { SERVER_NODE_ENV, SERVER_NODE_FLAGS } from '../server-node-flags.mjs';
import { defined } from '../../src/shared/defined';

const root = path.resolve(import.meta.dirname, '../..');

/** The Node flags the built server runs with: the production ones, then BENCH_SERVER_FLAGS (the caller's, added last). */
export function serverNodeFlags(): string[] {
  return [...SERVER_NODE_FLAGS, ...(process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? [])];
}

export interface BuiltServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The SQLite file; with `databaseUrl`, that postgres:// URL. */
  dbPath: string;
  /** From spawn to listening, built first when stale. */
  coldStartMs: number;
  /** The server process: the scale bench reads its memory, the render bench weighs its children (its Chromium). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The production build on loopback, on a fresh SQLite file in a temporary folder removed at stop; with `database`, on
 * a copy of that file (the server migrates it at start, as a deployment would); with `databaseUrl`, on that PostgreSQL
 * database, several processes sharing `dataDir` as the README says (a folder the caller removes).
 */
export async function startBuiltServer(options: { database?: string; databaseUrl?: string; dataDir?: string } = {}): Promise<BuiltServer> {
  // BENCH_DIST: another build of the server (one kept from before a change, inside this checkout so that it finds
  // node_modules), measured as it is, for a before/after comparison run in the same bench.
  const dist = process.env.BENCH_DIST ? path.resolve(process.env.BENCH_DIST) : path.join(root, 'dist');
  if (!process.env.BENCH_DIST) await ensureServerBuild();
  const dir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-bench-'));
  const dbPath = options.databaseUrl ?? path.join(dir, 'bench.db');
  if (options.database) fs.copyFileSync(options.database, dbPath);
  const started = performance.now();
  // Started as `npm start` and the Dockerfile start it (scripts/server-node-flags.mjs says why the flags); BENCH_SERVER_FLAGS
  // adds Node flags of the caller's (`--cpu-prof --cpu-prof-dir=…` to profile the server under the bench's load).
  const child = spawn(process.execPath, [...serverNodeFlags(), path.join(dist, 'server/main.js')], {
    env: {
      ...process.env,
      ...SERVER_NODE_ENV,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl ?? `file:${dbPath}`,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      // Benchmarks fill one organisation with thousands of documents: plan limits would refuse them.
      PLAN_LIMITS: 'off',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (!options.dataDir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await waitForLine(child, /écoute sur (http:\/\/\S+)/);
    return { url, dbPath, coldStartMs: performance.now() - started, pid: defined(child.pid, 'child.pid'), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    defined(child.stdout, 'child.stdout').on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) resolve(match[1] ?? match[0]);
    });
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before it was ready:\n${seen}`)));
  });
}

/** A new owner account on a bench server: its typed client and its session cookie. */
export async function benchOwner(url: string, name: string): Promise<{ client: ApiClient; cookie: string }> {
  const { client, cookie } = createApiClient(url);
  await client.auth.register.mutate({
    first_name: 'Bench',
    last_name: 'Mark',
    email: `bench-${name}@exemple.fr`,
    password: 'bench-password',
    organization: 'Atelier Fontaine SARL',
  });
  return { client, cookie: defined(cookie(), 'cookie()') };
}
