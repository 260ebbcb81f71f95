import { sql } from 'kysely';
import { analyzeIfAnalysed, type MigrationDb } from './helpers';
import { isPostgres } from '../dialect';

/**
 * Figures kept as the documents change. At a million documents the dashboard, the receivables and the list's count
 * walked every matching document after each write; they now read small tables that triggers on `documents` keep
 * in the transaction of the write, whatever code writes it (issue, payment, credit note, draft deleted, status changed,
 * a copy, a bench seed), on SQLite and PostgreSQL alike. Each trigger takes the old row's share off and adds the new
 * row's, then drops a row left at a count of 0, so that the tables equal a rebuild from the documents row for row
 * (`npm run summaries:rebuild`, db/queries/summaries.ts, writes them from scratch):
 * - `summary_document_days`: issued invoices and credit notes per organisation, date, type, kind, currency, rate of
 *   issue ('' for none) and whether it is a credit note of a deposit invoice; count, HT (subtotal − discount), VAT,
 *   TTC and deposits deducted, in stored units.
 * - `summary_receivables`: unpaid and partly paid invoices per organisation, maturity ('' for none), customer (0 for
 *   none), currency and rate of issue; count, amount due, and the greatest customer name (as the report's max()).
 * - `summary_receivable_days` and `summary_receivable_customers`: the same sums per maturity alone and per customer
 *   alone, so that the ageing and the customers' totals read a few thousand rows, not one per invoice.
 * - `summary_document_counts`: every document per organisation, type and status; count, and how many were sent.
 * No foreign key to the organisation: deleting one deletes its documents, whose triggers empty its rows.
 */

const OPEN = `('unpaid', 'partial')`;

/** 1 for a credit note on a deposit invoice (turnover leaves it out), from the row `r`. */
const depositCredit = (r: string) =>
  `case when ${r}.type = 'credit' and exists (select 1 from documents d where d.id = ${r}.corrects_id and d.kind = 'deposit') then 1 else 0 end`;

const DAY_KEY = ['organization_id', 'date', 'type', 'kind', 'currency', 'exchange_rate', 'deposit_credit'];
const RECEIVABLE_KEY = ['organization_id', 'maturity', 'customer_key', 'currency', 'exchange_rate'];
const COUNT_KEY = ['organization_id', 'type', 'status'];
const RECEIVABLE_DAY_KEY = ['organization_id', 'maturity', 'currency', 'exchange_rate'];
const RECEIVABLE_CUSTOMER_KEY = ['organization_id', 'customer_key', 'currency', 'exchange_rate'];

/**
 * The statements that add (`sign` 1) or take off (-1) the share of row `r` ('new' or 'old'), one list per table in
 * the order of SUMMARIES.
 */
