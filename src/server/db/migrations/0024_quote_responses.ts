import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * An estimate accepted or refused by its customer on its public page: who (the name typed), when, from
 * where (IP and user agent), and for a refusal the reason given. One row per answer; the estimate's status moves in
 * the same transaction. A document reopened by hand may be answered again: rows are kept, never rewritten.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('quote_responses'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id'))
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('quote_responses_document').on('quote_responses').columns(['organization_id', 'document_id']).execute();
}
