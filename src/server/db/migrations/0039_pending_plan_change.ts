import type { MigrationDb } from './helpers';

/**
 * A change to a smaller plan that the current usage exceeds is recorded, not refused, and takes effect when
 * usage fits (services/subscriptions.ts). `pending_since` says when it was asked for; `pending_deadline` is the day
 * after which it applies even if usage still exceeds (a change the payment provider already bills: nothing more is
 * paid for the larger plan after that day).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('pending_since', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('pending_deadline', 'text').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('pending_deadline').execute();
  await db.schema.alterTable('subscriptions').dropColumn('pending_since').execute();
}
