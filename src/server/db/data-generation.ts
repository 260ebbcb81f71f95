import type SQLite from 'better-sqlite3';
import {
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  RawNode,
  TableNode,
  type UnknownRow,
  UpdateQueryNode,
} from 'kysely';
import type { Db } from './connection';

/**
 * Tables the server writes for its own bookkeeping, on reads too (a session's last visit, a rate window, an API key's
 * last use, a scheduler lease): no kept count or answer shows them, so writing them is no change of the data. Any
 * other table, a new one included, is data: forgetting too much costs a recount, never a stale answer.
 */
const BOOKKEEPING = new Set(['sessions', 'rate_limits', 'api_keys', 'scheduler_jobs']);

/** A write in an `sql` template (the search index's) is recognised by its text, whatever the table. */
const RAW_WRITE = /\b(insert\s+(or\s+\w+\s+)?into|update|delete\s+from|replace\s+into)\s+"?(\w+)"?/gi;

/** Whether this statement may change data (see BOOKKEEPING); a read, or a write to bookkeeping only, may not. */
export function writesData(node: OperationNode): boolean {
  if (RawNode.is(node)) {
    const text = node.sqlFragments.join(' ');
    for (const match of text.matchAll(RAW_WRITE)) if (!BOOKKEEPING.has(String(match[3]).toLowerCase())) return true;
    return false;
  }
  if (!InsertQueryNode.is(node) && !UpdateQueryNode.is(node) && !DeleteQueryNode.is(node)) return false;
  const table = InsertQueryNode.is(node) ? node.into : UpdateQueryNode.is(node) ? node.table : node.from.froms[0];
  // Anything but a plain table name (an alias, a join) is taken as a write to data: a needless miss at worst.
  return !table || !TableNode.is(table) || !BOOKKEEPING.has(table.table.identifier.name);
}

/**
 * The data's generation, for what is kept between requests (the documents list's counts, the read procedures'
 * answers): a kept value is reused only while the generation it was read at is still the current one.
 */
export interface DataGeneration {
  /** The current generation: a new one after any write of data, by this process or another. */
  current(): number;
}

/**
 * SQLite's generation, for the whole database (a write to any organisation forgets everything, erring toward reading
 * again, never toward a stale answer):
 * - by this process: every statement goes through Kysely, and this plugin starts a new generation when it compiles
 *   one that writes data, and again once it has run. A reader keeps its value only if the generation is the same
 *   before and after its read: one that overlaps a write in any order sees a new generation at its end, and one
 *   that reads wholly between the two bumps is kept under a generation that is already gone. Kysely's SQLite driver
 *   runs one statement or transaction at a time on the one connection, so nothing reads inside a transaction;
 * - by another process on the same file (scripts, jobs, a restore): SQLite's `data_version` changes when another
 *   connection commits.
 */
export class SqliteDataGeneration implements KyselyPlugin, DataGeneration {
  private generation = 0;
  private dataVersion = -1;
  private readonly writes = new WeakSet<object>();
  /** Prepared once: `pragma()` prepares its statement at each call, and this one runs on every kept read. */
  private readonly dataVersionOf: SQLite.Statement<[], number>;

  constructor(sqlite: SQLite.Database) {
    this.dataVersionOf = sqlite.prepare<[], number>('pragma data_version').pluck();
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (writesData(args.node)) {
      this.generation++;
      this.writes.add(args.queryId);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.writes.has(args.queryId)) this.generation++;
    return args.result;
  }

  current(): number {
    const version = this.dataVersionOf.get() as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.generation++;
    }
    return this.generation;
  }
}

const registry = new WeakMap<Db, DataGeneration>();

export function keepDataGeneration(db: Db, generation: DataGeneration): void {
  registry.set(db, generation);
}

/**
 * The generation of this handle's data; null for a transaction's handle, or a database whose writes another process
 * may make without this one knowing (PostgreSQL: nothing is kept on it but the counts, which read their own generation).
 */
export function dataGenerationOf(db: Db): DataGeneration | null {
  return registry.get(db) ?? null;
}
