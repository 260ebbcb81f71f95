import { CompiledQuery, type Compilable } from 'kysely';
import type { Db } from './connection';

/** Runs a read at once on the handle's own connection, or answers null when it cannot (see keepDirectReads). */
export type DirectRead = (sql: string, parameters: readonly unknown[]) => unknown[] | null;

const directReads = new WeakMap<Db, DirectRead>();

/**
 * SQLite's handle reads without Kysely's executor when no transaction is open on its one connection: the executor's
 * queue, its lock and its plugins' promises cost more than the session lookup's statement itself
 * (`npm run bench -- scale`). Inside a transaction the read waits its turn in the queue as any other, so it never sees
 * a write that is not committed yet. PostgreSQL's pool has no such shortcut.
 */
export function keepDirectReads(db: Db, read: DirectRead): void {
  directReads.set(db, read);
}

/** Runs a read as a statement prepared once per pooled connection under `name` (see keepPreparedReads). */
export type PreparedRead = (name: string, sql: string, parameters: readonly unknown[]) => Promise<unknown[]>;

const preparedReads = new WeakMap<Db, PreparedRead>();

/**
 * PostgreSQL's handle runs these reads as named statements: each pooled connection parses and plans the statement
 * once, then only binds and runs it. Sent through Kysely, the statement is unnamed, parsed and planned again by the
 * server on every request; the session lookup is on every request. Inside a transaction (another handle) the read
 * goes through Kysely as any other.
 */
export function keepPreparedReads(db: Db, read: PreparedRead): void {
  preparedReads.set(db, read);
}

let statements = 0;

/**
 * A fixed-shape query compiled once; each call only supplies its parameters, in the order they appear in the SQL.
 * Kysely rebuilds and recompiles a query on every call, which on the per-request session lookup cost more than
 * running it (`npm run bench`). The query is still written with Kysely, so it stays portable across dialects.
 */
export function precompiled<Params extends readonly unknown[], Row>(build: (db: Db) => Compilable<Row>, arity: Params['length']) {
  const cache = new WeakMap<Db, string>();
  const name = `facturier_precompiled_${++statements}`;
  const sqlOf = (db: Db) => {
    let sql = cache.get(db);
    if (sql === undefined) {
      const compiled = build(db).compile();
      if (compiled.parameters.length !== arity)
        throw new Error(`precompiled query expects ${compiled.parameters.length} parameters, declared ${arity}`);
      sql = compiled.sql;
      cache.set(db, sql);
    }
    return sql;
  };
  /**
   * The rows at once, without a promise, where the handle reads directly (see keepDirectReads); else null, and the
   * caller runs the query. A read on every request then costs no promise and no pause of its caller.
   */
  const now = (db: Db, ...params: Params): Row[] | null => (directReads.get(db)?.(sqlOf(db), params) as Row[] | null | undefined) ?? null;
  const run = async (db: Db, ...params: Params): Promise<Row[]> => {
    const sql = sqlOf(db);
    const direct = directReads.get(db)?.(sql, params);
    if (direct) return direct as Row[];
    const prepared = preparedReads.get(db);
    if (prepared) return (await prepared(name, sql, params)) as Row[];
    const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(sql, [...params]) as CompiledQuery<Row>);
    return rows;
  };
  return Object.assign(run, { now });
}
