import { sql, type Kysely } from 'kysely';

/**
 * The VAT rate of shipping (CGI art. 267): `shipping_tax` keeps the rate applied at the last save (JSON
 * `{ title, rate }`, NULL: no VAT on shipping), so EN 16931 can state shipping as a charge with its VAT category;
 * `shipping_tax_auto` says whether it follows the main rate of the lines. Stored totals are not recomputed: a document
 * already issued keeps its untaxed shipping (none, not following); a draft follows the main rate from its next save,
 * as the law asks of what is still being written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('shipping_tax', 'text').execute();
  await db.schema
    .alterTable('documents')
    .addColumn('shipping_tax_auto', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE documents SET shipping_tax_auto = 1 WHERE status = 'draft'`.execute(db);
}
