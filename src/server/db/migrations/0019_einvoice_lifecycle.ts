import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * The lifecycle statuses of the e-invoicing reform recorded on issued invoices and credit notes (an
 * append-only history: a withdrawn Encaissée is a new entry), and the one transmission of each document to the
 * approved platform. `platform_update_id` names the platform's update an entry came from, so that polling the same
 * update twice records it once.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('einvoice_statuses'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('code', 'integer')
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer')
    .addColumn('platform_update_id', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('einvoice_statuses_update_unique', ['organization_id', 'platform_update_id'])
    .execute();
  await db.schema.createIndex('einvoice_statuses_document').on('einvoice_statuses').columns(['organization_id', 'document_id']).execute();

  await withId(db.schema.createTable('einvoice_submissions'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('xml_attached', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    // Sent once: a second "Déposer" answers the first transmission.
    .addUniqueConstraint('einvoice_submissions_document_unique', ['organization_id', 'document_id'])
    .execute();
}
