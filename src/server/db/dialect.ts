import {
  type ColumnDefinitionNode,
  DataTypeNode,
  GeneratedNode,
  type Kysely,
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresAdapter,
  type QueryResult,
  type RawBuilder,
  type RootOperationNode,
  type SqlBool,
  type UnknownRow,
  sql,
} from 'kysely';

/**
 * Every difference between the two databases Facturier runs on, SQLite (the default, one file) and PostgreSQL
 * (DATABASE_URL=postgres://…, several processes), lives in this module. Queries and migrations stay written once with
 * Kysely; where the SQL itself differs, they call one of the helpers below instead of writing either dialect's SQL.
 *
 * - Columns: migrations declare `integer` and `text` only. On PostgreSQL every `integer` becomes `bigint` (amounts are
 *   scale-4 integers: an int4 overflows at 214 748,3647 €) and `withId`'s autoincrement an identity column
 *   (`postgresSchemaPlugin`); pg returns bigint and numeric as JS numbers, refusing an unsafe integer (`openPostgres`).
 * - JSON columns are text on both: `jsonNumber` / `jsonText` read a path, `jsonArrayElements` walks an array.
 * - Full-text search: FTS5 on SQLite, tsvector columns on PostgreSQL (`searchTerms`, `toTsQuery`, db/queries/search.ts).
 * - Upserts: Kysely's `onConflict` is portable; `INSERT OR IGNORE` is written `onConflict(...).doNothing()`.
 * - Booleans are integers 0/1 on both; `lower(x) like` is used for case-insensitive matching on both.
 * - `cast(… as bigint)` is valid on both (SQLite reads any type containing INT as an integer).
 */

export type DialectName = 'sqlite' | 'postgres';

// biome-ignore lint/suspicious/noExplicitAny: any Kysely instance, whatever its tables (migrations see none).
export type AnyDb = Kysely<any>;

/** The dialect of a Kysely instance or transaction, from its adapter (transactions share their parent's). */
export function dialectOf(db: AnyDb): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export const isPostgres = (db: AnyDb) => dialectOf(db) === 'postgres';

/** True for a DATABASE_URL naming a PostgreSQL server. */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

class PostgresSchemaTransformer extends OperationNodeTransformer {
  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    return node.dataType === 'integer' ? DataTypeNode.create('bigint') : node;
  }

  protected override transformColumnDefinition(node: ColumnDefinitionNode): ColumnDefinitionNode {
    const column = super.transformColumnDefinition(node);
    if (!column.autoIncrement) return column;
    // BY DEFAULT (not ALWAYS): a table rebuilt by a migration, or copied by `npm run db:copy`, keeps its ids;
    // `resyncIdentities` then moves each sequence past the largest id.
    return { ...column, autoIncrement: false, generated: GeneratedNode.create({ identity: true, byDefault: true }) };
  }
}

/** Migrations on PostgreSQL: `integer` → `bigint`, autoincrement → identity. Plugged in by createMigrator only. */
export const postgresSchemaPlugin: KyselyPlugin = {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return new PostgresSchemaTransformer().transformNode(args.node);
  },
  transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
};

/**
 * Moves every identity sequence past its table's largest id (PostgreSQL only; SQLite's AUTOINCREMENT follows explicit
 * ids by itself). Run after the migrations and after a copy, both of which may insert ids explicitly.
 */
export async function resyncIdentities(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ table_name: string; column_name: string }>`select table_name, column_name
    from information_schema.columns where table_schema = current_schema() and is_identity = 'YES'`.execute(db);
  for (const { table_name, column_name } of rows) {
    await sql`select setval(pg_get_serial_sequence(${table_name}, ${column_name}),
      coalesce((select max(${sql.ref(column_name)}) from ${sql.table(table_name)}), 0) + 1, false)`.execute(db);
  }
}

/** `$.a.b` of a JSON text column (or of a `jsonArrayElements` value) as a number. The path is code, never user input:
 * it is written as a literal so that the same expression in SELECT and GROUP BY is the same text for PostgreSQL. */
export function jsonNumber(db: AnyDb, json: RawBuilder<unknown>, path: string): RawBuilder<number> {
  if (!isPostgres(db)) return sql<number>`json_extract(${json}, ${sql.lit(`$.${path}`)})`;
  return sql<number>`cast(cast(${json} as jsonb) #>> ${sql.lit(`{${path.split('.').join(',')}}`)} as numeric)`;
}

