import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type * as Pg from 'pg';
import { onFirstUse } from '../on-first-use';
import { type DialectName, isPostgresUrl } from './dialect';
import type { Database } from './schema';
import { DocumentCounts, keepDocumentCounts, PostgresDocumentCounts } from './queries/document-counts';
import { keepDataGeneration, PostgresDataGeneration, SqliteDataGeneration } from './data-generation';
import { keepDirectReads, keepPreparedReads } from './precompiled';

export type Db = Kysely<Database>;

export interface Connection {
  db: Db;
  dialect: DialectName;
  /** The raw SQLite handle, for the rare measured hot path and for closing; null on PostgreSQL. */
  sqlite: SQLite.Database | null;
  /** The PostgreSQL pool (its figures feed /metrics); null on SQLite. */
  pool: Pg.Pool | null;
  close(): Promise<void>;
}

/** A SQLite file (or ':memory:'), or a postgres:// URL (db/dialect.ts). */
export function openDatabase(target: string): Connection {
  return isPostgresUrl(target) ? openPostgres(target) : openSqlite(target);
}

function openSqlite(file: string): Connection {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers proceed during a write; busy_timeout waits instead of failing when another process writes.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const generation = new SqliteDataGeneration(sqlite);
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }), plugins: [generation] });
  keepDirectReads(db, (sql, parameters) => (sqlite.inTransaction ? null : statements.prepare(sql).all(parameters)));
  keepDataGeneration(db, generation);
  keepDocumentCounts(db, new DocumentCounts(generation));
  let closed = false;
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    pool: null,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy(); // closes the better-sqlite3 handle too
    },
  };
}

/**
 * pg hands bigint (int8) and numeric back as strings, since they may exceed a JS number. Facturier's integers are
 * ids, counts and scale-4 amounts, all far below 2^53: they are read as numbers, as SQLite gives them, and a value
 * that could not be represented exactly is an error rather than a silently rounded amount.
 */
function exactNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || (/^-?\d+$/.test(text) && !Number.isSafeInteger(value)))
    throw new RangeError(`Valeur numérique hors de la plage exacte : ${text}`);
  return value;
}

/** Loaded only by a PostgreSQL deployment: a SQLite process never holds the client. */
const pg = onFirstUse<typeof Pg>('pg');

const INT8 = 20;
const NUMERIC = 1700;
const postgresTypes = {
  // biome-ignore lint/suspicious/noExplicitAny: pg's own signature for a type parser lookup.
  getTypeParser: ((oid: number, format?: any) =>
    oid === INT8 || oid === NUMERIC ? exactNumber : pg().types.getTypeParser(oid, format)) as Pg.CustomTypesConfig['getTypeParser'],
};

function openPostgres(url: string): Connection {
  const pool = new (pg().Pool)({
    connectionString: url,
    types: postgresTypes,
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
    // No parallel plans on a request's connection: launching a plan's workers cost 40–60 ms on two cores, to save a
    // few milliseconds of reading (a page of the livre des recettes: 70–100 ms parallel, 7 ms alone), and the workers
    // take the cores the other requests wait for.
    options: '-c max_parallel_workers_per_gather=0',
  });
  // An idle client losing its server (a restart) must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  keepPreparedReads(db, async (name, text, values) => {
    try {
      return (await pool.query({ name, text, values: [...values] })).rows;
    } catch (error) {
      // A statement a connection prepared before a migration changed its columns' types is refused from then on
      // ("cached plan must not change result type"): the read is sent again unnamed, as Kysely sends every query.
      if ((error as { code?: string }).code !== '0A000') throw error;
      return (await db.executeQuery(CompiledQuery.raw(text, [...values]))).rows;
    }
  });
  keepDataGeneration(db, new PostgresDataGeneration(db));
  keepDocumentCounts(db, new PostgresDocumentCounts(db));
  let closed = false;
  return {
    db,
    dialect: 'postgres',
    sqlite: null,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy(); // ends the pool
    },
  };
}

/**
 * Kysely's SQLite driver calls `prepare` for every query, and preparing was the largest single cost of a request
 * (`npm run bench`). Query shapes are few and fixed, so each SQL text is prepared once and reused; a statement
 * runs to completion synchronously inside better-sqlite3, so one statement is never used by two queries at once.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= 2000) statements.clear(); // generated SQL (IN lists of varying length) must not grow this forever
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
