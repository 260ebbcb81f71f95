import { sql } from 'kysely';
import { analyzeIfAnalysed, createTriggerFunction, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * Turnover per customer and per line designation kept as the documents and their lines change. The by-customer,
 * by-item and by-tag reports grouped every document of the period (a second at a million documents); they now read
 * a month's sums for the whole months of the period and the documents only at its edges:
 * - `summary_customer_months`: per organisation, month ('2026-03'), customer (0 for none), currency and rate of issue
 *   ('' for none): how many documents, their HT (TTC less VAT, a credit note's negative) and the greatest customer
 *   name (the report's max()).
 * - `summary_item_months`: per organisation, month, trimmed designation, currency and rate: how many documents have a
 *   line of that designation (a document with two such lines counts once) and those lines' HT, signed the same way.
 * Only what turnover counts is kept (issued standard invoices and credit notes, not a credit note of a deposit), the
 * rule of the reports' countedInTurnover written here in SQL as this migration's triggers run it.
 *
 * The same transaction as the write keeps them, whatever code writes, as the summaries of migration 0066: on SQLite
 * row triggers; on PostgreSQL statement triggers reading the statement's rows (a copy of thousands of lines sums
 * them once per summary row, written in key order). A document's deletion takes its share off before the row goes
 * (its lines are still there; the cascade that deletes them then finds no document and moves nothing); on PostgreSQL
 * a deposit deleted in the statement is noted, so that its credit note deleted after it is still known as one.
 * No foreign key to the organisation: deleting one deletes its documents, whose triggers empty its rows.
 */

const CUSTOMER_KEY = ['organization_id', 'month', 'customer_key', 'currency', 'exchange_rate'];
const ITEM_KEY = ['organization_id', 'month', 'name', 'currency', 'exchange_rate'];
const DELETED_DEPOSITS = 'facturier.deleted_deposits';

/** The document columns a share is made of; an update that changes none of them moves nothing. */
const WATCHED = [
  'organization_id',
  'type',
  'kind',
  'number',
  'date',
  'customer_id',
  'customer_name',
  'currency',
  'exchange_rate',
  'total',
  'tax',
  'corrects_id',
];

/** Turnover's rule for the document row `r`: issued standard invoices and credit notes, not a credit note of a deposit. */
function counted(r: string, postgres: boolean): string {
  const noted = postgres
    ? ` or (${r}.corrects_id is not null and strpos(coalesce(current_setting('${DELETED_DEPOSITS}', true), ''), ',' || ${r}.corrects_id || ',') > 0)`
    : '';
  return `(${r}.number is not null and ${r}.type in ('invoice', 'credit') and ${r}.kind = 'standard'
    and not (${r}.type = 'credit' and (exists (select 1 from documents dd where dd.id = ${r}.corrects_id and dd.kind = 'deposit')${noted})))`;
}

/** A signed amount of document row `r`: a credit note's comes off. */
const signedBy = (r: string, amount: string) => `(case when ${r}.type = 'credit' then -(${amount}) else ${amount} end)`;

/** The rows of documents `source` as shares: each row's sign (1 added, -1 taken off) and whether turnover counts it. */
const documentShare = (sign: string, r: string, postgres: boolean) =>
  `${sign} as sign, ${r}.id as id, ${r}.organization_id as organization_id, ${r}.date as date, ${r}.customer_id as customer_id,
    ${r}.customer_name as customer_name, ${r}.currency as currency, ${r}.exchange_rate as exchange_rate, ${r}.type as type,
    ${r}.total as total, ${r}.tax as tax, case when ${counted(r, postgres)} then 1 else 0 end as counted`;

const keyList = (key: string[]) => key.join(', ');
const positions = (key: string[]) => key.map((_, i) => i + 1).join(', ');
const added = (table: string, columns: string[]) => columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');

/**
 * The customer sums moved by the document shares `s` (a query of documentShare rows): summed per row, written in key
 * order, rows left at 0 dropped, and a name taken off read again from the documents (the greatest cannot be undone).
 * `gone`: a condition on `d` true for a document deleted by this write but still there (a BEFORE trigger).
 */
function customerStatements(s: string, postgres: boolean, gone: string): string[] {
  const greatest = postgres ? 'greatest' : 'max';
  const key = `r.organization_id, substr(r.date, 1, 7), coalesce(r.customer_id, 0), r.currency, coalesce(r.exchange_rate, '')`;
  return [
    `insert into summary_customer_months (${keyList(CUSTOMER_KEY)}, count, net, customer_name)
      select ${key}, sum(r.sign), sum(r.sign * ${signedBy('r', 'r.total - r.tax')}),
        coalesce(max(case when r.sign = 1 then r.customer_name end), '')
      from (${s}) r where r.counted = 1
      group by ${positions(CUSTOMER_KEY)} order by ${positions(CUSTOMER_KEY)}
      on conflict (${keyList(CUSTOMER_KEY)}) do update set ${added('summary_customer_months', ['count', 'net'])},
        customer_name = ${greatest}(summary_customer_months.customer_name, excluded.customer_name)`,
    `delete from summary_customer_months where count = 0
      and (${keyList(CUSTOMER_KEY)}) in (select ${key} from (${s}) r where r.counted = 1)`,
    `update summary_customer_months set customer_name = coalesce((select max(d.customer_name) from documents d
        where d.organization_id = summary_customer_months.organization_id
          and (d.customer_id = summary_customer_months.customer_key or (summary_customer_months.customer_key = 0 and d.customer_id is null))
          and d.date >= summary_customer_months.month || '-01' and d.date <= summary_customer_months.month || '-31'
          and d.currency = summary_customer_months.currency and coalesce(d.exchange_rate, '') = summary_customer_months.exchange_rate
          and ${counted('d', postgres)} and not (${gone})), '')
      where exists (select 1 from (${s}) r where r.sign = -1 and r.counted = 1 and r.customer_name = summary_customer_months.customer_name
        and r.organization_id = summary_customer_months.organization_id and substr(r.date, 1, 7) = summary_customer_months.month
        and coalesce(r.customer_id, 0) = summary_customer_months.customer_key and r.currency = summary_customer_months.currency
        and coalesce(r.exchange_rate, '') = summary_customer_months.exchange_rate)`,
  ];
}

const itemKey = `organization_id, month, name, currency, exchange_rate`;

/**
 * Writes the item sums `deltas` (a query of ITEM_KEY, count, net) in key order, then drops the rows left at 0. A sum
 * that does not move (a document's share taken off and added back unchanged) writes nothing: no row locked for it.
 */
function itemUpsert(deltas: string): string[] {
  return [
    `insert into summary_item_months (${keyList(ITEM_KEY)}, count, net)
      select ${itemKey}, sum(count), sum(net) from (${deltas}) g
      group by ${positions(ITEM_KEY)} having sum(count) <> 0 or sum(net) <> 0 order by ${positions(ITEM_KEY)}
      on conflict (${keyList(ITEM_KEY)}) do update set ${added('summary_item_months', ['count', 'net'])}`,
    `delete from summary_item_months where count = 0 and (${keyList(ITEM_KEY)}) in (select ${itemKey} from (${deltas}) g)`,
  ];
}

/** The item sums moved by the document shares `s`: each counted document once per designation of its lines. */
function documentItemStatements(s: string): string[] {
  return itemUpsert(`select r.organization_id as organization_id, substr(r.date, 1, 7) as month, trim(i.item) as name,
      r.currency as currency, coalesce(r.exchange_rate, '') as exchange_rate, min(r.sign) as count,
      sum(r.sign * ${signedBy('r', 'i.net')}) as net
    from (${s}) r join document_items i on i.document_id = r.id
    where r.counted = 1
    group by r.id, r.sign, r.organization_id, r.date, trim(i.item), r.currency, r.exchange_rate`);
}

/**
 * The item sums moved by a write of lines, `before` and `after` being the written lines as they were and are (id,
 * document_id, item, net): per document and designation, whether the document had such a line before and has one
 * after (the lines not written, as they are, count in both), and the difference of their HT. A document not counted,
 * or no longer there (its lines deleted with it, its share already taken off), moves nothing.
 */
function lineStatements(before: string, after: string, postgres: boolean): string[] {
  const same = (x: string) => `${x}.document_id = k.document_id and trim(${x}.item) = k.name`;
  return itemUpsert(`select p.organization_id as organization_id, substr(p.date, 1, 7) as month, k.name as name,
      p.currency as currency, coalesce(p.exchange_rate, '') as exchange_rate,
      (case when exists (select 1 from document_items x where ${same('x')}) then 1 else 0 end)
        - (case when exists (select 1 from document_items x where ${same('x')} and x.id not in (select a.id from (${after}) a))
          or exists (select 1 from (${before}) b where ${same('b')}) then 1 else 0 end) as count,
      ${signedBy(
        'p',
        `coalesce((select sum(a.net) from (${after}) a where ${same('a')}), 0) - coalesce((select sum(b.net) from (${before}) b where ${same('b')}), 0)`,
      )} as net
    from (select distinct u.document_id, trim(u.item) as name from (select document_id, item from (${before}) b0
      union all select document_id, item from (${after}) a0) u) k
    join documents p on p.id = k.document_id
    where ${counted('p', postgres)}`);
}

const none = `select 0 as id, 0 as document_id, '' as item, 0 as net where 1 = 0`;
const lineRow = (r: string) => `select ${r}.id as id, ${r}.document_id as document_id, ${r}.item as item, ${r}.net as net`;
const lineRows = (table: string) => `select id, document_id, item, net from ${table}`;
/** The lines of an update whose designation, amount or document changed, as they were (`o`) or are (`n`). */
const changedLines = (r: 'o' | 'n') => `select ${r}.id, ${r}.document_id, ${r}.item, ${r}.net from old_rows o join new_rows n on n.id = o.id
  where o.document_id is distinct from n.document_id or o.item is distinct from n.item or o.net is distinct from n.net`;

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('summary_customer_months')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('customer_key', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('net', 'integer', (c) => c.notNull())
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_customer_months_pk', CUSTOMER_KEY as never)
    .execute();
  await db.schema
    .createTable('summary_item_months')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('net', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_item_months_pk', ITEM_KEY as never)
    .execute();
  await fill(db);
  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
  await analyzeIfAnalysed(db, ['summary_customer_months', 'summary_item_months']);
}

async function sqliteTriggers(db: MigrationDb): Promise<void> {
  const share = (sign: string, r: string) => `select ${documentShare(sign, r, false)}`;
  const both = (s: string, gone: string) => [...customerStatements(s, false, gone), ...documentItemStatements(s)];
  const changed = WATCHED.map((c) => `old.${c} is not new.${c}`).join(' or ');
  const body = (statements: string[]) => `begin ${statements.join(';\n')}; end`;
  await sql.raw(`create trigger summary_turnover_insert after insert on documents ${body(both(share('1', 'new'), 'false'))}`).execute(db);
  await sql
    .raw(`create trigger summary_turnover_update after update of ${WATCHED.join(', ')} on documents when ${changed}
      ${body([...both(share('-1', 'old'), 'false'), ...both(share('1', 'new'), 'false')])}`)
    .execute(db);
  // Before the row goes: its lines are still there to take off.
  await sql
    .raw(`create trigger summary_turnover_delete before delete on documents ${body(both(share('-1', 'old'), 'd.id = old.id'))}`)
    .execute(db);
  await sql
    .raw(`create trigger summary_lines_insert after insert on document_items ${body(lineStatements(none, lineRow('new'), false))}`)
    .execute(db);
  await sql
    .raw(`create trigger summary_lines_delete after delete on document_items ${body(lineStatements(lineRow('old'), none, false))}`)
    .execute(db);
  await sql
    .raw(`create trigger summary_lines_update after update of document_id, item, net on document_items
      when old.document_id is not new.document_id or old.item is not new.item or old.net is not new.net
      ${body(lineStatements(lineRow('old'), lineRow('new'), false))}`)
    .execute(db);
}

async function postgresTriggers(db: MigrationDb): Promise<void> {
  const fn = (name: string, statements: string[], result?: string) => createTriggerFunction(db, name, statements, result);
  const both = (s: string, gone: string) => [...customerStatements(s, true, gone), ...documentItemStatements(s)];
  const inserted = `select ${documentShare('1', 'n', true)} from new_rows n`;
  const changed = WATCHED.map((c) => `o.${c} is distinct from n.${c}`).join(' or ');
  const updated = `select ${documentShare('-1', 'o', true)} from old_rows o join new_rows n on n.id = o.id where ${changed}
    union all select ${documentShare('1', 'n', true)} from new_rows n join old_rows o on o.id = n.id where ${changed}`;
  await fn('summary_turnover_inserted', both(inserted, 'false'));
  // An update that moved no counted share (a payment's status, a note, a draft edited) stops at the first query.
  await fn('summary_turnover_updated', [
    `if not exists (select 1 from (${updated}) r where r.counted = 1) then return null; end if`,
    ...both(updated, 'false'),
  ]);
  // Row by row before each goes, its lines still there (they go by the cascade once the statement's rows are gone). A
  // deposit is noted first: its credit notes deleted later in the statement no longer find it among the documents.
  await fn(
    'summary_turnover_deleting',
    [
      `if old.kind = 'deposit' then perform set_config('${DELETED_DEPOSITS}',
        coalesce(nullif(current_setting('${DELETED_DEPOSITS}', true), ''), ',') || old.id || ',', true); end if`,
      ...both(`select ${documentShare('-1', 'old', true)}`, 'd.id = old.id'),
    ],
    'old',
  );
  await fn('summary_lines_written', [
    `if not exists (${changedLines('n')}) then return null; end if`,
    ...lineStatements(changedLines('o'), changedLines('n'), true),
  ]);
  await fn('summary_lines_inserted', lineStatements(none, lineRows('new_rows'), true));
  await fn('summary_lines_deleted', lineStatements(lineRows('old_rows'), none, true));
  await sql
    .raw(`create trigger summary_turnover_insert after insert on documents referencing new table as new_rows
      for each statement execute function summary_turnover_inserted()`)
    .execute(db);
  await sql
    .raw(`create trigger summary_turnover_update after update on documents referencing old table as old_rows new table as new_rows
      for each statement execute function summary_turnover_updated()`)
    .execute(db);
  await sql
    .raw(`create trigger summary_turnover_delete before delete on documents for each row execute function summary_turnover_deleting()`)
    .execute(db);
  await sql
    .raw(`create trigger summary_lines_insert after insert on document_items referencing new table as new_rows
      for each statement execute function summary_lines_inserted()`)
    .execute(db);
  await sql
    .raw(`create trigger summary_lines_update after update on document_items referencing old table as old_rows new table as new_rows
      for each statement execute function summary_lines_written()`)
    .execute(db);
  await sql
    .raw(`create trigger summary_lines_delete after delete on document_items referencing old table as old_rows
      for each statement execute function summary_lines_deleted()`)
    .execute(db);
}

/** The tables from the documents already there (the rebuild's aggregates, as they were written here). */
async function fill(db: MigrationDb): Promise<void> {
  const postgres = isPostgres(db);
  await sql
    .raw(`insert into summary_customer_months (${keyList(CUSTOMER_KEY)}, count, net, customer_name)
      select organization_id, substr(date, 1, 7), coalesce(customer_id, 0), currency, coalesce(exchange_rate, ''),
        count(*), sum(${signedBy('documents', 'total - tax')}), max(customer_name)
      from documents where ${counted('documents', postgres)}
      group by 1, 2, 3, 4, 5`)
    .execute(db);
  await sql
    .raw(`insert into summary_item_months (${keyList(ITEM_KEY)}, count, net)
      select documents.organization_id, substr(documents.date, 1, 7), trim(i.item), documents.currency, coalesce(documents.exchange_rate, ''),
        count(distinct documents.id), sum(${signedBy('documents', 'i.net')})
      from documents join document_items i on i.document_id = documents.id
      where ${counted('documents', postgres)}
      group by 1, 2, 3, 4, 5`)
    .execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    for (const [trigger, table] of [
      ['summary_turnover_insert', 'documents'],
      ['summary_turnover_update', 'documents'],
      ['summary_turnover_delete', 'documents'],
      ['summary_lines_insert', 'document_items'],
      ['summary_lines_update', 'document_items'],
      ['summary_lines_delete', 'document_items'],
    ] as const)
      await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
    for (const name of [
      'summary_turnover_inserted',
      'summary_turnover_updated',
      'summary_turnover_deleting',
      'summary_lines_written',
      'summary_lines_inserted',
      'summary_lines_deleted',
    ])
      await sql`drop function ${sql.id(name)}()`.execute(db);
  } else {
    for (const name of [
      'summary_turnover_insert',
      'summary_turnover_update',
      'summary_turnover_delete',
      'summary_lines_insert',
      'summary_lines_update',
      'summary_lines_delete',
    ])
      await sql`drop trigger ${sql.id(name)}`.execute(db);
  }
  await db.schema.dropTable('summary_item_months').execute();
  await db.schema.dropTable('summary_customer_months').execute();
}
