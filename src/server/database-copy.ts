import { CompiledQuery, sql, type Transaction } from 'kysely';
import type { Database } from './db/schema';
import type { Connection } from './db/connection';
import { resyncIdentities } from './db/dialect';
import { migrateToLatest } from './migrate';
import { listLoggedOrganizations } from './db/queries/audit';
import { type SearchEntry, type SearchKind, writeSearchEntries } from './db/queries/search';
import { writeSummaries } from './db/queries/summaries';
import { verifyAudit } from './services/audit';

/** Why a copy was refused or did not verify, in French, for the operator reading the terminal. */
export class CopyError extends Error {}

export interface CopyReport {
  tables: Record<string, number>;
  auditLogs: number;
  ms: number;
}

/** Bound parameters per insert, under PostgreSQL's 65 535. */
const MAX_PARAMETERS = 60_000;
const SEARCH_ENTRIES_PER_CHUNK = 5000;

/**
 * A SQLite table that is not data: Kysely's own, SQLite's, the FTS5 indexes and their shadow tables (the search
 * index is written again below; `document_numbers`, migration 0040, is SQLite's: PostgreSQL finds a number's part by
 * the suffixes kept in its search entries, migration 0042), the summaries (migration 0066: written from the copied
 * documents at the end).
 */
/**
 * The PostgreSQL triggers that keep the documents', payments' and reminders' summaries (migrations 0070, 0074, 0075,
 * 0077, 0080), per table.
 */
const SUMMARY_TRIGGERS = [
  ...['summary_documents_insert', 'summary_documents_delete', 'summary_documents_update'].map((trigger) => ({
    table: 'documents',
    trigger,
  })),
  ...['insert', 'update', 'delete'].flatMap((op) => [
    { table: 'documents', trigger: `summary_turnover_${op}` },
    { table: 'document_items', trigger: `summary_lines_${op}` },
    { table: 'payments', trigger: `summary_payments_${op}` },
  ]),
  ...['update', 'delete'].map((op) => ({ table: 'documents', trigger: `summary_payment_documents_${op}` })),
  ...['insert', 'update', 'delete'].flatMap((op) => [
    { table: 'documents', trigger: `summary_reminder_documents_${op}` },
    { table: 'payment_reminders', trigger: `summary_reminders_${op}` },
    { table: 'documents', trigger: `summary_reminder_addresses_${op}` },
  ]),
  { table: 'customers', trigger: 'summary_reminder_addresses_customers_update' },
];

/**
 * The PostgreSQL triggers that mark the VAT ledger stale (migration 0069), per table: off for the copy, whose ledger,
 * per-day sums and stale marks are the source's own rows, copied as they are.
 */
const VAT_LEDGER_TRIGGERS = [
  'documents',
  'document_items',
  'document_taxes',
  'payments',
  'expenses',
  'expense_categories',
  'currencies',
  'settings',
].flatMap((table) => [`vat_ledger_${table}_write`, `vat_ledger_${table}_update`].map((trigger) => ({ table, trigger })));

const skipped = (name: string) =>
  name.startsWith('kysely_') ||
  name.startsWith('sqlite_') ||
  name.startsWith('search_index') ||
  name.startsWith('document_numbers') ||
  name.startsWith('summary_');

/**
 * `npm run db:copy`: every row of a SQLite database into an empty PostgreSQL one (migrated to the same version first),
 * in one transaction — a failed copy leaves the target empty. Tables are filled parents first (foreign keys); a
 * column referencing its own table (a deposit's final invoice, a reversed payment) is filled after all the rows. The
 * search index is rebuilt in the target's form. Then each table's rows are counted on both sides and every audit log
 * is verified on the target (hashes and links, and the kept PDFs under `dataDir`).
 */
