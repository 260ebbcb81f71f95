import { analyzeIfAnalysed, type MigrationDb } from './helpers';

/**
 * Lists at 100 000 documents: every list page read and sorted the organisation's whole table (`USE TEMP
 * B-TREE FOR ORDER BY`, `npm run bench -- scale`). Each index below ends with the list's order (date, id), so that
 * a page is the first rows of an index range:
 * - (organization_id, date, id): the default list, periods and deep pages (walked without the rows);
 * - (organization_id, total, date, id): the amount filters and the search by amount;
 * - (organization_id, type, status, maturity): open and overdue invoices, counted on the index alone;
 * - (organization_id, customer_id, date, id): a customer's documents, replacing (organization_id, customer_id).
 * The dashboard's turnover sums `subtotal - discount`: both join the covering index of the turnover aggregates, so
 * the year's sum reads that index instead of every row of the year.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.createIndex('documents_org_date_idx').on('documents').columns(['organization_id', 'date', 'id']).execute();
  await db.schema.createIndex('documents_org_total_idx').on('documents').columns(['organization_id', 'total', 'date', 'id']).execute();
  await db.schema
    .createIndex('documents_org_type_status_maturity_idx')
    .on('documents')
    .columns(['organization_id', 'type', 'status', 'maturity'])
    .execute();
  await db.schema.dropIndex('documents_org_customer_idx').execute();
  await db.schema
    .createIndex('documents_org_customer_date_idx')
    .on('documents')
    .columns(['organization_id', 'customer_id', 'date', 'id'])
    .execute();
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
      'has_services',
      'subtotal',
      'discount',
    ])
    .execute();
  await analyzeIfAnalysed(db, ['documents']);
}

export async function down(db: MigrationDb): Promise<void> {
  for (const name of [
    'documents_org_date_idx',
    'documents_org_total_idx',
    'documents_org_type_status_maturity_idx',
    'documents_org_customer_date_idx',
  ])
    await db.schema.dropIndex(name).execute();
  await db.schema.createIndex('documents_org_customer_idx').on('documents').columns(['organization_id', 'customer_id']).execute();
}
