import { withId, type MigrationDb } from './helpers';

/**
 * The sender addresses an organisation typed in Paramètres → Envoi d'emails, each proven by a link mailed to it
 * before any mail goes out from it. An organisation has at most two rows: the confirmed address in use and the one
 * waiting for its confirmation (while it waits, mail keeps the confirmed one). Only the SHA-256 of the mailed token is
 * kept, so a leaked table confirms nothing.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('sender_addresses'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sender_addresses_token_idx').on('sender_addresses').column('token_hash').unique().execute();
  await db.schema.createIndex('sender_addresses_organization_idx').on('sender_addresses').column('organization_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('sender_addresses').execute();
}
