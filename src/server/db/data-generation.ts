import type SQLite from 'better-sqlite3';
import {
  AndNode,
  BinaryOperationNode,
  ColumnNode,
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  OperatorNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PrimitiveValueListNode,
  type QueryResult,
  ReferenceNode,
  type RootOperationNode,
  type RawBuilder,
  RawNode,
  TableNode,
  type UnknownRow,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  WhereNode,
  sql,
} from 'kysely';
import type { Db } from './connection';
import { actingOrganization } from './write-scope';

/**
 * The VAT ledger (migration 0069) is brought up to date when a return reads it: the write that made it stale was
 * data and counted then; recomputing it changes no answer.
 */
const VAT_LEDGER_TABLES = ['vat_ledger', 'vat_ledger_days', 'vat_ledger_dirty'];

/**
 * Tables the server writes for its own bookkeeping, on reads too (a session's last visit, a rate window, an API key's
 * last use, a scheduler lease): no kept count or answer shows them, so writing them is no change of the data. Any
 * other table, a new one included, is data: forgetting too much costs a recount, never a stale answer.
 */
export const BOOKKEEPING = new Set(['sessions', 'rate_limits', 'api_keys', 'scheduler_jobs', ...VAT_LEDGER_TABLES]);

/**
 * Tables whose rows belong to an organisation they do not name in a column: a document's lines, an appointment's
 * reminders (their parent's), SQLite's trigram index of the document numbers (its rowid starts with the organisation).
 * Written by a procedure, they are the organisation it acts for, as their parent row is.
 */
const CHILD_TABLES = new Set(['document_items', 'appointment_reminders', 'document_numbers']);

/** A write in an `sql` template (the search index's) is recognised by its text, whatever the table. */
const RAW_WRITE = /\b(insert\s+(or\s+\w+\s+)?into|update|delete\s+from|replace\s+into)\s+"?(\w+)"?/gi;

/** What one statement writes: the table (null when it cannot be told) and the organisations it names (null: none). */
interface StatementWrite {
  table: string | null;
  organizations: number[] | null;
}

/** The data write of this statement, or null for a read or a write to bookkeeping only (see BOOKKEEPING). */
export function statementWrite(node: OperationNode): StatementWrite | null {
  if (RawNode.is(node)) {
    const tables = new Set<string>();
    for (const match of node.sqlFragments.join(' ').matchAll(RAW_WRITE)) {
      const table = String(match[3]).toLowerCase();
      if (!BOOKKEEPING.has(table)) tables.add(table);
    }
    if (tables.size === 0) return null;
    const [only] = tables;
    return { table: tables.size === 1 && only ? only : null, organizations: null };
  }
  if (!InsertQueryNode.is(node) && !UpdateQueryNode.is(node) && !DeleteQueryNode.is(node)) return null;
  const target = InsertQueryNode.is(node) ? node.into : UpdateQueryNode.is(node) ? node.table : node.from.froms[0];
  // Anything but a plain table name (an alias, a join) is taken as a write to data of unknown organisations.
  if (!target || !TableNode.is(target)) return { table: null, organizations: null };
  const table = target.table.identifier.name;
  if (BOOKKEEPING.has(table)) return null;
  return { table, organizations: namedOrganizations(node, table) };
}

/**
 * Whether this statement may change data (see BOOKKEEPING); a read, or a write to bookkeeping only, may not.
 */
export function writesData(node: OperationNode): boolean {
  return statementWrite(node) !== null;
}

/** The column that holds a row's organisation: its own id for an organisation. */
const organizationColumn = (table: string) => (table === 'organizations' ? 'id' : 'organization_id');

/**
 * The organisations whose rows this statement can touch, when it says so plainly: the values inserted in the
 * organisation's column (and an upsert only on a conflict that includes it), or a condition `organization_id = x`
 * (or `in (…)`) that every updated or deleted row must meet. Null when it does not say.
 */
