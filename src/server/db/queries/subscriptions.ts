import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../connection';
import { precompiled } from '../precompiled';
import type { SubscriptionInvoicesTable, SubscriptionsTable } from '../schema';

export type SubscriptionRow = Selectable<SubscriptionsTable>;

const SUBSCRIPTION_COLUMNS = [
  'organization_id',
  'plan',
  'period',
  'status',
  'source',
  'current_period_end',
  'cancel_at_period_end',
  'pending_plan',
  'pending_period',
  'pending_since',
  'pending_deadline',
  'stripe_customer_id',
  'stripe_subscription_id',
  'updated_at',
] as const;

// The plan's usage (subscription.get, and each creation under the plan's limits) reads these on every call: compiled
// once, as the per-request reads are (db/precompiled.ts). Kysely building and compiling them cost more than running them.
const selectSubscription = precompiled<[organizationId: number], SubscriptionRow>(
  (db) => db.selectFrom('subscriptions').select(SUBSCRIPTION_COLUMNS).where('organization_id', '=', 0),
  1,
);

export async function findSubscription(db: Db, params: { organizationId: number }): Promise<SubscriptionRow | undefined> {
  const [row] = await selectSubscription(db, params.organizationId);
  return row;
}

export async function findSubscriptionByStripeId(db: Db, params: { stripeSubscriptionId: string }): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .select(SUBSCRIPTION_COLUMNS)
    .where('stripe_subscription_id', '=', params.stripeSubscriptionId)
    .executeTakeFirst();
}

export async function organizationExists(db: Db, params: { organizationId: number }): Promise<boolean> {
  return (await db.selectFrom('organizations').select('id').where('id', '=', params.organizationId).executeTakeFirst()) !== undefined;
}

/** Writes the organisation's whole subscription row (one per organisation). */
export async function saveSubscription(db: Db, row: SubscriptionRow): Promise<void> {
  const { organization_id: _key, ...rest } = row;
  await db
    .insertInto('subscriptions')
    .values(row)
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(rest))
    .execute();
}

type Count = { n: number | string };

const countDocumentsCreated = precompiled<[organizationId: number, since: string], Count>(
  (db) =>
    db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', 0)
      .where('created_at', '>=', ''),
  2,
);

export async function countDocumentsCreatedSince(db: Db, params: { organizationId: number; since: string }): Promise<number> {
  const [row] = await countDocumentsCreated(db, params.organizationId, params.since);
  return Number(row?.n ?? 0);
}

const countMembers = precompiled<[organizationId: number], Count>(
  (db) =>
    db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', 0),
  1,
);

const pendingInvitations = precompiled<[organizationId: number, now: string], Count & { next_expiry: string | null }>(
  (db) =>
    db
      .selectFrom('invitations')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string | null>('expires_at').as('next_expiry')])
      .where('organization_id', '=', 0)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', ''),
  2,
);

/**
 * Members plus pending invitations (a seat is taken from the moment someone is invited), and the instant the first of
 * those invitations expires, freeing its seat with no write (null when none is pending).
 */
export async function seatsTaken(
  db: Db,
  params: { organizationId: number; now: string },
): Promise<{ seats: number; nextExpiry: string | null }> {
  const [[members], [invitations]] = await Promise.all([
    countMembers(db, params.organizationId),
    pendingInvitations(db, params.organizationId, params.now),
  ]);
  return { seats: Number(members?.n ?? 0) + Number(invitations?.n ?? 0), nextExpiry: invitations?.next_expiry ?? null };
}

const sumReceiptBytes = precompiled<[organizationId: number], { bytes: number | string }>(
  (db) =>
    db
      .selectFrom('expenses')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('receipt_size'), eb.lit(0)).as('bytes'))
      .where('organization_id', '=', 0),
  1,
);

/** Bytes of the receipts kept for the organisation's expenses. */
export async function storageUsed(db: Db, params: { organizationId: number }): Promise<number> {
  const [row] = await sumReceiptBytes(db, params.organizationId);
  return Number(row?.bytes ?? 0);
}

export async function listSubscriptionInvoices(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('subscription_invoices')
    .select(['id', 'number', 'date', 'plan', 'period', 'amount_net', 'amount_vat', 'amount_total', 'currency', 'status', 'pdf_url'])
    .where('organization_id', '=', params.organizationId)
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** An invoice of the provider, inserted or updated by its own id (a failed one paid later keeps one row). */
export async function upsertSubscriptionInvoice(db: Db, row: Insertable<SubscriptionInvoicesTable>): Promise<void> {
  await db
    .insertInto('subscription_invoices')
    .values(row)
    .onConflict((oc) => oc.column('external_id').doUpdateSet({ status: row.status, pdf_url: row.pdf_url ?? null }))
    .execute();
}

/** False when the event was already recorded: the caller then applies nothing. */
export async function recordPaymentEvent(
  db: Db,
  params: { id: string; type: string; organizationId: number | null; now: string },
): Promise<boolean> {
  const result = await db
    .insertInto('payment_events')
    .values({ id: params.id, type: params.type, organization_id: params.organizationId, received_at: params.now })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

const countLiveApiKeys = precompiled<[organizationId: number], Count>(
  (db) =>
    db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', 0)
      .where('revoked_at', 'is', null),
  1,
);

const countEnabledWebhooks = precompiled<[organizationId: number], Count>(
  (db) =>
    db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', 0)
      .where('enabled', '=', sql.lit(1)),
  1,
);

/** Live API keys and enabled webhooks: what a plan without those features leaves unused (never deleted). */
export async function countFeatureUses(db: Db, params: { organizationId: number }): Promise<{ apiKeys: number; webhooks: number }> {
  const [[keys], [hooks]] = await Promise.all([
    countLiveApiKeys(db, params.organizationId),
    countEnabledWebhooks(db, params.organizationId),
  ]);
  return { apiKeys: Number(keys?.n ?? 0), webhooks: Number(hooks?.n ?? 0) };
}

/** Organisations whose plan may move without a request: a change in waiting, or a period of ours that ended. */
export async function listSubscriptionsToSettle(db: Db, params: { today: string }): Promise<number[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('organization_id')
    .where((eb) =>
      eb.or([
        eb('pending_plan', 'is not', null),
        eb.and([eb('source', '!=', 'stripe'), eb('plan', '!=', 'free'), eb('current_period_end', '<', params.today)]),
      ]),
    )
    .orderBy('organization_id')
    .execute();
  return rows.map((r) => r.organization_id);
}
