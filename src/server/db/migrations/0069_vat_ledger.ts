import { sql } from 'kysely';
import { analyzeIfAnalysed, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * The VAT return read from a ledger. At a million documents the return read every sale whose VAT could move in the
 * period and ran the engine (shared/vat-return) on all of them; it now sums small tables the engine wrote before:
 * - `vat_ledger`: each movement of the cumulative VAT of one sale or expense at one date (an invoice's issue, each
 *   payment or reversal, each credit note; an expense when invoiced or paid), per line of the CA3, nature and rate;
 *   base and VAT in stored units (10^-4). `owner` is the sale (the invoice whose credit notes and deposits the engine
 *   weighs together, or a credit note on no invoice) or the expense whose rows are recomputed together.
 * - `vat_ledger_days`: the same summed per organisation, day, line, rate and reverse charge, which a return reads.
 * - `vat_ledger_dirty`: what a write changed since, marked by the triggers below in the transaction of the write,
 *   whatever code writes (issue, payment, credit note, deposit, expense, import, copy, bench seed). The server
 *   recomputes those owners with the engine before it reads the ledger (services/vat-ledger.ts); a change of what
 *   the whole return depends on (the débits option, the base currency, a category's account) marks the organisation,
 *   whose rows are then rebuilt whole; a currency's rate marks the sales converted at it.
 * The engine stays the one source of the rules: the rows are what it answers, and `npm run summaries:rebuild` writes
 * them from scratch. Every organisation is marked here, so that its first return builds its ledger.
 */

const OWNER_TABLES = ['vat_ledger', 'vat_ledger_days', 'vat_ledger_dirty'] as const;

/** SQL that marks owner `owner` (an expression of its id) of organisation `org` (an expression); skips a null id. */
const mark = (org: string, owner: 'sale' | 'expense' | 'organization', id: string) =>
  `insert into vat_ledger_dirty (organization_id, owner, id) select ${org}, '${owner}', ${id}
    where ${org} is not null and ${id} is not null on conflict do nothing`;

/** A document's owners: itself, the invoice it credits, the final invoice that deducts it (row `r`). */
const documentMarks = (r: string) => [
  mark(`${r}.organization_id`, 'sale', `${r}.id`),
  mark(`${r}.organization_id`, 'sale', `${r}.corrects_id`),
  mark(`${r}.organization_id`, 'sale', `${r}.deducted_by_id`),
];
const orgOf = (r: string) => `(select d.organization_id from documents d where d.id = ${r}.document_id)`;
const childMarks = (r: string) => [mark(orgOf(r), 'sale', `${r}.document_id`)];
const paymentMarks = (r: string) => [mark(`${r}.organization_id`, 'sale', `${r}.document_id`)];
const expenseMarks = (r: string) => [mark(`${r}.organization_id`, 'expense', `${r}.id`)];
const organizationMarks = (r: string) => [mark(`${r}.organization_id`, 'organization', '0')];
/** The settings the return reads are two keys' (settingsChanged below); any other setting moves nothing. */
const settingsMarks = (r: string) => [
  `insert into vat_ledger_dirty (organization_id, owner, id) select ${r}.organization_id, 'organization', 0
    where ${r}.key in ('organization', 'app') on conflict do nothing`,
];
/**
 * A currency's rate converts only the documents issued before rates were kept (no rate of their own): those sales
 * and their owners are marked, not the organisation.
 */
const currencyMarks = (r: string) =>
  ['id', 'corrects_id', 'deducted_by_id'].map(
    (column) => `insert into vat_ledger_dirty (organization_id, owner, id)
      select d.organization_id, 'sale', d.${column} from documents d
      where d.organization_id = ${r}.organization_id and d.currency = ${r}.code and d.exchange_rate is null
        and d.number is not null and d.${column} is not null
      on conflict do nothing`,
  );

/** The documents' columns the VAT of a sale depends on: a write that changes none of them moves nothing. */
const DOCUMENT_COLUMNS = [
  'number',
  'type',
  'kind',
  'date',
  'customer_name',
  'customer_snapshot',
  'currency',
  'exchange_rate',
  'total',
  'tax',
  'deposits',
  'corrects_id',
  'deducted_by_id',
  'organization_id',
];

interface Watched {
  table: string;
  marks: (r: string) => string[];
  /** Update columns that matter; all of them when absent. */
  columns?: string[];
  /** A condition on `old` and `new` for an update to matter. */
  when?: (postgres: boolean) => string;
}

/** The settings the whole return reads: the débits option (profile) and the base currency (application settings). */
function settingsChanged(postgres: boolean): string {
  const field = (r: string, path: string[]) =>
    postgres ? `(${r}.value::jsonb #>> '{${path.join(',')}}')` : `json_extract(${r}.value, '$.${path.join('.')}')`;
  const differs = (path: string[]) =>
    postgres ? `${field('old', path)} is distinct from ${field('new', path)}` : `${field('old', path)} is not ${field('new', path)}`;
  return `(new.key = 'organization' and ${differs(['vat_on_debits'])}) or (new.key = 'app' and ${differs(['currency_format', 'currency'])})`;
}

const WATCHED: Watched[] = [
  { table: 'documents', marks: documentMarks, columns: DOCUMENT_COLUMNS },
  { table: 'document_items', marks: childMarks },
  { table: 'document_taxes', marks: childMarks },
  { table: 'payments', marks: paymentMarks, columns: ['document_id', 'date', 'amount', 'organization_id'] },
  { table: 'expenses', marks: expenseMarks },
  { table: 'expense_categories', marks: organizationMarks, columns: ['code', 'account'] },
  { table: 'currencies', marks: currencyMarks, columns: ['code', 'rate'] },
  { table: 'settings', marks: settingsMarks, when: settingsChanged },
];

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('vat_ledger')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('nature', 'text')
    .addColumn('rate', 'double precision', (c) => c.notNull())
    .addColumn('reverse_charge', 'text', (c) => c.notNull())
    .addColumn('base', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vat_ledger_owner').on('vat_ledger').columns(['organization_id', 'owner', 'owner_id']).execute();
  await db.schema.createIndex('vat_ledger_date').on('vat_ledger').columns(['organization_id', 'date']).execute();
  await db.schema
    .createTable('vat_ledger_days')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('rate', 'double precision', (c) => c.notNull())
    .addColumn('reverse_charge', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('base', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('vat_ledger_days_pk', ['organization_id', 'date', 'line', 'rate', 'reverse_charge'])
    .execute();
  await db.schema
    .createTable('vat_ledger_dirty')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('vat_ledger_dirty_pk', ['organization_id', 'owner', 'id'])
    .execute();
  // An invoice's credit notes, looked up when it is recomputed: most documents credit none, and an index over their
  // nulls reads, to SQLite's planner, as one no lookup can use (PostgreSQL's statistics count the nulls apart).
  if (!isPostgres(db))
    await db.schema
      .createIndex('documents_credits_idx')
      .on('documents')
      .column('corrects_id')
      .where(sql.ref('corrects_id'), 'is not', null)
      .execute();
  await sql`insert into vat_ledger_dirty (organization_id, owner, id) select id, 'organization', 0 from organizations`.execute(db);

  const postgres = isPostgres(db);
  for (const w of WATCHED) {
    const changed = [
      ...(w.columns
        ? [w.columns.map((c) => (postgres ? `old.${c} is distinct from new.${c}` : `old.${c} is not new.${c}`)).join(' or ')]
        : []),
      ...(w.when ? [w.when(postgres)] : []),
    ];
    const condition = changed.map((c) => `(${c})`).join(' and ');
    if (postgres) {
      await sql
        .raw(`create function vat_ledger_mark_${w.table}() returns trigger language plpgsql as $$
          begin
            if tg_op <> 'INSERT' then ${w.marks('old').join(';\n')}; end if;
            if tg_op <> 'DELETE' then ${w.marks('new').join(';\n')}; end if;
            return null;
          end $$`)
        .execute(db);
      await sql
        .raw(`create trigger vat_ledger_${w.table}_write after insert or delete on ${w.table}
          for each row execute function vat_ledger_mark_${w.table}()`)
        .execute(db);
      await sql
        .raw(`create trigger vat_ledger_${w.table}_update after update on ${w.table}
          for each row ${condition ? `when (${condition})` : ''} execute function vat_ledger_mark_${w.table}()`)
        .execute(db);
    } else {
      await sql
        .raw(`create trigger vat_ledger_${w.table}_insert after insert on ${w.table} begin ${w.marks('new').join(';\n')}; end`)
        .execute(db);
      await sql
        .raw(`create trigger vat_ledger_${w.table}_delete after delete on ${w.table} begin ${w.marks('old').join(';\n')}; end`)
        .execute(db);
      await sql
        .raw(`create trigger vat_ledger_${w.table}_update after update on ${w.table} ${condition ? `when ${condition}` : ''}
          begin ${[...w.marks('old'), ...w.marks('new')].join(';\n')}; end`)
        .execute(db);
    }
  }
  await analyzeIfAnalysed(db, [...OWNER_TABLES, ...(isPostgres(db) ? [] : ['documents_credits_idx'])]);
}

export async function down(db: MigrationDb): Promise<void> {
  const postgres = isPostgres(db);
  for (const w of WATCHED) {
    if (postgres) {
      await sql.raw(`drop trigger vat_ledger_${w.table}_update on ${w.table}`).execute(db);
      await sql.raw(`drop trigger vat_ledger_${w.table}_write on ${w.table}`).execute(db);
      await sql.raw(`drop function vat_ledger_mark_${w.table}()`).execute(db);
    } else {
      for (const op of ['insert', 'delete', 'update']) await sql.raw(`drop trigger vat_ledger_${w.table}_${op}`).execute(db);
    }
  }
  if (!postgres) await db.schema.dropIndex('documents_credits_idx').execute();
  for (const table of OWNER_TABLES) await db.schema.dropTable(table).execute();
}