function namedOrganizations(node: InsertQueryNode | UpdateQueryNode | DeleteQueryNode, table: string): number[] | null {
  const column = organizationColumn(table);
  if (InsertQueryNode.is(node)) {
    // An upsert whose conflict may hit a row of another organisation updates that row.
    if (node.onConflict?.updates && !node.onConflict.columns?.some((c) => c.column.name === column)) return null;
    const at = node.columns?.findIndex((c) => c.column.name === column) ?? -1;
    if (at < 0 || !node.values || !ValuesNode.is(node.values)) return null;
    const organizations: number[] = [];
    for (const row of node.values.values) {
      const value = PrimitiveValueListNode.is(row) ? row.values[at] : ValueListNode.is(row) ? literalOf(row.values[at]) : undefined;
      if (!Number.isSafeInteger(value)) return null;
      organizations.push(value as number);
    }
    return organizations.length ? organizations : null;
  }
  if (!node.where || !WhereNode.is(node.where)) return null;
  for (const condition of conjuncts(node.where.where)) {
    const organizations = organizationsOf(condition, column, table);
    if (organizations) return organizations;
  }
  return null;
}

/** The conditions joined by AND at the top of a WHERE: each one holds for every row written. */
function conjuncts(node: OperationNode): OperationNode[] {
  return AndNode.is(node) ? [...conjuncts(node.left), ...conjuncts(node.right)] : [node];
}

/** `organization_id = 5` or `organization_id in (5, 6)` on the written table (unqualified, or qualified by its name). */
function organizationsOf(condition: OperationNode, column: string, table: string): number[] | null {
  if (!BinaryOperationNode.is(condition) || !OperatorNode.is(condition.operator)) return null;
  const left = condition.leftOperand;
  if (!ReferenceNode.is(left) || !ColumnNode.is(left.column) || left.column.column.name !== column) return null;
  if (left.table && left.table.table.identifier.name !== table) return null;
  const right = condition.rightOperand;
  const values =
    condition.operator.operator === '='
      ? [literalOf(right)]
      : condition.operator.operator === 'in'
        ? PrimitiveValueListNode.is(right)
          ? [...right.values]
          : ValueListNode.is(right)
            ? right.values.map(literalOf)
            : []
        : [];
  return values.length > 0 && values.every(Number.isSafeInteger) ? (values as number[]) : null;
}

const literalOf = (node: OperationNode | undefined): unknown => (node && ValueNode.is(node) ? node.value : undefined);

/** Whose data a write changes: some organisations', or anyone's (everything kept is read again). */
export type Written = readonly number[] | 'all';

/**
 * The data's generation per organisation, for what is kept between requests (the documents list's counts, the read
 * procedures' answers): a kept value is reused only while its organisation's generation is the one it was read at.
 */
export interface DataGeneration {
  /**
   * The organisation's current generation: a new one after any write of its data, or of anyone's, by any process.
   * `readWithSession` is the one the request's session lookup read in its own statement (postgresGenerationOf), if any:
   * where the generations live in the database, that read is as current as a statement of its own.
   */
  current(organizationId: number, readWithSession?: number): number | Promise<number>;
  /** Whether a value read at `generation` may be kept: no write of the organisation's data overlapped its read. */
  unchangedSince(organizationId: number, generation: number): boolean;
}

/**
 * SQLite's generations, one per organisation plus one for the whole database (an organisation's generation is their
 * sum, so that either moving moves it). A write moves its organisation's, or the whole database's when whose it is
 * cannot be told for sure, erring toward reading again, never toward a stale answer:
 * - whose: the organisations the statement names plainly (statementWrite); else the organisation the running
 *   procedure acts for (write-scope.ts), if the table holds organisations' rows (an `organization_id` column, or a
 *   child of such a row); else anyone's (a person's account, a new organisation, a job, a public page);
 * - when, by this process: every statement goes through Kysely, and this plugin starts a new generation when it
 *   compiles one that writes data, and again once it has run. A reader keeps its value only if its organisation's
 *   generation is the same before and after its read: one that overlaps a write in any order sees a new generation
 *   at its end, and one that reads wholly between the two bumps is kept under a generation that is already gone.
 *   Kysely's SQLite driver runs one statement or transaction at a time on the one connection, so nothing reads
 *   inside a transaction;
 * - by another connection on the same file (a script, a worker thread, a restore): SQLite's `data_version` changes
 *   when it commits, and whose data it wrote is unknown: anyone's.
 */
