import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema';
import { DocumentCounts, keepDocumentCounts } from './queries/document-counts';

export type Db = Kysely<Database>;

export interface Connection {
  db: Db;
  /** The raw handle, for the rare measured hot path and for closing. */
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

export function openDatabase(file: string): Connection {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers proceed during a write; busy_timeout waits instead of failing when another process writes.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const counts = new DocumentCounts(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), plugins: [counts] });
  keepDocumentCounts(db, counts);
  let closed = false;
  return {
    db,
    sqlite,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy(); // closes the better-sqlite3 handle too
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
