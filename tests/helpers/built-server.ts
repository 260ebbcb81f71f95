import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureServerBuild } from '../../scripts/build-if-stale.mjs';
import { SERVER_NODE_ENV, SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.mjs';
import { defined } from '../../src/shared/defined';
import { removeTestEnv, startTestServer, testEnv } from './server';

/**
 * The source run in this process (what the tests import), or the bundled `dist/server/main.js` that `npm start` and
 * the Docker image run: a bundler may change behaviour (it once dropped a call it took for pure), so the hardening,
 * fuzz and smoke tests run on both.
 */
export type ServerKind = 'source' | 'built';
export const SERVER_KINDS: readonly ServerKind[] = ['source', 'built'];

/** What a test needs of a server, whichever kind: its address, and a stop that fails if the stop was not clean. */
export interface ServerUnderTest {
  kind: ServerKind;
  url: string;
  dataDir: string;
  /** DATABASE_URL of this server (file:… or postgres://…). */
  databaseUrl: string;
  close(): Promise<void>;
}

/** A started `dist/server/main.js`. */
export interface BuiltServer {
  url: string;
  child: ChildProcess;
  /** Everything it wrote on stdout and stderr so far (the last 256 kB). */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const OUTPUT_KEPT = 256 * 1024;

/** One build per test process, and none when dist/ is newer than the sources. */
let build: Promise<unknown> | undefined;

/**
 * `ensureServerBuild` under a lock directory (mkdir is atomic): test files running in parallel workers would otherwise
 * both find the build stale and empty dist/server under each other. A lock left by a killed run expires.
 */
async function buildOnceAcrossWorkers(): Promise<void> {
  const lock = path.join(ROOT, 'dist', '.server-build.lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 5 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    await ensureServerBuild();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The folder of the current `dist/server` build, built first when missing or stale. */
export async function builtServerDir(): Promise<string> {
  build ??= buildOnceAcrossWorkers();
  await build;
  return path.join(ROOT, 'dist/server');
}

/** Starts the built server with these environment variables (over the test process's own) and waits for it to listen. */
export async function spawnBuiltServer(vars: Record<string, string>): Promise<BuiltServer> {
  await builtServerDir();
  // With the flags `npm start` and the Docker image pass (heap sizes): the process users run.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(ROOT, 'dist/server/main.js')], {
    cwd: ROOT,
    env: { ...process.env, ...SERVER_NODE_ENV, ...vars },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > OUTPUT_KEPT) output = output.slice(-OUTPUT_KEPT);
  };
  defined(child.stdout, 'child.stdout').on('data', take);
  defined(child.stderr, 'child.stderr').on('data', take);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /écoute sur (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearInterval(timer);
      resolve(defined(match[1], 'match[1]'));
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`dist/server/main.js exited (${code}) before listening:\n${output}`));
    });
  });
  return { url, child, output: () => output, exited };
}

/** SIGTERM, then the exit code; a process still alive after `ms` is killed and `null` returned. */
export async function stopBuiltServer(server: BuiltServer, ms = 15_000): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  server.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const code = await Promise.race([server.exited, late]);
  clearTimeout(timer);
  if (code !== 'late') return code;
  server.child.kill('SIGKILL');
  await server.exited;
  return null;
}

/** A server of `kind` on a fresh database (the PostgreSQL run's own, or a SQLite file) in a temporary folder. */
export async function startServer(kind: ServerKind, opts: { env?: Record<string, string> } = {}): Promise<ServerUnderTest> {
  if (kind === 'source') {
    const server = await startTestServer(opts);
    return { kind, url: server.url, dataDir: server.dataDir, databaseUrl: server.databaseUrl, close: () => server.close() };
  }
  // Errors are logged even when silent: they end up in the child's output, which a failed stop shows.
  const { env, vars, dataDir, databaseUrl } = testEnv(opts.env);
  // What users run: production mode (its scheduler, its PDFs kept at issue), not the test process's NODE_ENV.
  let server: BuiltServer;
  try {
    server = await spawnBuiltServer({ ...vars, NODE_ENV: 'production' });
  } catch (error) {
    removeTestEnv(env, dataDir);
    throw error;
  }
  return {
    kind,
    url: server.url,
    dataDir,
    databaseUrl,
    async close() {
      const code = await stopBuiltServer(server);
      removeTestEnv(env, dataDir);
      if (code !== 0) throw new Error(`dist/server/main.js did not stop cleanly (exit ${code}):\n${server.output().slice(-4000)}`);
    },
  };
}
