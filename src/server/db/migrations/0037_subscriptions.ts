import { type Kysely, sql } from 'kysely';

/**
 * Each organisation's plan (one row; none = the free plan), the subscription's own invoices, and the
 * payment provider's event ids so a webhook delivered twice is applied once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('free', 'solo', 'team')`))
    .addColumn('period', 'text', (c) => c.check(sql`period in ('month', 'year')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'past_due', 'canceled')`))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('local', 'operator', 'stripe')`))
    .addColumn('current_period_end', 'text')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pending_plan', 'text')
    .addColumn('pending_period', 'text')
    .addColumn('stripe_customer_id', 'text')
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_stripe_subscription').on('subscriptions').column('stripe_subscription_id').execute();
  await db.schema
    .createTable('subscription_invoices')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('external_id', 'text', (c) => c.notNull().unique())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    // Amounts as integer counts of 10^-4 (money.ts toStoredUnits), as every other amount in the database.
    .addColumn('amount_net', 'integer', (c) => c.notNull())
    .addColumn('amount_vat', 'integer', (c) => c.notNull())
    .addColumn('amount_total', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('paid', 'open', 'failed')`))
    .addColumn('pdf_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscription_invoices_org').on('subscription_invoices').columns(['organization_id', 'date']).execute();
  await db.schema
    .createTable('payment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'integer')
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_events').execute();
  await db.schema.dropTable('subscription_invoices').execute();
  await db.schema.dropTable('subscriptions').execute();
}
