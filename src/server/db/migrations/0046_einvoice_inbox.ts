import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Incoming flows from the Plateforme Agréée (services/einvoice-inbox.ts): supplier invoices and the lifecycle messages
 * of the organisation's own invoices, searched by their last update on the platform.
 *
 * `einvoice_inbox`, one row per organisation: `updated_after` is the cursor, the platform's `updatedAt` up to which
 * every flow was handled; `lease_holder`/`lease_until` make one process at a time search for one organisation (a crash
 * lets the lease lapse). `einvoice_received_flows` is every flow handled, once: `(organization_id, flow_id)` is unique,
 * and the row is written in the transaction of its effect (the expense, the status) and of the cursor's move, so a flow
 * is never handled twice nor skipped, whatever stops the process in between. `state` says what became of it; `reason`
 * why, in French, when nothing could be made of it.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('einvoice_inbox')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('updated_after', 'text')
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_sync_at', 'text')
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('einvoice_received_flows'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('flow_id', 'text', (c) => c.notNull())
    .addColumn('flow_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('imported', 'duplicate', 'unreadable', 'applied', 'unknown_invoice', 'not_applied')`),
    )
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expense_id', 'integer', (c) => c.references('expenses.id').onDelete('set null'))
    .addColumn('document_id', 'integer', (c) => c.references('documents.id'))
    .addColumn('status_code', 'integer')
    .addColumn('flow_updated_at', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('einvoice_received_flows_unique', ['organization_id', 'flow_id'])
    .execute();
  // The list shown to the user: the latest first.
  await db.schema
    .createIndex('einvoice_received_flows_recent')
    .on('einvoice_received_flows')
    .columns(['organization_id', 'received_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('einvoice_received_flows').execute();
  await db.schema.dropTable('einvoice_inbox').execute();
}
