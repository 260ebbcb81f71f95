import type { MigrationDb } from './helpers';

/**
 * An expense whose VAT the buyer self-assesses (autoliquidation): '' none, 'goods' an intra-community acquisition of
 * goods (CGI art. 256 bis), 'services' services bought from a business not established in France (CGI art. 283-2).
 * Its VAT rows then hold the VAT the buyer owes and deducts, not VAT the supplier charged: the VAT return declares it
 * (lines B2 or A3, the rate's line, 17, 20) and the expense's own VAT total stays nil.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('expenses')
    .addColumn('reverse_charge', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('expenses').dropColumn('reverse_charge').execute();
}
