// Lists and figures at scale: one organisation with 100 000 documents (BENCH_SCALE_DOCUMENTS). Per endpoint:
// sequential p50/p99, req/s and p99 under BENCH_CONNECTIONS, the same SQL on a bare node:http + better-sqlite3
// handler side by side (ratio), req/s and p99 « under writes » (loaded while the neighbour organisation creates a
// customer through the API every BENCH_WRITE_EVERY_MS, 100 by default), and the verdict of SQLite's plan for each
// statement the endpoint runs. BENCH_ONLY=dashboard measures only the endpoints whose title holds that text.
// The organisation is built once (rows shaped as the issue service stores them, the search index written by the
// documents and customers services, in one transaction) and kept in .bench-cache/, so that reruns start at once;
// the built server migrates its copy at start, so a new migration is measured on the cached data.
// With `--pg postgres://…` (or BENCH_DATABASE_URL), the same database is then copied to a new database on
// that server by `npm run db:copy`'s code (timed), and the same endpoints are measured on the built server running on
// PostgreSQL, printed beside the SQLite figures with PostgreSQL's plan verdicts (no bare yardstick there); then the
// throughput of 1, 2 and 4 processes on that database (processes.ts).
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { createApiClient } from '../api-client';
import { startBuiltServer, type BuiltServer } from './built-server';
import { measureProcesses } from './processes';
import {
  benchPostgresUrl,
  capturingPostgres,
  copyToPostgres,
  freshPostgresDatabase,
  postgresVerdict,
  seconds,
  thousands,
} from './postgres';
import { seedDirectly } from './reports';
import { defined } from '../../src/shared/defined';
import type { Database } from '../../src/server/db/schema';
import { listDocuments, type DocumentListParams } from '../../src/server/db/queries/document-lists';
import { searchEntries } from '../../src/server/db/queries/search';
import { findCustomer } from '../../src/server/db/queries/customers';
import { indexDocument } from '../../src/server/services/documents';
import { indexCustomer } from '../../src/server/services/customers';
import { dashboardFigures } from '../../src/server/services/figures';
import { listReminders } from '../../src/server/services/payment-reminders';
import { usageOf } from '../../src/server/services/subscriptions';
import { todayIso } from '../../src/server/services/document-record';
import {
  customersReport,
  itemsReport,
  marginReport,
  receiptsBook,
  receivablesReport,
  tagsReport,
  turnoverReport,
  urssafReport,
} from '../../src/server/services/reports';
import { vatReport } from '../../src/server/services/vat-return';

const root = path.resolve(import.meta.dirname, '../..');
const DOCUMENTS = Number(process.env.BENCH_SCALE_DOCUMENTS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const SEQUENTIAL = Number(process.env.BENCH_REQUESTS ?? 20);
const AFTER_WRITE = 7;
/** The neighbour organisation's pace while an endpoint is loaded « under writes » (BENCH_WRITE_EVERY_MS). */
const WRITE_EVERY_MS = Number(process.env.BENCH_WRITE_EVERY_MS ?? 100);
/** Only the endpoints whose title holds this text (BENCH_ONLY=dashboard): one row measured, not twenty. */
const ONLY = process.env.BENCH_ONLY;
const EMAIL = 'bench-scale@exemple.fr';
const PASSWORD = 'bench-password';
/** The bench organisation's user, in the cached database (and in its PostgreSQL copies). */
export const SCALE_LOGIN = { email: EMAIL, password: PASSWORD };

const rssOf = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(field));
  return Math.round(Number(line?.replace(/\D+/g, '') ?? 0) / 1024); // MB
};

/**
 * The cached organisation: built on a fresh built server, then copied out whole (VACUUM INTO, no WAL beside it). A
 * neighbour organisation with as many documents, customers of the same names and numbers shares the database, so
 * that a query which reads every organisation's rows before filtering on its own shows in the figures.
 */
