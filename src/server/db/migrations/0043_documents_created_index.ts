import type { MigrationDb } from './helpers';

/**
 * Issue 22, at scale: a plan's monthly document count (the usage the shell reads on every page, and the check before
 * every creation) read every document of the organisation to keep this month's (120 ms at 100 000 documents, growing
 * with them). Indexed on (organization_id, created_at), it counts the month's entries of the index alone.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.createIndex('documents_org_created_idx').on('documents').columns(['organization_id', 'created_at']).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('documents_org_created_idx').execute();
}
