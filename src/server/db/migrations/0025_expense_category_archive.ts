import type { MigrationDb } from './helpers';

/**
 * An expense category can be archived (« editable »): one still used by expenses is never deleted, as
 * those expenses keep their account; archived, it leaves the pickers and the list of new choices.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('expense_categories')
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