function shareStatements(postgres: boolean, r: 'new' | 'old', sign: 1 | -1): string[][] {
  const s = sign === 1 ? '' : '-';
  const added = (table: string, columns: string[]) => columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');
  const greatest = postgres ? 'greatest' : 'max';
  const statements = [
    `insert into summary_document_days (${DAY_KEY.join(', ')}, count, ht, tax, total, deposits)
      select ${r}.organization_id, ${r}.date, ${r}.type, ${r}.kind, ${r}.currency, coalesce(${r}.exchange_rate, ''), ${depositCredit(r)},
        ${s}1, ${s}(${r}.subtotal - ${r}.discount), ${s}${r}.tax, ${s}${r}.total, ${s}${r}.deposits
      where ${r}.number is not null and ${r}.type in ('invoice', 'credit')
      on conflict (${DAY_KEY.join(', ')}) do update set ${added('summary_document_days', ['count', 'ht', 'tax', 'total', 'deposits'])}`,
    `insert into summary_receivables (${RECEIVABLE_KEY.join(', ')}, count, amount_due, customer_name)
      select ${r}.organization_id, coalesce(${r}.maturity, ''), coalesce(${r}.customer_id, 0), ${r}.currency, coalesce(${r}.exchange_rate, ''),
        ${s}1, ${s}${r}.amount_due, ${r}.customer_name
      where ${r}.type = 'invoice' and ${r}.status in ${OPEN}
      on conflict (${RECEIVABLE_KEY.join(', ')}) do update set ${added('summary_receivables', ['count', 'amount_due'])}${
        sign === 1 ? `, customer_name = ${greatest}(summary_receivables.customer_name, excluded.customer_name)` : ''
      }`,
    `insert into summary_receivable_days (${RECEIVABLE_DAY_KEY.join(', ')}, count, amount_due)
      select ${r}.organization_id, coalesce(${r}.maturity, ''), ${r}.currency, coalesce(${r}.exchange_rate, ''), ${s}1, ${s}${r}.amount_due
      where ${r}.type = 'invoice' and ${r}.status in ${OPEN}
      on conflict (${RECEIVABLE_DAY_KEY.join(', ')}) do update set ${added('summary_receivable_days', ['count', 'amount_due'])}`,
    `insert into summary_receivable_customers (${RECEIVABLE_CUSTOMER_KEY.join(', ')}, count, amount_due)
      select ${r}.organization_id, coalesce(${r}.customer_id, 0), ${r}.currency, coalesce(${r}.exchange_rate, ''), ${s}1, ${s}${r}.amount_due
      where ${r}.type = 'invoice' and ${r}.status in ${OPEN}
      on conflict (${RECEIVABLE_CUSTOMER_KEY.join(', ')}) do update set ${added('summary_receivable_customers', ['count', 'amount_due'])}`,
    `insert into summary_document_counts (${COUNT_KEY.join(', ')}, count, sent)
      select ${r}.organization_id, ${r}.type, ${r}.status, ${s}1, ${s}(case when ${r}.sent_at is not null then 1 else 0 end)
      where true
      on conflict (${COUNT_KEY.join(', ')}) do update set ${added('summary_document_counts', ['count', 'sent'])}`,
  ];
  if (sign === 1) return statements.map((statement) => [statement]);
  const dayKey = `organization_id = ${r}.organization_id and date = ${r}.date and type = ${r}.type and kind = ${r}.kind
    and currency = ${r}.currency and exchange_rate = coalesce(${r}.exchange_rate, '') and deposit_credit = ${depositCredit(r)}`;
  const receivableKey = `organization_id = ${r}.organization_id and maturity = coalesce(${r}.maturity, '')
    and customer_key = coalesce(${r}.customer_id, 0) and currency = ${r}.currency and exchange_rate = coalesce(${r}.exchange_rate, '')`;
  // The documents of that receivable row, by the organisation's customer index.
  const sameCustomer = postgres
    ? `(d.customer_id = ${r}.customer_id or (d.customer_id is null and ${r}.customer_id is null))`
    : `d.customer_id is ${r}.customer_id`;
  const [days = '', receivables = '', receivableDays = '', receivableCustomers = '', counts = ''] = statements;
  return [
    [days, `delete from summary_document_days where ${dayKey} and count = 0`],
    [
      receivables,
      `delete from summary_receivables where ${receivableKey} and count = 0`,
      // The greatest name cannot be taken off: when the row's name was this document's, it is read again from the rest.
      `update summary_receivables set customer_name = (select max(d.customer_name) from documents d
          where d.organization_id = ${r}.organization_id and ${sameCustomer} and d.type = 'invoice' and d.status in ${OPEN}
            and coalesce(d.maturity, '') = coalesce(${r}.maturity, '') and d.currency = ${r}.currency
            and coalesce(d.exchange_rate, '') = coalesce(${r}.exchange_rate, ''))
        where ${receivableKey} and customer_name = ${r}.customer_name`,
    ],
    [
      receivableDays,
      `delete from summary_receivable_days where organization_id = ${r}.organization_id and maturity = coalesce(${r}.maturity, '')
        and currency = ${r}.currency and exchange_rate = coalesce(${r}.exchange_rate, '') and count = 0`,
    ],
    [
      receivableCustomers,
      `delete from summary_receivable_customers where organization_id = ${r}.organization_id and customer_key = coalesce(${r}.customer_id, 0)
        and currency = ${r}.currency and exchange_rate = coalesce(${r}.exchange_rate, '') and count = 0`,
    ],
    [
      counts,
      `delete from summary_document_counts where organization_id = ${r}.organization_id and type = ${r}.type and status = ${r}.status and count = 0`,
    ],
  ];
}

