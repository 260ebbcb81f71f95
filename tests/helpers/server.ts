import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Env, loadEnv } from '../../src/server/env';
import { TEST_AUDIT_KEY } from './audit-key';
import { createApp, type App, type AppOptions } from '../../src/server/app';
import { createTestDatabase, dropTestDatabase, testDatabaseUrl } from './postgres';
import { sqliteTemplate } from './template-database';
import { unboostedChromium } from './chromium';
import { findChromium } from '../../src/server/pdf/pdf-renderer';

export interface TestServer {
  url: string;
  dataDir: string;
  dbPath: string;
  /** DATABASE_URL of this server, for the scripts a test runs on its database (file:… or postgres://…). */
  databaseUrl: string;
  app: App;
  close(): Promise<void>;
}

/** A fresh SQLite file in a temporary folder, and the environment that points the app at it. */
export function testEnv(extra: Record<string, string> = {}): {
  env: Env;
  /** The environment variables `env` was read from: what a child server process is started with. */
  vars: Record<string, string>;
  dataDir: string;
  dbPath: string;
  databaseUrl: string;
} {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-test-'));
  const dbPath = path.join(dataDir, 'test.db');
  // The PostgreSQL run (TEST_DATABASE_URL): a fresh database per server instead of the SQLite file; `dbPath` is then
  // its URL, which only the SQLite-specific tests (skipped on that run) open as a file.
  const base = testDatabaseUrl();
  const databaseUrl = base && extra.DATABASE_URL === undefined ? createTestDatabase(base) : `file:${dbPath}`;
  const template = sqliteTemplate();
  const printer = findChromium(process.env.CHROMIUM_PATH);
  if (!base && extra.DATABASE_URL === undefined && template) fs.copyFileSync(template, dbPath);
  const vars: Record<string, string> = {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // The tests' SMTP servers listen on 127.0.0.1 and ephemeral ports; the guard's own test sets this to false.
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // The SMTP servers that never answer wait out this timeout: 2 s, not 10, in every test that meets one.
    SMTP_TIMEOUT_SECONDS: '2',
    // Suites create many documents in one organisation: limits stay lifted unless a test turns them on (PLAN_LIMITS: 'on').
    PLAN_LIMITS: 'off',
    AUDIT_KEY: TEST_AUDIT_KEY,
    // The PDF printer's Chromium, when the machine has one: at the priority of the rest of the run (helpers/chromium.ts).
    ...(printer ? { CHROMIUM_PATH: unboostedChromium(printer) } : {}),
    ...extra,
  };
  const env = loadEnv(vars);
  const postgres = env.databaseKind === 'postgres';
  return { env, vars, dataDir, dbPath: postgres ? env.databasePath : dbPath, databaseUrl: postgres ? env.databasePath : `file:${dbPath}` };
}

/** Removes what testEnv made: the folder and, on the PostgreSQL run, the database. */
export function removeTestEnv(env: Env, dataDir: string): void {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (env.databaseKind === 'postgres') dropTestDatabase(env.databasePath);
}

/**
 * The real server, in this process, on an ephemeral port with a fresh SQLite file in a temporary folder. It keeps
 * the PDF of an issued invoice at its first download, unless `archiveOnIssue` asks for the production behaviour
 * (kept at issue): printing every invoice the tests issue would cost each file a Chromium and seconds per issue.
 */
export async function startTestServer(
  opts: {
    env?: Record<string, string>;
    archiveOnIssue?: boolean;
    einvoiceXml?: AppOptions['einvoiceXml'];
    flows?: AppOptions['flows'];
  } = {},
): Promise<TestServer> {
  const { env, dataDir, dbPath, databaseUrl } = testEnv(opts.env);
  const app = await createApp(env, { archiveOnIssue: opts.archiveOnIssue ?? false, einvoiceXml: opts.einvoiceXml, flows: opts.flows });
  const url = await app.listen();
  return {
    url,
    dataDir,
    dbPath,
    databaseUrl,
    app,
    async close() {
      await app.close();
      removeTestEnv(env, dataDir);
    },
  };
}