export class SqliteDataGeneration implements KyselyPlugin, DataGeneration {
  private anyone = 0;
  private readonly organizations = new Map<number, number>();
  private dataVersion = -1;
  private readonly writes = new WeakMap<object, Written>();
  private readonly owned = new Set<string>(['organizations', ...CHILD_TABLES]);
  /** Prepared once: `pragma()` prepares its statement at each call, and this one runs on every kept read. */
  private readonly dataVersionOf: SQLite.Statement<[], number>;
  private readonly organizationColumnsOf: SQLite.Statement<[string], number>;

  constructor(sqlite: SQLite.Database) {
    this.dataVersionOf = sqlite.prepare<[], number>('pragma data_version').pluck();
    this.organizationColumnsOf = sqlite
      .prepare<[string], number>("select count(*) from pragma_table_info(?) where name = 'organization_id'")
      .pluck();
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const write = statementWrite(args.node);
    if (write) {
      const written = this.whose(write);
      this.bump(written);
      this.writes.set(args.queryId, written);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const written = this.writes.get(args.queryId);
    if (written) this.bump(written);
    return args.result;
  }

  current(organizationId: number): number {
    const version = this.dataVersionOf.get() as number;
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.anyone++;
    }
    return this.anyone + (this.organizations.get(organizationId) ?? 0);
  }

  unchangedSince(organizationId: number, generation: number): boolean {
    return this.current(organizationId) === generation;
  }

  private whose(write: StatementWrite): Written {
    if (write.organizations) return write.organizations;
    const acting = actingOrganization();
    return acting !== null && write.table !== null && this.holdsOrganizationRows(write.table) ? [acting] : 'all';
  }

  /** A table with an `organization_id` column, read from the database itself (a table added later included). */
  private holdsOrganizationRows(table: string): boolean {
    if (this.owned.has(table)) return true;
    // Only a yes is remembered: a table unknown yet (its migration has not run) is asked again.
    if ((this.organizationColumnsOf.get(table) as number) === 0) return false;
    this.owned.add(table);
    return true;
  }

  private bump(written: Written): void {
    if (written === 'all') {
      this.anyone++;
      return;
    }
    for (const organizationId of written) this.organizations.set(organizationId, (this.organizations.get(organizationId) ?? 0) + 1);
  }
}

/**
 * PostgreSQL's generations live in the database, so that several processes agree: every transaction that writes an
 * organisation's rows bumps its row of `data_generations` by a trigger in that same transaction, and one that writes
 * rows of no organisation (a person's account) bumps row 0, everyone's (migration 0065). An organisation's generation
 * is the sum of its row and row 0, read in one statement by primary key. An answer may always be kept under the
 * generation read before it: a write committed after that read moved the generation at its commit, so every later
 * request reads a new one and never reuses what that answer saw.
 */
export class PostgresDataGeneration implements DataGeneration {
  constructor(private readonly db: Db) {}

  /**
   * The generation the session lookup read with the session (auth/sessions.ts) when there is one: read in the same
   * statement at the start of the request, before any answer is read, it is what a statement of its own would give,
   * without a second round trip to the server on every kept answer.
   */
  current(organizationId: number, readWithSession?: number): number | Promise<number> {
    return readWithSession ?? this.read(organizationId);
  }

  private async read(organizationId: number): Promise<number> {
    const { rows } = await sql<{ generation: number }>`select ${postgresGenerationOf(organizationId)} as generation`.execute(this.db);
    return Number(rows[0]?.generation ?? 0);
  }

  unchangedSince(): boolean {
    return true;
  }
}

/**
 * An organisation's generation on PostgreSQL, as an expression: the sum of its row and row 0, by primary key. The
 * organisation is a value or a column of the statement that embeds it (the session lookup's `sessions.organization_id`).
 */
export function postgresGenerationOf(organization: number | RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(generation), 0) from data_generations where organization_id in (0, ${organization}))`;
}

const registry = new WeakMap<Db, DataGeneration>();

export function keepDataGeneration(db: Db, generation: DataGeneration): void {
  registry.set(db, generation);
}

/** The generations of this handle's data; null for a transaction's handle (nothing is kept from inside one). */
export function dataGenerationOf(db: Db): DataGeneration | null {
  return registry.get(db) ?? null;
}