/** Each table's key of row `r`, compared on PostgreSQL to lock two rows of a table in one order whatever the update. */
const orderKeys = (r: 'new' | 'old') => [
  `row(${r}.organization_id, ${r}.date, ${r}.type, ${r}.kind, ${r}.currency, coalesce(${r}.exchange_rate, ''))`,
  `row(${r}.organization_id, coalesce(${r}.maturity, ''), coalesce(${r}.customer_id, 0), ${r}.currency, coalesce(${r}.exchange_rate, ''))`,
  `row(${r}.organization_id, coalesce(${r}.maturity, ''), ${r}.currency, coalesce(${r}.exchange_rate, ''))`,
  `row(${r}.organization_id, coalesce(${r}.customer_id, 0), ${r}.currency, coalesce(${r}.exchange_rate, ''))`,
  `row(${r}.organization_id, ${r}.type, ${r}.status)`,
];

/** The columns whose change moves a document's share; any other update (a note, a PDF kept) fires nothing. */
const WATCHED = [
  'organization_id',
  'type',
  'kind',
  'status',
  'number',
  'date',
  'maturity',
  'customer_id',
  'customer_name',
  'currency',
  'exchange_rate',
  'subtotal',
  'discount',
  'tax',
  'total',
  'deposits',
  'amount_due',
  'sent_at',
  'corrects_id',
];

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('summary_document_days')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('deposit_credit', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('ht', 'integer', (c) => c.notNull())
    .addColumn('tax', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('deposits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_document_days_pk', DAY_KEY as never)
    .execute();
  await db.schema
    .createTable('summary_receivables')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('maturity', 'text', (c) => c.notNull())
    .addColumn('customer_key', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('amount_due', 'integer', (c) => c.notNull())
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_receivables_pk', RECEIVABLE_KEY as never)
    .execute();
  // A customer's oldest maturity and name, read for the few customers the report lists.
  await db.schema
    .createIndex('summary_receivables_customer_idx')
    .on('summary_receivables')
    .columns(['organization_id', 'customer_key', 'maturity'])
    .execute();
  await db.schema
    .createTable('summary_receivable_days')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('maturity', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('amount_due', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_receivable_days_pk', RECEIVABLE_DAY_KEY as never)
    .execute();
  await db.schema
    .createTable('summary_receivable_customers')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('customer_key', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('amount_due', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_receivable_customers_pk', RECEIVABLE_CUSTOMER_KEY as never)
    .execute();
  await db.schema
    .createTable('summary_document_counts')
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('summary_document_counts_pk', COUNT_KEY as never)
    .execute();
  await fill(db);

  const postgres = isPostgres(db);
  const removeOld = shareStatements(postgres, 'old', -1);
  const addNew = shareStatements(postgres, 'new', 1);
  const changed = WATCHED.map((c) => (postgres ? `old.${c} is distinct from new.${c}` : `old.${c} is not new.${c}`)).join(' or ');
  if (postgres) {
    // Table by table, in one order, and within a table the smaller key first: two transactions updating documents
    // that move between the same two rows (one paid in part, another's payment reversed) lock them in the same order,
    // rather than each holding the row the other waits for.
    const oldKeys = orderKeys('old');
    const newKeys = orderKeys('new');
    const steps = removeOld.map((remove, i) => {
      const add = addNew[i] ?? [];
      return `if tg_op = 'UPDATE' and ${oldKeys[i]} > ${newKeys[i]} then
          ${[...add, ...remove].join(';\n')};
        else
          if tg_op <> 'INSERT' then ${remove.join(';\n')}; end if;
          if tg_op <> 'DELETE' then ${add.join(';\n')}; end if;
        end if;`;
    });
    await sql
      .raw(`create function summary_documents_apply() returns trigger language plpgsql as $$
      begin
        ${steps.join('\n')}
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(`create trigger summary_documents_write after insert or delete on documents
        for each row execute function summary_documents_apply()`)
      .execute(db);
    await sql
      .raw(`create trigger summary_documents_update after update of ${WATCHED.join(', ')} on documents
        for each row when (${changed}) execute function summary_documents_apply()`)
      .execute(db);
  } else {
    // One writer at a time on SQLite: no order to keep.
    await sql.raw(`create trigger summary_documents_insert after insert on documents begin ${addNew.flat().join(';\n')}; end`).execute(db);
    await sql
      .raw(`create trigger summary_documents_delete after delete on documents begin ${removeOld.flat().join(';\n')}; end`)
      .execute(db);
    await sql
      .raw(`create trigger summary_documents_update after update of ${WATCHED.join(', ')} on documents when ${changed}
        begin ${[...removeOld.flat(), ...addNew.flat()].join(';\n')}; end`)
      .execute(db);
  }
  await analyzeIfAnalysed(db, [...SUMMARY_TABLES]);
}

const SUMMARY_TABLES = [
  'summary_document_days',
  'summary_receivables',
  'summary_receivable_days',
  'summary_receivable_customers',
  'summary_document_counts',
] as const;

/** The tables from the documents already there (the same aggregates as the rebuild, as they were written here). */
async function fill(db: MigrationDb): Promise<void> {
  await sql
    .raw(`insert into summary_document_days (${DAY_KEY.join(', ')}, count, ht, tax, total, deposits)
      select organization_id, date, type, kind, currency, coalesce(exchange_rate, ''), ${depositCredit('documents')},
        count(*), sum(subtotal - discount), sum(tax), sum(total), sum(deposits)
      from documents where number is not null and type in ('invoice', 'credit')
      group by 1, 2, 3, 4, 5, 6, 7`)
    .execute(db);
  await sql
    .raw(`insert into summary_receivables (${RECEIVABLE_KEY.join(', ')}, count, amount_due, customer_name)
      select organization_id, coalesce(maturity, ''), coalesce(customer_id, 0), currency, coalesce(exchange_rate, ''),
        count(*), sum(amount_due), max(customer_name)
      from documents where type = 'invoice' and status in ${OPEN}
      group by 1, 2, 3, 4, 5`)
    .execute(db);
  await sql
    .raw(`insert into summary_receivable_days (${RECEIVABLE_DAY_KEY.join(', ')}, count, amount_due)
      select organization_id, maturity, currency, exchange_rate, sum(count), sum(amount_due)
      from summary_receivables group by 1, 2, 3, 4`)
    .execute(db);
  await sql
    .raw(`insert into summary_receivable_customers (${RECEIVABLE_CUSTOMER_KEY.join(', ')}, count, amount_due)
      select organization_id, customer_key, currency, exchange_rate, sum(count), sum(amount_due)
      from summary_receivables group by 1, 2, 3, 4`)
    .execute(db);
  await sql
    .raw(`insert into summary_document_counts (${COUNT_KEY.join(', ')}, count, sent)
      select organization_id, type, status, count(*), sum(case when sent_at is not null then 1 else 0 end)
      from documents group by 1, 2, 3`)
    .execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger summary_documents_update on documents`.execute(db);
    await sql`drop trigger summary_documents_write on documents`.execute(db);
    await sql`drop function summary_documents_apply()`.execute(db);
  } else {
    for (const name of ['summary_documents_insert', 'summary_documents_delete', 'summary_documents_update'])
      await sql`drop trigger ${sql.id(name)}`.execute(db);
  }
  await db.schema.dropTable('summary_document_counts').execute();
  await db.schema.dropTable('summary_receivable_customers').execute();
  await db.schema.dropTable('summary_receivable_days').execute();
  await db.schema.dropTable('summary_receivables').execute();
  await db.schema.dropTable('summary_document_days').execute();
}
