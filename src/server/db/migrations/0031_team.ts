import { sql, type Kysely } from 'kysely';
import { withId } from './helpers';

/**
 * Teams. The `accountant` role (reads and exports, writes nothing) joins owner, admin and member; SQLite
 * cannot alter a CHECK constraint, so `memberships` is rebuilt with its rows (every existing row keeps its role:
 * they were all created as 'owner' at registration). Invitations keep only the SHA-256 of the mailed token, as
 * sessions and e-mail tokens do, and are spent once (`accepted_at`) or withdrawn (`revoked_at`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db.schema.createTable('memberships_new'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('owner').check(sql`role in ('owner', 'admin', 'member', 'accountant')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into memberships_new (id, user_id, organization_id, role, created_at)
    select id, user_id, organization_id, role, created_at from memberships`.execute(db);
  await db.schema.dropTable('memberships').execute();
  await db.schema.alterTable('memberships_new').renameTo('memberships').execute();
  await db.schema.createIndex('memberships_user_org_unique').unique().on('memberships').columns(['user_id', 'organization_id']).execute();
  await db.schema.createIndex('memberships_organization_idx').on('memberships').column('organization_id').execute();

  await withId(db.schema.createTable('invitations'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member', 'accountant')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invitations_organization_idx').on('invitations').column('organization_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invitations').execute();
  await sql`delete from memberships where role = 'accountant'`.execute(db);
}