export async function copyDatabase(from: Connection, to: Connection, dataDir: string): Promise<CopyReport> {
  if (from.dialect !== 'sqlite' || !from.sqlite) throw new CopyError('La source doit être une base SQLite (file:…)');
  if (to.dialect !== 'postgres') throw new CopyError('La cible doit être une base PostgreSQL (postgres://…)');
  const started = performance.now();
  await migrateToLatest(from.db);
  await migrateToLatest(to.db);
  const existing = await to.db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) throw new CopyError('La base cible contient déjà des données : la copie se fait dans une base vide');

  const source = from.sqlite;
  const sourceTables = (source.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[])
    .map((r) => r.name)
    .filter((name) => !skipped(name));
  const { rows: references } = await sql<{ child: string; parent: string; column_name: string }>`
    select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent, a.attname as column_name
    from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`.execute(to.db);
  const order = parentsFirst(sourceTables, references);

  const tables: Record<string, number> = {};
  await to.db.transaction().execute(async (trx) => {
    // The generations (migrations 0042 and 0065) are bumped at each statement's end rather than at the commit: an index
    // cannot be built on a table with trigger events pending, and nothing else writes an empty target meanwhile.
    await sql`set constraints all immediate`.execute(trx);
    // The summaries' triggers (migration 0070) would update the same few rows once per chunk of copied documents:
    // off for the copy, and the summaries written once from the copied documents at its end.
    for (const { table, trigger } of SUMMARY_TRIGGERS)
      await sql`alter table ${sql.id(table)} disable trigger ${sql.id(trigger)}`.execute(trx);
    for (const { table, trigger } of VAT_LEDGER_TRIGGERS)
      await sql`alter table ${sql.id(table)} disable trigger ${sql.id(trigger)}`.execute(trx);
    for (const table of order) {
      const { rows: columnRows } = await sql<{ column_name: string }>`select column_name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table}`.execute(trx);
      const targetColumns = new Set(columnRows.map((r) => r.column_name));
      const sourceColumns = (source.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map((r) => r.name);
      const missing = sourceColumns.filter((c) => !targetColumns.has(c));
      if (missing.length) throw new CopyError(`Colonnes absentes de la cible pour ${table} : ${missing.join(', ')}`);
      const selfColumns = references.filter((r) => r.child === table && r.parent === table).map((r) => r.column_name);
      const statement = source.prepare(`select * from "${table}"${sourceColumns.includes('id') ? ' order by id' : ''}`);
      // The insert's text is written once per table and its rows bound as parameters: building it with Kysely
      // for every chunk cost more than a quarter of a 100 000-document copy.
      const rowsPerStatement = Math.max(1, Math.floor(MAX_PARAMETERS / sourceColumns.length));
      const columnList = sourceColumns.map((c) => `"${c}"`).join(', ');
      const placeholders = (rows: number) =>
        Array.from({ length: rows }, (_, r) => `(${sourceColumns.map((_, c) => `$${r * sourceColumns.length + c + 1}`).join(', ')})`).join(
          ', ',
        );
      const fullInsert = `insert into "${table}" (${columnList}) values ${placeholders(rowsPerStatement)}`;
      let batch: unknown[] = [];
      let batchRows = 0;
      const later: Record<string, unknown>[] = [];
      const flush = async () => {
        if (batchRows === 0) return;
        const text =
          batchRows === rowsPerStatement ? fullInsert : `insert into "${table}" (${columnList}) values ${placeholders(batchRows)}`;
        await trx.executeQuery(CompiledQuery.raw(text, batch));
        batch = [];
        batchRows = 0;
      };
      const rebuildIndexes = await dropSecondaryIndexes(trx, table);
      let count = 0;
      for (const row of statement.iterate() as Iterable<Record<string, unknown>>) {
        const values = { ...row };
        if (selfColumns.some((c) => values[c] !== null)) {
          later.push(Object.fromEntries([['id', row.id], ...selfColumns.map((c) => [c, row[c]])]));
          for (const c of selfColumns) values[c] = null;
        }
        for (const c of sourceColumns) batch.push(values[c]);
        batchRows += 1;
        count += 1;
        if (batchRows >= rowsPerStatement) await flush();
      }
      await flush();
      await rebuildIndexes();
      for (const row of later) {
        const { id, ...set } = row;
        await trx
          .updateTable(table as never)
          .set(set as never)
          .where('id' as never, '=', id as never)
          .execute();
      }
      tables[table] = count;
    }
    for (const { table, trigger } of SUMMARY_TRIGGERS)
      await sql`alter table ${sql.id(table)} enable trigger ${sql.id(trigger)}`.execute(trx);
    for (const { table, trigger } of VAT_LEDGER_TRIGGERS)
      await sql`alter table ${sql.id(table)} enable trigger ${sql.id(trigger)}`.execute(trx);
    await writeSummaries(trx);
    // The search index: the same entries, written with the target's full-text columns, a chunk per statement (one
    // upsert per entry took most of a 100 000-document copy). A document's number comes from its row.
    const entries = source
      .prepare(`select s.organization_id, s.kind, s.ref_id, s.title, s.subtitle, s.body, d.number from search_index s
        left join documents d on s.kind = 'document' and d.id = s.ref_id`)
      .iterate() as Iterable<{
      organization_id: number;
      kind: SearchKind;
      ref_id: number;
      title: string | null;
      subtitle: string | null;
      body: string | null;
      number: string | null;
    }>;
    let indexed = 0;
    const rebuildSearchIndexes = await dropSecondaryIndexes(trx, 'search_index');
    let chunk: SearchEntry[] = [];
    for (const e of entries) {
      chunk.push({
        organizationId: Number(e.organization_id),
        kind: e.kind,
        refId: Number(e.ref_id),
        title: e.title ?? '',
        subtitle: e.subtitle ?? '',
        body: e.body ?? '',
        number: e.number,
      });
      indexed += 1;
      if (chunk.length >= SEARCH_ENTRIES_PER_CHUNK) {
        await writeSearchEntries(trx, chunk);
        chunk = [];
      }
    }
    await writeSearchEntries(trx, chunk);
    await rebuildSearchIndexes();
    tables.search_index = indexed;
    await resyncIdentities(trx);
  });

  // Verification, after the commit, by reading the target afresh.
  for (const [table, expected] of Object.entries(tables)) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(to.db);
    if (Number(rows[0]?.n) !== expected) throw new CopyError(`${table} : ${expected} lignes lues, ${rows[0]?.n} dans la cible`);
  }
  const organizations = await listLoggedOrganizations(to.db);
  for (const organization of organizations) {
    const result = await verifyAudit(to.db, organization.id, dataDir);
    if (!result.ok)
      throw new CopyError(
        `Journal de l’organisation n° ${organization.id} altéré dans la copie à partir de l’entrée n° ${result.first_broken}`,
      );
  }
  // The planner's statistics of what was copied: without them PostgreSQL plans the first requests blind until
  // autovacuum analyses the tables (a minute or more). On a copy of the scale bench's 100 000 documents, the first
  // answers of a list's page 500 or of a common word's search took 150-460 ms before ANALYZE, 10-130 ms after.
  await sql`analyze`.execute(to.db);
  return { tables, auditLogs: organizations.length, ms: performance.now() - started };
}

