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
import type { Db } from '../connection';

/**
 * The documents list's counts, kept between requests: at 100 000 documents counting a filter walks tens of
 * thousands of index entries on every full page (`npm run bench -- scale`), for a number that changes only when a
 * document is written. A count is reused while no document was written since it was read:
 * - by this process: every insert, update or delete on `documents` through Kysely passes this plugin (the queries
 *   in db/queries write documents only that way; an `sql` template is read for one), which starts a new generation;
 * - by another process on the same file (scripts, jobs): SQLite's `data_version` changes when another connection
 *   commits (and on no write of our own).
 * A generation covers the whole database, not one organisation: a write anywhere forgets every count, which errs
 * toward counting again, never toward a stale total. A transaction's handle is never cached (countsOf answers null).
 */
export class DocumentCounts implements KyselyPlugin {
  private generation = 0;
  private dataVersion = -1;
  private readonly counts = new Map<string, { generation: number; total: number }>();

  constructor(private readonly sqlite: SQLite.Database) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (writesDocuments(args.node)) this.generation++;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }

  /** The count stored under this key (the filter's SQL and parameters), or the one `count` reads, then kept. */
  async read(key: string, count: () => Promise<number>): Promise<number> {
    const version = this.sqlite.pragma('data_version', { simple: true }) as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.generation++;
    }
    const kept = this.counts.get(key);
    if (kept && kept.generation === this.generation) return kept.total;
    const generation = this.generation;
    const total = await count();
    // Filters are typed by people: a bounded map, emptied whole when full (recounting is always correct).
    if (this.counts.size >= 5000) this.counts.clear();
    if (generation === this.generation) this.counts.set(key, { generation, total });
    return total;
  }
}

/** A write in an `sql` template (none today outside migrations) is recognised by its text. */
const RAW_WRITE = /\b(insert\s+(or\s+\w+\s+)?into|update|delete\s+from)\s+"?documents"?\b/i;

function writesDocuments(node: OperationNode): boolean {
  if (RawNode.is(node)) return RAW_WRITE.test(node.sqlFragments.join(' '));
  const table = InsertQueryNode.is(node)
    ? node.into
    : UpdateQueryNode.is(node)
      ? node.table
      : DeleteQueryNode.is(node)
        ? node.from.froms[0]
        : undefined;
  // Anything but a plain table name (an alias, a join) is taken as a write to documents: a needless recount at worst.
  if (!table) return false;
  return !TableNode.is(table) || table.table.identifier.name === 'documents';
}

const registry = new WeakMap<Db, DocumentCounts>();

export function keepDocumentCounts(db: Db, counts: DocumentCounts): void {
  registry.set(db, counts);
}

/** The counts kept for this handle; null for a transaction or a handle opened without them (count every time). */
export function documentCountsOf(db: Db): DocumentCounts | null {
  return registry.get(db) ?? null;
}