export async function scaleDatabase(): Promise<{ file: string; built: string }> {
  // v2: documents created on their own date, customers with a whole address (a v1 file is stale, not reused).
  const file = path.join(root, '.bench-cache', `scale-${DOCUMENTS}-neighbour-v2.db`);
  if (fs.existsSync(file)) return { file, built: 'cached' };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const started = performance.now();
  const server = await startBuiltServer();
  try {
    const { client } = createApiClient(server.url);
    await client.auth.register.mutate({
      first_name: 'Bench',
      last_name: 'Mark',
      email: EMAIL,
      password: PASSWORD,
      organization: 'Atelier Fontaine SARL',
    });
    const organizationId = (await client.auth.me.query()).organization.id;
    await client.currencies.create.mutate({ code: 'USD', rate: '1.085' });
    const neighbour = createApiClient(server.url).client;
    await neighbour.auth.register.mutate({
      first_name: 'Voisin',
      last_name: 'Mark',
      email: `voisin-${EMAIL}`,
      password: PASSWORD,
      organization: 'Voisin SAS',
    });
    const neighbourId = (await neighbour.auth.me.query()).organization.id;
    await neighbour.currencies.create.mutate({ code: 'USD', rate: '1.085' });
    await seedDirectly(server.dbPath, neighbourId, DOCUMENTS);
    await seedDirectly(server.dbPath, organizationId, DOCUMENTS);
    const raw = new SQLite(server.dbPath);
    raw.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
    await db.transaction().execute(async (trx) => {
      for (const org of [neighbourId, organizationId]) {
        const customers = await trx.selectFrom('customers').select('id').where('organization_id', '=', org).execute();
        for (const { id } of customers) await indexCustomer(trx, org, defined(await findCustomer(trx, { organizationId: org, id })));
        const documents = await trx.selectFrom('documents').select('id').where('organization_id', '=', org).execute();
        for (const { id } of documents) await indexDocument(trx, org, id);
      }
    });
    raw.exec('ANALYZE');
    raw.prepare('VACUUM INTO ?').run(file);
    await db.destroy();
  } finally {
    await server.stop();
  }
  return { file, built: `built in ${((performance.now() - started) / 1000).toFixed(0)} s` };
}

interface Endpoint {
  title: string;
  path: string;
  /** The same work in-process, to capture its SQL for the bare handler and the plans. */
  run: (db: Kysely<Database>, organizationId: number) => Promise<unknown>;
}

