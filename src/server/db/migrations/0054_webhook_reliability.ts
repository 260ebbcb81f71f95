import type { MigrationDb } from './helpers';

/**
 * Webhooks an integrator can rely on.
 *
 * `webhook_endpoints.failing_since` is the time of the first failed attempt since the endpoint last answered a 2xx:
 * an endpoint is turned off only when every attempt has failed for a long window (one burst of failures during a
 * short outage no longer does). `last_sequence` is the endpoint's own counter: each event written for it takes the
 * next number (its `sequence`), so a receiver can put deliveries back in order.
 *
 * `webhook_deliveries.schedule_from` is when the delivery's retry schedule started (its creation, or the moment a
 * disabled endpoint was turned back on, or a « Renvoyer »); `sequence` the endpoint's number for the event.
 * `created_at` is indexed for the purge of the log past its retention.
 *
 * `api_keys.webhooks`: the key may also manage the organisation's webhooks (the `webhooks` scope).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('failing_since', 'text').execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('last_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('schedule_from', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('sequence', 'integer').execute();
  await db.schema.createIndex('webhook_deliveries_created_idx').on('webhook_deliveries').column('created_at').execute();
  await db.schema
    .alterTable('api_keys')
    .addColumn('webhooks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('webhooks').execute();
  await db.schema.dropIndex('webhook_deliveries_created_idx').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('sequence').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('schedule_from').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('last_sequence').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('failing_since').execute();
}
