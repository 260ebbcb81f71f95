import type { MigrationDb } from './helpers';

/**
 * "nothing doubled": the first answer to a POST sent with an `Idempotency-Key` header, kept 24 h, so a
 * repeat (double click, retry after a lost answer) gets that answer again instead of creating a second record.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    // The scope: a key is one user's, in one organisation, for one procedure on one door ('rest:documents.create').
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('procedure', 'text', (c) => c.notNull())
    // SHA-256 of the request's input: the same key with another body is refused, never answered with another's answer.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    // Null while the first request runs (the key is reserved); then the HTTP status and JSON body it answered.
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['organization_id', 'user_id', 'key', 'procedure'])
    .execute();
  // The sweep of keys older than 24 h.
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
