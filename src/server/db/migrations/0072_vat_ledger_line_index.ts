import { analyzeIfAnalysed, type MigrationDb } from './helpers';

/**
 * The operations behind one line of the VAT return, a page at a time: the ledger's rows of one organisation and line,
 * in the order a page walks them (date, then the document or expense, then the rate). A page then reads its own rows
 * through the index and stops, whatever the size of the organisation or of the period.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('vat_ledger_line')
    .on('vat_ledger')
    .columns(['organization_id', 'line', 'date', 'source', 'item_id', 'rate'])
    .execute();
  await analyzeIfAnalysed(db, ['vat_ledger_line']);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('vat_ledger_line').execute();
}
