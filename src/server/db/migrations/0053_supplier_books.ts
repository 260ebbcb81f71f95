import type { MigrationDb } from './helpers';

/**
 * What a supplier's invoice says that the books need, and the reads of the FEC.
 *
 * `expenses.supplier_country` (ISO 3166 alpha-2, '' unknown): whose VAT the supplier charged — VAT of another country
 * is not deductible in France (it is refunded, if at all, by that country). `prepaid_amount` (stored units, like
 * `amount`): what the invoice says was already paid (EN 16931 BT-113), so that only the rest is awaited from the bank.
 * `payment_terms`: the invoice's payment terms as written (BT-20).
 *
 * The index on (organization_id, invoice_number) answers « is this supplier invoice already here? » at each import;
 * the one on bank_matches.payment_id tells the FEC which payments a bank line recorded.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('expenses')
    .addColumn('supplier_country', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('expenses')
    .addColumn('prepaid_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('expenses')
    .addColumn('payment_terms', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('expenses_invoice_number').on('expenses').columns(['organization_id', 'invoice_number']).execute();
  await db.schema.createIndex('bank_matches_payment').on('bank_matches').column('payment_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('bank_matches_payment').execute();
  await db.schema.dropIndex('expenses_invoice_number').execute();
  await db.schema.alterTable('expenses').dropColumn('payment_terms').execute();
  await db.schema.alterTable('expenses').dropColumn('prepaid_amount').execute();
  await db.schema.alterTable('expenses').dropColumn('supplier_country').execute();
}
