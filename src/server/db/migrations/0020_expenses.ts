import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Expenses and each organisation's expense categories (a French default list mapped to plan comptable
 * accounts, editable). Amounts are integer units of 10^-4 like every stored amount; the VAT per rate is JSON, with
 * its total and deductible part stored beside it for the lists and reports. A supplier e-invoice imported is known by
 * the SHA-256 of its file: the same file twice is refused by the unique index, not only by a prior look-up.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('expense_categories'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('expense_categories_org_code_unique', ['organization_id', 'code'])
    .execute();

  await withId(db.schema.createTable('expenses'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('supplier', 'text', (c) => c.notNull())
    .addColumn('supplier_siren', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('supplier_vat_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('vat', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('vat_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deductible_vat', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('EUR'))
    .addColumn('payment_method', 'text', (c) => c.notNull().defaultTo('transfer'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('unpaid'))
    .addColumn('paid_at', 'text')
    .addColumn('due_date', 'text')
    .addColumn('invoice_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('receipt_path', 'text')
    .addColumn('receipt_name', 'text')
    .addColumn('receipt_type', 'text')
    .addColumn('receipt_size', 'integer')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('manual'))
    .addColumn('source_sha256', 'text')
    .addColumn('recurring_id', 'integer')
    .addColumn('occurrence_date', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('expenses_org_date').on('expenses').columns(['organization_id', 'date']).execute();
  await sql`CREATE UNIQUE INDEX expenses_org_source_unique ON expenses (organization_id, source_sha256) WHERE source_sha256 IS NOT NULL`.execute(
    db,
  );
  // One expense per occurrence of a recurring expense: the scheduler's idempotency rests on this index.
  await sql`CREATE UNIQUE INDEX expenses_occurrence_unique ON expenses (recurring_id, occurrence_date) WHERE recurring_id IS NOT NULL`.execute(
    db,
  );
}
