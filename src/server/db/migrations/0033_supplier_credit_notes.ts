import { sql } from 'kysely';
import type { MigrationDb } from './helpers';

/**
 * An expense can be a supplier's credit note (« avoir fournisseur »), and an imported expense's category
 * stays « à vérifier » until the user saves it.
 *
 * A credit note's amounts are stored negative (amount, VAT per rate, VAT total, deductible VAT), `kind` telling what
 * it is: every sum already written — the list's totals, the figures the reports read, the CSV — then counts it
 * against the expenses with no second rule to forget. `corrects_id` is the supplier invoice it corrects (BT-25), found
 * among the organisation's expenses; `preceding_invoice_number` keeps the number as written even when none matches.
 *
 * Expenses imported before this migration and never edited since were never confirmed: they get the flag too.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('expenses')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('expense'))
    .execute();
  await db.schema
    .alterTable('expenses')
    .addColumn('preceding_invoice_number', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('expenses').addColumn('corrects_id', 'integer').execute();
  await db.schema
    .alterTable('expenses')
    .addColumn('category_to_check', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update expenses set category_to_check = 1 where source = 'einvoice' and created_at = updated_at`.execute(db);
}
