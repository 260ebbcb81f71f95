import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Recurring expenses and the scheduler's jobs: one row per job holds its lease (who runs
 * it, until when), so that two processes on the same database never run it at once, and its last run for the screen.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('recurring_expenses'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('supplier', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('vat', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('EUR'))
    .addColumn('payment_method', 'text', (c) => c.notNull().defaultTo('transfer'))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text')
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    // The last occurrence made into an expense: a deleted expense is not made again.
    .addColumn('generated_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scheduler_jobs')
    .addColumn('name', 'text', (c) => c.primaryKey().notNull())
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_started_at', 'text')
    .addColumn('last_finished_at', 'text')
    .addColumn('last_status', 'text')
    .addColumn('last_message', 'text')
    .execute();
}
