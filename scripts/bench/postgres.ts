// PostgreSQL for the benches: the target server named by `--pg postgres://…` or BENCH_DATABASE_URL, a
// database of the bench's own on it, a SQLite bench database copied there by db:copy's code, and PostgreSQL's verdict
// on the plan of each statement an endpoint runs (the counterpart of the SQLite verdicts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { defined } from '../../src/shared/defined';
import { openDatabase } from '../../src/server/db/connection';
import { copyDatabase, type CopyReport } from '../../src/server/database-copy';
import { isPostgresUrl } from '../../src/server/db/dialect';
import type { Database } from '../../src/server/db/schema';

/** The PostgreSQL server to bench on, or undefined to bench SQLite only. */
export function benchPostgresUrl(): string | undefined {
  const at = process.argv.indexOf('--pg');
  const url = at > 0 ? process.argv[at + 1] : process.env.BENCH_DATABASE_URL;
  if (url === undefined || url === '') return undefined;
  if (!isPostgresUrl(url)) throw new Error(`--pg attend une adresse postgres://…, pas « ${url} »`);
  return url;
}

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new empty database on the server of `serverUrl` (whose user may create databases), dropped by `drop()`: the bench
 * never writes into the database the URL names, and two benches at once do not meet.
 */
export async function freshPostgresDatabase(serverUrl: string, purpose: string): Promise<BenchDatabase> {
  const name = `facturier_bench_${purpose}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface CopiedDatabase extends CopyReport {
  documents: number;
  /** Size on disk after the copy, in MB (pg_database_size). */
  sizeMb: number;
}

/**
 * `npm run db:copy`'s own function from a SQLite file into an empty PostgreSQL database, timed as an operator would see
 * it (migrations, rows, search index, verification, ANALYZE). The file is copied first: the copy migrates its source.
 */
export async function copyToPostgres(sqliteFile: string, databaseUrl: string): Promise<CopiedDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-bench-copy-'));
  const file = path.join(dir, 'source.db');
  const snapshot = new SQLite(sqliteFile, { readonly: true });
  // VACUUM INTO: one consistent file even when a server still writes into the source.
  snapshot.prepare('VACUUM INTO ?').run(file);
  snapshot.close();
  const source = openDatabase(file);
  const target = openDatabase(databaseUrl);
  try {
    const report = await copyDatabase(source, target, dir);
    const size = await target.db.executeQuery<{ bytes: number }>(CompiledQuery.raw('select pg_database_size(current_database()) as bytes'));
    return { ...report, documents: report.tables.documents ?? 0, sizeMb: Number(defined(size.rows[0]).bytes) / 2 ** 20 };
  } finally {
    await source.close();
    await target.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The SQLite bench database in a database of its own on the server of `serverUrl`: copied into a new one dropped after
 * the bench, or, with BENCH_PG_KEEP=1, into `facturier_bench_kept_<purpose>` kept between runs and reused while it holds
 * a finished copy of the same file (its comment names the file, its size and time, written once the copy is
 * verified), since a copy of 2 000 000 documents takes minutes. A kept database also keeps what the runs wrote (the
 * neighbour's customers created under writes: a few hundred rows) and the migrations its server applied.
 */
export async function postgresCopyOf(
  serverUrl: string,
  purpose: string,
  sqliteFile: string,
): Promise<{ target: BenchDatabase; copied: CopiedDatabase | null }> {
  if (process.env.BENCH_PG_KEEP !== '1') {
    const target = await freshPostgresDatabase(serverUrl, purpose);
    try {
      return { target, copied: await copyToPostgres(sqliteFile, target.url) };
    } catch (error) {
      await target.drop();
      throw error;
    }
  }
  const name = `facturier_bench_kept_${purpose}`;
  const stat = fs.statSync(sqliteFile);
  const source = `${path.basename(sqliteFile)} ${stat.size} ${stat.mtime.toISOString()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const found = await admin.query<{ source: string | null }>(
      "select shobj_description(oid, 'pg_database') as source from pg_database where datname = $1",
      [name],
    );
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const target = { url: url.toString(), drop: async () => {} };
    if (found.rows[0]?.source === source) return { target, copied: null };
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    const copied = await copyToPostgres(sqliteFile, target.url);
    await admin.query(`COMMENT ON DATABASE ${name} IS ${pg.escapeLiteral(source)}`);
    return { target, copied };
  } finally {
    await admin.end();
  }
}

