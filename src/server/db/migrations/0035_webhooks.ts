import { sql, type Kysely } from 'kysely';
import { withId } from './helpers';

/**
 * Webhooks. An endpoint is an organisation's URL, the events it subscribed to (a JSON array) and the
 * secret its deliveries are signed with (kept in clear: HMAC needs it). `webhook_deliveries` is the outbox: a row
 * is written in the transaction of the event itself (services/webhooks.ts emitEvent), so a rolled-back write sends
 * nothing and a committed one is never lost; the body is frozen there, and each attempt keeps its last answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db.schema.createTable('webhook_endpoints'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_organization_idx').on('webhook_endpoints').column('organization_id').execute();

  await withId(db.schema.createTable('webhook_deliveries'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('response_ms', 'integer')
    .addColumn('response_body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
