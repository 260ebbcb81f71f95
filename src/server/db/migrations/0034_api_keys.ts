import { sql, type Kysely } from 'kysely';
import { withId } from './helpers';

/**
 * API keys of an organisation. Only the SHA-256 of the secret is kept (as sessions and invitations do)
 * with a short visible prefix to tell keys apart; a revoked key keeps its row, so using it again answers « révoquée »
 * rather than « inconnue ». `created_by` is whose rights the key can never exceed (auth/api-keys.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db.schema.createTable('api_keys'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('read', 'write')`))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_organization_idx').on('api_keys').column('organization_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