/** "1,2 s" style for the French copy line. */
export const seconds = (ms: number) => (ms / 1000).toFixed(1).replace('.', ',');

/** "100 000" */
export const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/** A Kysely over `databaseUrl` (the app's own type parsers) that records every statement it runs into `queries`. */
export function capturingPostgres(databaseUrl: string, queries: CompiledQuery[]) {
  const connection = openDatabase(databaseUrl);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: defined(connection.pool, 'connection.pool') }),
    log: (event) => {
      if (event.level === 'query') queries.push(event.query);
    },
  });
  return { db, close: () => db.destroy() };
}

/** A node of EXPLAIN (FORMAT JSON)'s plan, with the fields read here and by the plan tests. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Plan Rows': number;
  /** How the node feeds its parent: 'Outer', 'Inner', 'SubPlan' (run per row of the parent)… */
  'Parent Relationship'?: string;
  'Join Filter'?: string;
  Plans?: PlanNode[];
}

/** Tables this small are read whole by PostgreSQL whatever their indexes: their Seq Scan says nothing. */
const SMALL_TABLE_ROWS = 1_000;

/** Each node of a plan, depth first. */
export function* planNodes(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* planNodes(child);
}

/** EXPLAIN (FORMAT JSON) of one captured statement: its plan's root. */
export async function planOf<DB>(db: Kysely<DB>, query: CompiledQuery): Promise<PlanNode> {
  const result = await db.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${query.sql}`, [...query.parameters]),
  );
  return defined(defined(result.rows[0])['QUERY PLAN'][0]).Plan;
}

/** The row estimate of each table, for telling a table walk from a read of a handful of rows. */
async function tableRows<DB>(db: Kysely<DB>): Promise<Map<string, number>> {
  const result = await db.executeQuery<{ relname: string; rows: number }>(
    CompiledQuery.raw(
      "select relname, greatest(reltuples, 0)::bigint as rows from pg_class where relkind = 'r' and relnamespace = current_schema()::regnamespace",
    ),
  );
  return new Map(result.rows.map((r) => [r.relname, Number(r.rows)]));
}

/**
 * 'index' when no statement walks a table of more than SMALL_TABLE_ROWS rows nor sorts more than as many rows; else
 * what does (the counterpart of scale.ts's SQLite verdict: SCAN ↔ Seq Scan, TEMP B-TREE ↔ Sort).
 */
export async function postgresVerdict<DB>(db: Kysely<DB>, queries: CompiledQuery[]): Promise<string> {
  const sizes = await tableRows(db);
  const bad = new Set<string>();
  // A transaction's own statements (the VAT return brings its ledger up to date in one) have no plan.
  for (const q of queries.filter((q) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(q.sql))) {
    for (const node of planNodes(await planOf(db, q))) {
      const table = node['Relation Name'];
      const rows = table ? (sizes.get(table) ?? 0) : 0;
      if (node['Node Type'] === 'Seq Scan' && table && rows > SMALL_TABLE_ROWS) bad.add(`Seq Scan ${table} (${thousands(rows)} rows)`);
      const input = node.Plans?.[0]?.['Plan Rows'] ?? 0;
      if (node['Node Type'] === 'Sort' && input > SMALL_TABLE_ROWS) bad.add(`Sort of ~${thousands(Math.round(input))} rows`);
    }
  }
  return bad.size ? [...bad].join('; ') : 'index';
}

/** One line per plan node, "Index Scan documents (documents_organization_date_index)", for the reports bench. */
export async function planLines<DB>(db: Kysely<DB>, query: CompiledQuery): Promise<string[]> {
  const lines: string[] = [];
  const walk = (node: PlanNode, depth: number) => {
    const on = node['Relation Name'] ? ` ${node['Relation Name']}` : '';
    const index = node['Index Name'] ? ` (${node['Index Name']})` : '';
    lines.push(`${'  '.repeat(depth)}- ${node['Node Type']}${on}${index}, ~${Math.round(node['Plan Rows'])} rows`);
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(await planOf(db, query), 0);
  return lines;
}
