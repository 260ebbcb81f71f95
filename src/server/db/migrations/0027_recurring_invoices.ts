import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Recurring invoices: the model (a document form kept as JSON, not a numbered document) and its
 * schedule; and one run per occurrence made. UNIQUE (recurring_id, occurrence_date) is what makes each occurrence
 * once: the run is inserted in the same transaction as its invoice, so a second process, a restart or a catch-up
 * after days down finds the key taken and makes nothing.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('recurring_invoices'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('interval', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('month_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text')
    .addColumn('occurrences', 'integer')
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    // The last occurrence made: the schedule goes on after it (a deleted invoice is not made again).
    .addColumn('generated_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recurring_invoices_organization').on('recurring_invoices').column('organization_id').execute();

  await withId(db.schema.createTable('recurring_invoice_runs'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('recurring_id', 'integer', (c) => c.notNull().references('recurring_invoices.id').onDelete('cascade'))
    .addColumn('occurrence_date', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recurring_invoice_runs_occurrence')
    .on('recurring_invoice_runs')
    .columns(['recurring_id', 'occurrence_date'])
    .unique()
    .execute();
}
