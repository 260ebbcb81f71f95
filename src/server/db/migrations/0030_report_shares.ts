import { sql, type Kysely } from 'kysely';
import { jsonNumber } from '../dialect';

/**
 * Speed: what the reports read per payment is kept on the document when its content is written, instead of
 * being summed from its lines for every payment of the period (URSSAF split, VAT on receipts):
 * - `goods_net` / `lines_net`: the HT of its goods lines / of all its lines (INTEGER units, scale 4, as the totals);
 * - `has_services`: 1 when a line is a service (VAT on receipts applies to those).
 * Filled for every existing document from its lines. And two covering indexes, so the turnover and receivables
 * aggregates read an index instead of the wide rows: they replace the narrower ones that are their prefixes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['goods_net', 'lines_net', 'has_services'])
    await db.schema
      .alterTable('documents')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  const net = sql`coalesce(sum(cast(round(${jsonNumber(db, sql`i.amounts`, 'gross_total')} * 10000) as bigint)), 0)`;
  await sql`update documents set
      goods_net = (select ${net} from document_items i where i.document_id = documents.id and i.kind = 'goods'),
      lines_net = (select ${net} from document_items i where i.document_id = documents.id),
      has_services = case when exists (select 1 from document_items i where i.document_id = documents.id and i.kind = 'service') then 1 else 0 end`.execute(
    db,
  );

  await db.schema.dropIndex('documents_org_type_date_idx').execute();
  await db.schema
    .createIndex('documents_org_type_date_idx')
    .on('documents')
    .columns([
      'organization_id',
      'type',
      'date',
      'kind',
      'number',
      'currency',
      'exchange_rate',
      'customer_id',
      'total',
      'tax',
      'deposits',
      'corrects_id',
      // VAT on receipts reads the tax groups of the documents without a service only: filtered in the index.
      'has_services',
    ])
    .execute();
  await db.schema.dropIndex('documents_org_status_maturity_idx').execute();
  await db.schema
    .createIndex('documents_org_status_maturity_idx')
    .on('documents')
    .columns(['organization_id', 'status', 'maturity', 'type', 'customer_id', 'currency', 'exchange_rate', 'amount_due', 'customer_name'])
    .execute();
}