/**
 * Drops a table's secondary indexes and answers the function that builds them again: built once after the rows rather
 * than entry by entry, they cost a fraction (documents and the search index's GIN indexes, most of a copy's time).
 * Indexes a constraint uses (primary keys, unique constraints, a foreign key's target) stay.
 */
async function dropSecondaryIndexes(trx: Transaction<Database>, table: string): Promise<() => Promise<void>> {
  const { rows: indexes } = await sql<{ name: string; definition: string }>`select i.indexname as name, i.indexdef as definition
    from pg_indexes i join pg_class ic on ic.relname = i.indexname and ic.relnamespace = current_schema()::regnamespace
    where i.schemaname = current_schema() and i.tablename = ${table}
      and not exists (select 1 from pg_constraint c where c.conindid = ic.oid)`.execute(trx);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return async () => {
    for (const index of indexes) await sql.raw(index.definition).execute(trx);
  };
}

/** The tables in an order where each comes after those it references (its own table aside). */
function parentsFirst(tables: string[], references: { child: string; parent: string }[]): string[] {
  const done = new Set<string>();
  const ordered: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (done.has(table) || path.has(table)) return;
    path.add(table);
    for (const r of references) if (r.child === table && r.parent !== table && tables.includes(r.parent)) visit(r.parent, path);
    done.add(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}
