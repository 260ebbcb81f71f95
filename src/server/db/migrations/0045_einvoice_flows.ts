import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Outgoing flows to the Plateforme Agréée over its XP Z12-013 API: one row per issued invoice or credit note, written in
 * the issuing transaction (nothing issued is lost before it is sent) and worked through by the outbox
 * (services/einvoice-outbox.ts). The row is the document's one submission: `(organization_id, document_id)` is
 * unique, so a document is never queued twice, and `tracking_id` (the document's uuid) is what the platform is asked
 * about before any resubmission whose previous outcome is unknown (`uncertain`).
 *
 * `lease_until`/`lease_holder`: the process working on the row; a lapsed lease (a crash) lets another take it.
 * `reasons` keeps the platform's reason codes as it sent them (JSON); they are put into French when read.
 * `profile` is the XP Z12-013 flow profile declared with each flow (settings).
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('einvoice_flows'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id'))
    .addColumn('tracking_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'submitted', 'acknowledged', 'error', 'to_resend')`))
    .addColumn('syntax', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('profile', 'text', (c) => c.notNull().defaultTo(''))
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
    .addUniqueConstraint('einvoice_flows_document_unique', ['organization_id', 'document_id'])
    .execute();
  // The outbox's one question: what is due now.
  await db.schema.createIndex('einvoice_flows_due').on('einvoice_flows').columns(['state', 'next_attempt_at']).execute();

  await db.schema
    .alterTable('einvoicing_settings')
    .addColumn('profile', 'text', (c) => c.notNull().defaultTo('CIUS'))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('einvoicing_settings').dropColumn('profile').execute();
  await db.schema.dropTable('einvoice_flows').execute();
}