export function endpoints(): Endpoint[] {
  const today = todayIso();
  const year = Number(today.slice(0, 4));
  const lastYear = { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
  const threeYears = { from: `${year - 2}-01-01`, to: `${year}-12-31` };
  const q = (p: { from: string; to: string }) => `from=${p.from}&to=${p.to}`;
  const list = (extra: Partial<DocumentListParams>) => (db: Kysely<Database>, organizationId: number) =>
    listDocuments(db, { organizationId, today, sortBy: 'date', sortOrder: 'desc', offset: 0, limit: 10, ...extra });
  return [
    { title: 'documents: first page', path: '/api/documents', run: list({}) },
    {
      title: 'documents: overdue invoices',
      path: '/api/documents?type=invoice&status=overdue',
      run: list({ type: 'invoice', status: 'overdue' }),
    },
    { title: 'documents: search a customer', path: '/api/documents?search=Client%20685', run: list({ search: 'Client 685' }) },
    { title: 'documents: search a number', path: '/api/documents?search=D5123', run: list({ search: 'D5123' }) },
    { title: 'documents: search inside numbers', path: '/api/documents?search=1552', run: list({ search: '1552' }) },
    { title: 'documents: min_amount=5000', path: '/api/documents?min_amount=5000', run: list({ minAmount: 5000 }) },
    { title: 'documents: page 500', path: '/api/documents?page=500', run: list({ offset: 4990 }) },
    { title: 'dashboard', path: '/api/dashboard', run: (db, id) => dashboardFigures(db, id) },
    // Every unpaid invoice is weighed for the head's counts (a third of them here), whichever page is asked.
    {
      title: 'Relances, first page',
      path: '/api/reminders',
      run: (db, id) => listReminders(db, id, new Date(), { page: 1, per_page: 25 }),
    },
    // Read by the shell on every page load (the plan's usage), and before every creation.
    { title: 'subscription (plan usage)', path: '/api/subscription', run: (db, id) => usageOf(db, id, 'documents') },
    {
      title: 'global search',
      path: '/api/search?q=Client%2012',
      run: (db, id) => searchEntries(db, { organizationId: id, text: 'Client 12', limit: 20 }),
    },
    {
      title: 'report: turnover, year by month',
      path: `/api/reports/turnover?${q(lastYear)}&group=month`,
      run: (db, id) => turnoverReport(db, id, { ...lastYear, group: 'month' }),
    },
    {
      title: 'report: turnover, 3 years by quarter',
      path: `/api/reports/turnover?${q(threeYears)}&group=quarter`,
      run: (db, id) => turnoverReport(db, id, { ...threeYears, group: 'quarter' }),
    },
    { title: 'report: customers', path: `/api/reports/customers?${q(lastYear)}`, run: (db, id) => customersReport(db, id, lastYear) },
    { title: 'report: items', path: `/api/reports/items?${q(lastYear)}`, run: (db, id) => itemsReport(db, id, lastYear) },
    { title: 'report: tags', path: `/api/reports/tags?${q(lastYear)}`, run: (db, id) => tagsReport(db, id, lastYear) },
    { title: 'report: VAT, a year', path: `/api/reports/vat?${q(lastYear)}`, run: (db, id) => vatReport(db, id, lastYear) },
    { title: 'report: receivables', path: '/api/reports/receivables', run: (db, id) => receivablesReport(db, id) },
    { title: 'report: margin', path: `/api/reports/margin?${q(lastYear)}`, run: (db, id) => marginReport(db, id, lastYear) },
    {
      title: 'report: receipts book',
      path: `/api/reports/receipts?${q(lastYear)}`,
      run: (db, id) => receiptsBook(db, id, { ...lastYear, page: 1 }),
    },
    {
      title: 'report: URSSAF',
      path: `/api/reports/urssaf?${q(lastYear)}&group=quarter`,
      run: (db, id) => urssafReport(db, id, { ...lastYear, group: 'quarter' }),
    },
  ];
}

/** 'index' when every step of every statement reads through an index; else what scans or sorts. */
function verdict(raw: SQLite.Database, queries: CompiledQuery[]): string {
  const bad = new Set<string>();
  for (const q of queries) {
    const plan = raw.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...(q.parameters as unknown[])) as { detail: string }[];
    for (const { detail } of plan) {
      // json_each and the full-text index are virtual tables: their "SCAN" is their own lookup, not a table walk.
      // A full-text scan bounded by a rowid range ('<', '>' or '=' in FTS5's plan) reads one organisation's entries.
      if (/^SCAN (search_index|document_numbers) VIRTUAL TABLE INDEX \d+:[^<>=]*$/.test(detail)) bad.add('FTS of every organisation');
      if (/^SCAN \S+ VIRTUAL TABLE|^SCAN CONSTANT ROW/.test(detail)) continue;
      if (/^SCAN /.test(detail)) bad.add(detail.replace(/ USING COVERING INDEX.*/, ' (covering index)'));
      const temp = /USE TEMP B-TREE FOR (.+)$/.exec(detail);
      if (temp) bad.add(`TEMP B-TREE ${temp[1]}`);
    }
  }
  return bad.size ? [...bad].join('; ') : 'index';
}

export async function capture(dbPath: string, organizationId: number, list: Endpoint[]) {
  const queries: CompiledQuery[] = [];
  const raw = new SQLite(dbPath, { readonly: true });
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: raw }),
    log: (event) => {
      if (event.level === 'query') queries.push(event.query);
    },
  });
  const captured: { path: string; statements: { sql: string; parameters: unknown[] }[]; plan: string }[] = [];
  for (const e of list) {
    queries.length = 0;
    await e.run(db, organizationId);
    // The settings and currencies reads are the same for every endpoint: kept, they are part of the work.
    captured.push({
      path: e.path,
      // BigInt parameters (the search's rowids) cross JSON as { bigint: '…' } (bare-sql-server.mjs reads them back).
      statements: queries.map((q) => ({
        sql: q.sql,
        parameters: q.parameters.map((p) => (typeof p === 'bigint' ? { bigint: String(p) } : p)),
      })),
      plan: verdict(raw, queries),
    });
  }
  await db.destroy();
  return captured;
}

