import type { MigrationDb } from './helpers';
import { sql } from 'kysely';
import { withId } from './helpers';

// MigrationDb: a migration describes the database as it was at its time.
export async function up(db: MigrationDb): Promise<void> {
  // Amounts are INTEGER ten-thousandths of the currency unit (scale 4): exact, sortable and summable in SQL;
  // the API turns them back into JSON numbers in major units.
  await withId(db.schema.createTable('documents'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('invoice', 'estimate', 'proforma', 'order', 'delivery', 'credit')`))
    // 'deposit': a facture d'acompte (UNCL 1001 code 386), numbered in the invoice series.
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('standard'))
    .addColumn('status', 'text', (c) => c.notNull())
    // Null while a draft: the number is taken when the document is issued (CGI art. 242 nonies A).
    .addColumn('number', 'text')
    .addColumn('counter', 'integer')
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('maturity', 'text')
    .addColumn('sale_date', 'text')
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('header', 'text', (c) => c.notNull())
    .addColumn('footer', 'text', (c) => c.notNull())
    .addColumn('terms', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('discount_type', 'text')
    .addColumn('discount_value', 'text')
    .addColumn('shipping_fee', 'text', (c) => c.notNull())
    .addColumn('shipping_details', 'text', (c) => c.notNull())
    .addColumn('vat_exemption', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('additional_info', 'text', (c) => c.notNull())
    .addColumn('deposit_request', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.references('customers.id'))
    .addColumn('customer_name', 'text', (c) => c.notNull())
    .addColumn('order_id', 'integer')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('price_mode', 'text', (c) => c.notNull())
    // The document it was converted from, and for a credit note the invoice it corrects.
    .addColumn('origin_id', 'integer', (c) => c.references('documents.id'))
    .addColumn('corrects_id', 'integer', (c) => c.references('documents.id'))
    // On a deposit invoice: the final invoice that deducts it (one only); released if that draft is deleted.
    .addColumn('deducted_by_id', 'integer', (c) => c.references('documents.id').onDelete('set null'))
    // Snapshots taken at issue: editing the customer or the organisation later never rewrites an issued document.
    .addColumn('seller_snapshot', 'text')
    .addColumn('customer_snapshot', 'text')
    .addColumn('legal_mentions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tax_groups', 'text', (c) => c.notNull())
    .addColumn('subtotal', 'integer', (c) => c.notNull())
    .addColumn('discount', 'integer', (c) => c.notNull())
    .addColumn('tax', 'integer', (c) => c.notNull())
    .addColumn('shipping', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('deposits', 'integer', (c) => c.notNull())
    .addColumn('paid', 'integer', (c) => c.notNull())
    .addColumn('amount_due', 'integer', (c) => c.notNull())
    .addColumn('issued_at', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('viewed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('documents_org_type_number_unique', ['organization_id', 'type', 'number'])
    .execute();
  await db.schema.createIndex('documents_org_type_date_idx').on('documents').columns(['organization_id', 'type', 'date']).execute();
  await db.schema.createIndex('documents_org_customer_idx').on('documents').columns(['organization_id', 'customer_id']).execute();
  await db.schema.createIndex('documents_origin_idx').on('documents').column('origin_id').execute();
  await db.schema.createIndex('documents_corrects_idx').on('documents').column('corrects_id').execute();

  await withId(db.schema.createTable('document_items'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // Decimal inputs as typed (text, exact); the line's computed amounts are derived on read by the shared core.
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'text', (c) => c.notNull())
    .addColumn('discount_type', 'text', (c) => c.notNull())
    .addColumn('discount_value', 'text', (c) => c.notNull())
    .addColumn('taxes', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('document_items_document_idx').on('document_items').columns(['document_id', 'position']).execute();

  await withId(db.schema.createTable('payments'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_document_idx').on('payments').column('document_id').execute();
}
