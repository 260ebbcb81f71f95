import { CompiledQuery, type Compilable } from 'kysely';
import type { Db } from './connection';

/**
 * A fixed-shape query compiled once; each call only supplies its parameters, in the order they appear in the SQL.
 * Kysely rebuilds and recompiles a query on every call, which on the per-request session lookup cost more than
 * running it (`npm run bench`). The query is still written with Kysely, so it stays portable across dialects.
 */
export function precompiled<Params extends readonly unknown[], Row>(build: (db: Db) => Compilable<Row>, arity: Params['length']) {
  const cache = new WeakMap<Db, string>();
  return async (db: Db, ...params: Params): Promise<Row[]> => {
    let sql = cache.get(db);
    if (sql === undefined) {
      const compiled = build(db).compile();
      if (compiled.parameters.length !== arity)
        throw new Error(`precompiled query expects ${compiled.parameters.length} parameters, declared ${arity}`);
      sql = compiled.sql;
      cache.set(db, sql);
    }
    const { rows } = await db.executeQuery<Row>(CompiledQuery.raw(sql, [...params]) as CompiledQuery<Row>);
    return rows;
  };
}
