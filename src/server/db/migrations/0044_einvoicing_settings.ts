import type { MigrationDb } from './helpers';

/**
 * The e-invoicing connection of each organisation (Paramètres → Facturation électronique). One row per organisation
 * once it saves; without a row, the folder connector stays in use, as before. `client_secret` and `token` hold
 * AES-256-GCM ciphertexts (server/crypto/secret-box.ts) whose key is kept outside the database; '' = none.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('einvoicing_settings')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('flow_url', 'text', (c) => c.notNull())
    .addColumn('directory_url', 'text', (c) => c.notNull())
    .addColumn('token_url', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('pa_matricule', 'text', (c) => c.notNull())
    .addColumn('syntax', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('einvoicing_settings').execute();
}