/** `$.a.b` of a JSON text column as text. */
export function jsonText(db: AnyDb, json: RawBuilder<unknown>, path: string): RawBuilder<string> {
  if (!isPostgres(db)) return sql<string>`json_extract(${json}, ${sql.lit(`$.${path}`)})`;
  return sql<string>`(cast(${json} as jsonb) #>> ${sql.lit(`{${path.split('.').join(',')}}`)})`;
}

/**
 * The elements of a JSON array column as a table to join, aliased `alias`, each element in `alias.value` (read it with
 * jsonNumber / jsonText): json_each on SQLite, jsonb_array_elements (whose column is named `value`) on PostgreSQL.
 */
export function jsonArrayElements(db: AnyDb, column: string, alias: string) {
  if (!isPostgres(db)) return sql`json_each(${sql.ref(column)})`.as(alias);
  return sql`jsonb_array_elements(cast(${sql.ref(column)} as jsonb))`.as(alias);
}

/**
 * A subquery of the given integer ids, bound as ONE parameter (a JSON array): its SQL text is the same for any number
 * of ids, which keeps SQLite's statement cache small.
 */
export function idsSubquery(db: AnyDb, ids: readonly number[]): RawBuilder<number> {
  const json = JSON.stringify(ids);
  if (!isPostgres(db)) return sql<number>`(select value from json_each(${json}))`;
  return sql<number>`(select cast(value as bigint) from jsonb_array_elements_text(cast(${json} as jsonb)))`;
}

/**
 * `column` is one of the given ids, bound as ONE parameter. SQLite: IN the JSON array's values (idsSubquery). PostgreSQL:
 * `= any(bigint[])`, which the planner answers from the column's index even inside an OR with another indexed condition;
 * an IN subquery there became a filter run on every row of the organisation (300 ms at 100 000 documents).
 */
export function isOneOfIds(db: AnyDb, column: RawBuilder<unknown>, ids: readonly number[]): RawBuilder<SqlBool> {
  if (!isPostgres(db)) return sql<SqlBool>`${column} in ${idsSubquery(db, ids)}`;
  return sql<SqlBool>`${column} = any(cast(${[...ids]} as bigint[]))`;
}

/** A tiebreak that follows insertion: SQLite's rowid; on PostgreSQL (no rowid) the given creation column. */
export function insertionOrder(db: AnyDb, createdColumn: string): RawBuilder<unknown> {
  return isPostgres(db) ? sql.ref(createdColumn) : sql`rowid`;
}

/**
 * What PostgreSQL's full-text index stores and searches: the words of `text` as FTS5's unicode61 tokenizer with
 * remove_diacritics cuts them (letters and digits, accents folded, lower case), separated by spaces, so that the
 * 'simple' text search configuration reads exactly these words. Done here rather than with the unaccent extension,
 * which a database owner without superuser rights may not be allowed to create.
 */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

export const searchTerms = (text: string) => searchWords(text).join(' ');

/**
 * A tsquery for the words the user typed (already split by toMatchQuery's rules): each typed word is a phrase of its
 * tokens whose last is a prefix, all words required — what FTS5 does with `"word"*`. Null when nothing searchable.
 */
export function toTsQuery(typedWords: readonly string[]): string | null {
  const phrases = typedWords
    .map((word) => searchWords(word))
    .filter((tokens) => tokens.length > 0)
    .map((tokens) => tokens.map((t, i) => `'${t}'${i === tokens.length - 1 ? ':*' : ''}`).join(' <-> '));
  return phrases.length ? phrases.map((p) => `(${p})`).join(' & ') : null;
}

/**
 * Locks a row until the end of the caller's transaction, so that a check made next (a draft still a draft) holds until
 * the commit. SQLite needs nothing: it runs one write transaction at a time. PostgreSQL runs them side by side.
 */
export async function lockRow(db: AnyDb, table: string, id: number): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`select 1 from ${sql.table(table)} where id = ${id} for update`.execute(db);
}

/** What an advisory lock guards: work with no row of its own to lock. Each space is its own set of keys. */
const LOCK_SPACES = { auditChain: 1, auditClosing: 2 } as const;

/**
 * Locks the key (`space`, `id`) until the end of the caller's transaction: an organisation's audit chain, whose next
 * entry is read from the last one (two processes appending at once would take the same sequence), or its closings,
 * numbered the same way. SQLite needs nothing: it runs one write transaction at a time.
 */
export async function lockKey(db: AnyDb, space: keyof typeof LOCK_SPACES, id: number): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`select pg_advisory_xact_lock(${LOCK_SPACES[space]}::int, ${id}::int)`.execute(db);
}
