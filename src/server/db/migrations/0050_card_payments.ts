import { sql } from 'kysely';
import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Card payments on the public page of an invoice, through the organisation's own Stripe account.
 *
 * `online_payment_settings`: one row per organisation once it saves its keys. `secret_key` and `webhook_secret` hold
 * AES-256-GCM ciphertexts (server/crypto/secret-box.ts) whose key is kept outside the database; '' = none.
 *
 * `card_checkouts`: each Stripe Checkout Session opened for an invoice, with what it asks (`amount`, in ten-thousandths
 * like every stored amount, and its currency). Stripe's session id is unique, and so is the payment it led to: a
 * session, however many times its events arrive, records one payment. `status`: 'open' until paid ('paid'), or
 * 'refused' when the money came in but the invoice could not take it (already paid meanwhile), `problem` saying why.
 *
 * `payments.fee`: what the payment processor kept on a payment (Stripe's balance transaction fee), in ten-thousandths
 * of `fee_currency`, so that the bank journal can book it (627) apart from the amount received.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('online_payment_settings')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('publishable_key', 'text', (c) => c.notNull())
    .addColumn('secret_key', 'text', (c) => c.notNull())
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('card_checkouts'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('document_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'paid', 'refused')`))
    .addColumn('payment_id', 'integer', (c) => c.references('payments.id'))
    .addColumn('payment_intent', 'text')
    .addColumn('event_id', 'text')
    .addColumn('problem', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('card_checkouts_session_unique', ['session_id'])
    .addUniqueConstraint('card_checkouts_payment_unique', ['payment_id'])
    .execute();
  // The open session of an invoice, reused rather than opening another for the same amount.
  await db.schema
    .createIndex('card_checkouts_document')
    .on('card_checkouts')
    .columns(['organization_id', 'document_id', 'status'])
    .execute();

  await db.schema
    .alterTable('payments')
    .addColumn('fee', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('payments').addColumn('fee_currency', 'text').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('fee_currency').execute();
  await db.schema.alterTable('payments').dropColumn('fee').execute();
  await db.schema.dropTable('card_checkouts').execute();
  await db.schema.dropTable('online_payment_settings').execute();
}
