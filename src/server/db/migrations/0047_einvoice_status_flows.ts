import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Lifecycle messages sent to the Plateforme Agréée (CDAR D22B): a status the user gives a supplier invoice received
 * from the platform (Approuvée, Refusée, En litige), or « Encaissée » once the organisation's own services invoice is
 * paid. Each row is one message, written with what caused it and worked through by the same outbox as invoices
 * (services/einvoice-outbox.ts), with the same columns for its attempts, lease, flow and acknowledgement
 * (migration 0045). `xml` is the message as written then, so a retry sends the very same bytes.
 *
 * Never twice: `tracking_id` is unique (the platform is asked about it before a resubmission whose outcome is
 * unknown); a supplier invoice gets each status once (`expense_id`, `status_code`), and an invoice's « Encaissée »
 * follows one entry of its history (`status_entry_id`).
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('einvoice_status_flows'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('tracking_id', 'text', (c) => c.notNull().unique())
    .addColumn('expense_id', 'integer', (c) => c.references('expenses.id').onDelete('set null'))
    .addColumn('document_id', 'integer', (c) => c.references('documents.id'))
    .addColumn('status_entry_id', 'integer', (c) => c.references('einvoice_statuses.id'))
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('reason_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'submitted', 'acknowledged', 'error', 'to_resend')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('polls', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('lease_holder', 'text')
    .addColumn('uncertain', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('flow_id', 'text')
    .addColumn('ack_status', 'text')
    .addColumn('reasons', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_request_id', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('submitted_at', 'text')
    .addColumn('acknowledged_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('einvoice_status_flows_expense_unique', ['organization_id', 'expense_id', 'status_code'])
    .addUniqueConstraint('einvoice_status_flows_entry_unique', ['organization_id', 'status_entry_id'])
    .execute();
  await db.schema.createIndex('einvoice_status_flows_due').on('einvoice_status_flows').columns(['state', 'next_attempt_at']).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('einvoice_status_flows').execute();
}