function waitForPort(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /^(\d+)\n/.exec(seen);
      if (match) resolve(defined(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`bare handler exited (${code}):\n${seen}`)));
  });
}

async function sequential(url: string, cookie: string) {
  const call = async () => {
    const response = await fetch(url, { headers: { cookie } });
    if (response.status !== 200) throw new Error(`${url} : ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  for (let i = 0; i < 3; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => defined(times[Math.min(times.length - 1, Math.ceil(times.length * p) - 1)]);
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * The first request after a write: the answers kept between requests (src/server/kept-answers.ts) are read again
 * after any write, so this is what a list, figure or report costs when its data has just changed. The write is a
 * row in a table of the bench's own, committed by another connection, as another process's would be.
 */
async function afterWrite(url: string, cookie: string, dbPath: string) {
  const writer = new SQLite(dbPath);
  writer.pragma('busy_timeout = 5000');
  writer.exec('create table if not exists bench_writes (at integer)');
  const insert = writer.prepare('insert into bench_writes (at) values (?)');
  const times: number[] = [];
  try {
    for (let i = 0; i < AFTER_WRITE; i++) {
      insert.run(Date.now());
      const start = performance.now();
      const response = await fetch(url, { headers: { cookie } });
      if (response.status !== 200) throw new Error(`${url} : ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      times.push(performance.now() - start);
    }
  } finally {
    writer.close();
  }
  return defined(times.sort((a, b) => a - b)[Math.floor(times.length / 2)]);
}

/**
 * The endpoint loaded as `loaded` does, while the neighbour organisation writes through the API every WRITE_EVERY_MS
 * (a customer created): what an endpoint serves while other businesses work. `neighbour` is its session cookie.
 */
async function underWrites(url: string, cookie: string, serverUrl: string, neighbour: string) {
  let stop = false;
  let writes = 0;
  const writer = (async () => {
    while (!stop) {
      const started = performance.now();
      const response = await fetch(`${serverUrl}/api/customers`, {
        method: 'POST',
        headers: { cookie: neighbour, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Voisin ${process.pid}-${writes}` }),
      });
      if (response.status !== 201) throw new Error(`écriture du voisin : ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      writes++;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, WRITE_EVERY_MS - (performance.now() - started))));
    }
  })();
  try {
    const result = await loaded(url, cookie);
    return { ...result, writes };
  } finally {
    stop = true;
    await writer;
  }
}

/** The neighbour organisation's session on this server, for its writes. */
async function neighbourSession(serverUrl: string): Promise<string> {
  const { client, cookie } = createApiClient(serverUrl);
  await client.auth.login.mutate({ email: `voisin-${EMAIL}`, password: PASSWORD });
  return defined(cookie(), 'cookie()');
}

