import { sql } from 'kysely';
import { analyzeIfAnalysed, type MigrationDb } from './helpers';

/**
 * Speed at 100 000 documents: the VAT report parsed every issued document's tax groups (JSON) for the period,
 * and once more per payment on receipts. `document_taxes` keeps them as rows, one per tax group of an issued invoice
 * or credit note, written in the transaction that issues it (document-lifecycle.ts) and never changed after (an issued
 * legal record is frozen): base and VAT in stored units (INTEGER, scale 4), the rate as the JSON number's text, and
 * what the VAT aggregate filters and groups by (date, type, service line, currency, rate of issue), so that it reads
 * one index range and no document. Existing documents are filled from their tax groups, parsed here rather than
 * with json_each so that the migration stays portable (PostgreSQL port).
 * `turnover_days` keeps the turnover per day, currency and rate of issue (count, HT, VAT, TTC in stored units), added
 * to when an invoice or credit note is issued: the turnover of three years by quarter read some 90 000 documents, it
 * now reads about a thousand days. Filled here from the documents already issued.
 * Also a covering index of payments by date, so that the per-payment reports (URSSAF, VAT on receipts, livre des
 * recettes) read the amount and the document without visiting each payment row.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('document_taxes')
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('invoice', 'credit')`))
    .addColumn('has_services', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text')
    .addColumn('rate', 'text', (c) => c.notNull())
    .addColumn('base', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_taxes_pk', ['document_id', 'position'])
    .execute();
  // The period's aggregate reads this index alone (every column it needs is in it).
  await db.schema
    .createIndex('document_taxes_org_date_idx')
    .on('document_taxes')
    .columns(['organization_id', 'date', 'type', 'has_services', 'currency', 'exchange_rate', 'rate', 'base', 'amount'])
    .execute();

  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('documents')
      .select(['id', 'organization_id', 'date', 'type', 'has_services', 'currency', 'exchange_rate', 'tax_groups'])
      .where('number', 'is not', null)
      .where('type', 'in', ['invoice', 'credit'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1]?.id);
    const values = rows.flatMap((d) => documentTaxRows(d));
    // A few hundred rows per statement: under SQLite's limit of bound parameters.
    for (let i = 0; i < values.length; i += 500)
      await db
        .insertInto('document_taxes')
        .values(values.slice(i, i + 500))
        .execute();
  }

  await db.schema
    .createTable('turnover_days')
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // '' for a document without a rate of issue: a key column, and NULLs never conflict in a unique key.
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('net', 'integer', (c) => c.notNull())
    .addColumn('tax', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('turnover_days_pk', ['organization_id', 'date', 'currency', 'exchange_rate'])
    .execute();
  // Turnover's rule as in queries/reports.ts (turnoverDocuments): issued standard invoices and credit notes, less the
  // credit notes of deposits; credit notes count negative.
  const sign = (column: string) => sql`sum(case when type = 'credit' then -(${sql.raw(column)}) else ${sql.raw(column)} end)`;
  await sql`insert into turnover_days (organization_id, date, currency, exchange_rate, count, net, tax, total)
    select organization_id, date, currency, coalesce(exchange_rate, ''), count(*), ${sign('total - tax')}, ${sign('tax')}, ${sign('total')}
    from documents
    where type in ('invoice', 'credit') and number is not null and kind = 'standard'
      and not (type = 'credit' and exists (select 1 from documents d where d.id = documents.corrects_id and d.kind = 'deposit'))
    group by organization_id, date, currency, coalesce(exchange_rate, '')`.execute(db);

  // The HT of each line as a column, read with its designation from one index by the by-item report (it extracted
  // it from the line's JSON amounts, for every line of the period). Filled in JS from that JSON: portable.
  await db.schema
    .alterTable('document_items')
    .addColumn('net', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (let after = 0; ; ) {
    const lines = await db
      .selectFrom('document_items')
      .select(['id', 'amounts'])
      .where('id', '>', after)
      .where('amounts', 'is not', null)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (lines.length === 0) break;
    after = Number(lines[lines.length - 1]?.id);
    for (const line of lines) {
      const net = toStoredUnits((JSON.parse(String(line.amounts)) as { gross_total?: number }).gross_total ?? 0);
      if (net !== 0) await db.updateTable('document_items').set({ net }).where('id', '=', line.id).execute();
    }
  }
  await db.schema.createIndex('document_items_document_net_idx').on('document_items').columns(['document_id', 'item', 'net']).execute();

  await db.schema
    .createIndex('payments_org_date_document_idx')
    .on('payments')
    .columns(['organization_id', 'date', 'document_id', 'amount'])
    .execute();
  await analyzeIfAnalysed(db, ['document_taxes', 'turnover_days', 'payments', 'document_items']);
}

/** The rows of one document as they were stored before this migration (tax groups: [{ rate, taxable_amount, amount }]). */
function documentTaxRows(d: Record<string, unknown>) {
  const groups = JSON.parse(String(d.tax_groups)) as { rate: number; taxable_amount: number; amount: number }[];
  return groups.map((t, position) => ({
    document_id: d.id,
    position,
    organization_id: d.organization_id,
    date: d.date,
    type: d.type,
    has_services: d.has_services,
    currency: d.currency,
    exchange_rate: d.exchange_rate,
    rate: String(t.rate),
    base: toStoredUnits(t.taxable_amount),
    amount: toStoredUnits(t.amount),
  }));
}

/**
 * A stored JSON amount (a number in major units) as the integer the database keeps, units of 10^-4: the number's
 * shortest decimal text rounded half away from zero at the fourth decimal, as the money engine read it when this
 * migration was written. Kept here so that the migration gives the same rows whatever the engine becomes.
 */
function toStoredUnits(value: number): number {
  const text = String(value);
  if (/e/i.test(text)) return 0; // below 10^-6 in magnitude: 0 at four decimals (amounts are never ≥ 10^21)
  const negative = text.startsWith('-');
  const [int = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
  const kept = Number.parseInt(int + frac.slice(0, 4).padEnd(4, '0'), 10);
  const units = frac.charAt(4) >= '5' ? kept + 1 : kept;
  return negative ? -units : units;
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('payments_org_date_document_idx').execute();
  await db.schema.dropIndex('document_items_document_net_idx').execute();
  await db.schema.alterTable('document_items').dropColumn('net').execute();
  await db.schema.dropTable('turnover_days').execute();
  await db.schema.dropTable('document_taxes').execute();
}
