import type { Db } from '../connection';
import type { OnlinePaymentSettingsTable } from '../schema';
import { nowIso } from '../../clock';

/** A stored row: `secret_key` and `webhook_secret` are sealed ciphertexts ('' = none). */
export type OnlinePaymentSettingsRow = Omit<OnlinePaymentSettingsTable, 'organization_id' | 'updated_at'>;

export async function findOnlinePaymentSettings(db: Db, params: { organizationId: number }): Promise<OnlinePaymentSettingsRow | undefined> {
  return db
    .selectFrom('online_payment_settings')
    .select(['publishable_key', 'secret_key', 'webhook_secret'])
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirst();
}

export async function upsertOnlinePaymentSettings(
  db: Db,
  params: { organizationId: number; row: OnlinePaymentSettingsRow },
): Promise<void> {
  const values = { ...params.row, updated_at: nowIso() };
  await db
    .insertInto('online_payment_settings')
    .values({ organization_id: params.organizationId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
    .execute();
}

export async function deleteOnlinePaymentSettings(db: Db, params: { organizationId: number }): Promise<void> {
  await db.deleteFrom('online_payment_settings').where('organization_id', '=', params.organizationId).execute();
}

const checkoutColumns = [
  'id',
  'organization_id',
  'document_id',
  'session_id',
  'url',
  'amount',
  'currency',
  'status',
  'payment_id',
] as const;

/** The newest session still open for this invoice and amount, opened since `since` (Stripe's sessions last 24 h). */
export async function findOpenCheckout(db: Db, params: { organizationId: number; documentId: number; amount: number; since: string }) {
  return db
    .selectFrom('card_checkouts')
    .select(checkoutColumns)
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .where('status', '=', 'open')
    .where('amount', '=', params.amount)
    .where('created_at', '>=', params.since)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function insertCheckout(
  db: Db,
  params: { organizationId: number; documentId: number; sessionId: string; url: string; amount: number; currency: string },
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('card_checkouts')
    .values({
      organization_id: params.organizationId,
      document_id: params.documentId,
      session_id: params.sessionId,
      url: params.url,
      amount: params.amount,
      currency: params.currency,
      status: 'open',
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function findCheckoutBySession(db: Db, params: { organizationId: number; sessionId: string }) {
  return db
    .selectFrom('card_checkouts')
    .select(checkoutColumns)
    .where('organization_id', '=', params.organizationId)
    .where('session_id', '=', params.sessionId)
    .executeTakeFirst();
}

/**
 * Takes an open session for the one event that pays it: a single UPDATE whose condition is re-read after any
 * concurrent one commits (PostgreSQL), so two deliveries of the same event at once cannot both take it. True when taken.
 */
export async function claimCheckout(db: Db, params: { id: number; eventId: string; paymentIntent: string | null }): Promise<boolean> {
  const result = await db
    .updateTable('card_checkouts')
    .set({ status: 'paid', event_id: params.eventId, payment_intent: params.paymentIntent, updated_at: nowIso() })
    .where('id', '=', params.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setCheckoutPayment(db: Db, params: { id: number; paymentId: number }): Promise<void> {
  await db.updateTable('card_checkouts').set({ payment_id: params.paymentId, updated_at: nowIso() }).where('id', '=', params.id).execute();
}

/** Money received that the invoice could not take (paid meanwhile): kept with why, for the owner to refund it. */
export async function refuseCheckout(
  db: Db,
  params: { id: number; eventId: string; paymentIntent: string | null; problem: string },
): Promise<void> {
  await db
    .updateTable('card_checkouts')
    .set({
      status: 'refused',
      event_id: params.eventId,
      payment_intent: params.paymentIntent,
      problem: params.problem,
      updated_at: nowIso(),
    })
    .where('id', '=', params.id)
    .where('status', '=', 'open')
    .execute();
}
