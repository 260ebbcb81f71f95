import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Payment reminders: one row per invoice and step (the step's offset in days from the due date). The
 * UNIQUE (document_id, step) is what keeps a step from ever being sent twice, across restarts and processes: a
 * sender first claims the row, and only a failed one may be claimed again.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('payment_reminders'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id'))
    .addColumn('step', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('recipients', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('payment_reminders_document_step', ['document_id', 'step'])
    .execute();
  await db.schema
    .createIndex('payment_reminders_organization')
    .on('payment_reminders')
    .columns(['organization_id', 'document_id'])
    .execute();
}