async function loaded(url: string, cookie: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { cookie } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

interface Measured {
  seq: { p50: number; p99: number };
  app: { rps: number; p99: number };
  writes: { rps: number; p99: number; writes: number };
  plan: string;
}

/** Today's figures on SQLite, printed as one table with the bare handler's yardstick and SQLite's plan verdicts. */
async function onSqlite(cache: { file: string; built: string }, list: Endpoint[]): Promise<Measured[]> {
  let server: BuiltServer | undefined;
  let bare: ChildProcess | undefined;
  const routesFile = path.join(root, '.bench-cache', `routes-${process.pid}.json`);
  try {
    server = await startBuiltServer({ database: cache.file });
    const { client, cookie } = createApiClient(server.url);
    await client.auth.login.mutate({ email: EMAIL, password: PASSWORD });
    const organizationId = (await client.auth.me.query()).organization.id;
    const session = defined(cookie(), 'cookie()');
    const neighbour = await neighbourSession(server.url);
    const idleRss = rssOf(server.pid, 'VmRSS');

    const captured = await capture(server.dbPath, organizationId, list);
    fs.writeFileSync(routesFile, JSON.stringify(captured));
    bare = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-sql-server.mjs')], {
      env: { ...process.env, BENCH_DB: server.dbPath, BENCH_ROUTES: routesFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const bareUrl = `http://127.0.0.1:${await waitForPort(bare)}`;

    const size = fs.statSync(server.dbPath).size / 2 ** 20;
    console.log(
      `\n## Scale: ${DOCUMENTS} documents in one organisation, as many in a neighbour one (${size.toFixed(0)} MB database, ${cache.built})`,
    );
    console.log(
      `built server: cold start ${server.coldStartMs.toFixed(0)} ms (migrations included), idle RSS ${idleRss} MB; ` +
        `sequential: ${SEQUENTIAL} requests after 3; loaded: ${CONNECTIONS} connections for ${SECONDS} s; ` +
        'bare: node:http + better-sqlite3 running the same SQL statements (no session check, no JSON mapping); ' +
        `after a write: p50 of ${AFTER_WRITE} requests, each right after another connection commits (no answer kept); ` +
        `under writes: loaded while the neighbour organisation creates a customer every ${WRITE_EVERY_MS} ms through the API`,
    );
    console.log(
      '| endpoint | p50 / p99 ms (sequential) | after a write p50 ms | req/s | p99 ms (loaded) | under writes req/s | under writes p99 ms | bare req/s | ratio | plan |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    const rows: Measured[] = [];
    for (const [i, e] of list.entries()) {
      const seq = await sequential(`${server.url}${e.path}`, session);
      const fresh = await afterWrite(`${server.url}${e.path}`, session, server.dbPath);
      const app = await loaded(`${server.url}${e.path}`, session);
      const writes = await underWrites(`${server.url}${e.path}`, session, server.url, neighbour);
      const yardstick = await loaded(`${bareUrl}${e.path}`, session);
      const plan = defined(captured[i]).plan;
      rows.push({ seq, app, writes, plan });
      console.log(
        `| ${e.title} | ${seq.p50.toFixed(1)} / ${seq.p99.toFixed(1)} | ${fresh.toFixed(1)} | ${app.rps.toFixed(0)} | ${app.p99} | ${writes.rps.toFixed(0)} | ${writes.p99} | ${yardstick.rps.toFixed(0)} | ${(app.rps / yardstick.rps).toFixed(2)} | ${plan} |`,
      );
    }
    console.log(`peak RSS of the built server: ${rssOf(server.pid, 'VmHWM')} MB`);
    return rows;
  } finally {
    bare?.kill('SIGTERM');
    await server?.stop();
    fs.rmSync(routesFile, { force: true });
  }
}

/** The same endpoints on the built server over the PostgreSQL copy; plans from PostgreSQL's EXPLAIN. */
async function onPostgres(databaseUrl: string, list: Endpoint[]) {
  const server = await startBuiltServer({ databaseUrl });
  const queries: CompiledQuery[] = [];
  const captured = capturingPostgres(databaseUrl, queries);
  try {
    const { client, cookie } = createApiClient(server.url);
    await client.auth.login.mutate({ email: EMAIL, password: PASSWORD });
    const organizationId = (await client.auth.me.query()).organization.id;
    const session = defined(cookie(), 'cookie()');
    const neighbour = await neighbourSession(server.url);
    const idleRss = rssOf(server.pid, 'VmRSS');
    const rows: Measured[] = [];
    for (const e of list) {
      queries.length = 0;
      await e.run(captured.db, organizationId);
      // A copy: the EXPLAIN statements are logged into `queries` too.
      const plan = await postgresVerdict(captured.db, [...queries]);
      const seq = await sequential(`${server.url}${e.path}`, session);
      const app = await loaded(`${server.url}${e.path}`, session);
      const writes = await underWrites(`${server.url}${e.path}`, session, server.url, neighbour);
      rows.push({ seq, app, writes, plan });
    }
    return { rows, coldStartMs: server.coldStartMs, idleRss, peakRss: rssOf(server.pid, 'VmHWM') };
  } finally {
    await captured.close();
    await server.stop();
  }
}

export async function benchScale(): Promise<void> {
  const postgres = benchPostgresUrl();
  const cache = await scaleDatabase();
  const list = endpoints().filter((e) => !ONLY || e.title.includes(ONLY));
  const sqlite = await onSqlite(cache, list);
  if (!postgres) return;

  const target = await freshPostgresDatabase(postgres, 'scale');
  try {
    const copied = await copyToPostgres(cache.file, target.url);
    const onPg = await onPostgres(target.url, list);
    const sqliteMb = fs.statSync(cache.file).size / 2 ** 20;
    console.log(`\n## Scale on both: the same ${DOCUMENTS} + ${DOCUMENTS} documents on SQLite and on PostgreSQL`);
    console.log(
      `copie ${thousands(copied.documents)} documents → PostgreSQL : ${seconds(copied.ms)} s ` +
        `(npm run db:copy's code: migrations, ${thousands(Object.values(copied.tables).reduce((a, b) => a + b, 0))} rows, ` +
        `search index, counts and ${copied.auditLogs} audit logs verified; then ANALYZE)`,
    );
    console.log(
      `data: SQLite file ${sqliteMb.toFixed(0)} MB, PostgreSQL database ${copied.sizeMb.toFixed(0)} MB; PostgreSQL built server: ` +
        `cold start ${onPg.coldStartMs.toFixed(0)} ms, idle RSS ${onPg.idleRss} MB, peak RSS ${onPg.peakRss} MB; ` +
        `sequential: ${SEQUENTIAL} requests after 3; loaded: ${CONNECTIONS} connections for ${SECONDS} s`,
    );
    console.log(
      '| endpoint | SQLite p50 / p99 ms | PostgreSQL p50 / p99 ms | SQLite req/s | PostgreSQL req/s | under writes SQLite req/s, p99 ms | under writes PostgreSQL req/s, p99 ms | PG/SQLite p50 | PostgreSQL plan |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const [i, e] of list.entries()) {
      const a = defined(sqlite[i]);
      const b = defined(onPg.rows[i]);
      console.log(
        `| ${e.title} | ${a.seq.p50.toFixed(1)} / ${a.seq.p99.toFixed(1)} | ${b.seq.p50.toFixed(1)} / ${b.seq.p99.toFixed(1)} | ` +
          `${a.app.rps.toFixed(0)} | ${b.app.rps.toFixed(0)} | ${a.writes.rps.toFixed(0)}, ${a.writes.p99} | ${b.writes.rps.toFixed(0)}, ${b.writes.p99} | ` +
          `${(b.seq.p50 / a.seq.p50).toFixed(1)} | ${b.plan} |`,
      );
    }
    await measureProcesses(target.url, SCALE_LOGIN);
  } finally {
    await target.drop();
  }
}

/** `npm run bench -- processes --pg …`: the scale database copied to PostgreSQL, then only the processes' table. */
export async function benchProcesses(): Promise<void> {
  const postgres = benchPostgresUrl();
  if (!postgres)
    throw new Error('Le banc processes mesure PostgreSQL : npm run bench -- processes --pg postgres://… (ou BENCH_DATABASE_URL)');
  const cache = await scaleDatabase();
  const target = await freshPostgresDatabase(postgres, 'processes');
  try {
    const copied = await copyToPostgres(cache.file, target.url);
    console.log(
      `\ncopie ${thousands(copied.documents)} documents → PostgreSQL : ${seconds(copied.ms)} s (${copied.sizeMb.toFixed(0)} MB database)`,
    );
    await measureProcesses(target.url, SCALE_LOGIN);
  } finally {
    await target.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchScale();
