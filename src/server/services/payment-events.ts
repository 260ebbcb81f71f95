import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { logger } from '../logger';
import { div, mul, toNumber, toStoredUnits } from '../../shared/money';
import { PLAN_IDS, PLAN_RANK, PLANS, type BillingPeriod, type PlanId } from '../../shared/plans';
import { billingPeriodSchema, planIdSchema } from '../../shared/schemas/plan';
import type { ProviderEvent } from '../payments/provider';
import { emptyRow, overLimits } from './subscriptions';

/** PLAN_LIMITS=off: every plan fits, so a smaller plan chosen on Stripe's portal applies at once. */
export interface ApplyOptions {
  planLimits: boolean;
}
import {
  findSubscription,
  findSubscriptionByStripeId,
  organizationExists,
  recordPaymentEvent,
  saveSubscription,
  upsertSubscriptionInvoice,
  type SubscriptionRow,
} from '../db/queries/subscriptions';
import { parisDateOf } from '../../shared/paris-date';

/*
 * Stripe's objects read defensively: the fields moved across API versions (a subscription's period end went to its
 * items, an invoice's subscription to `parent.subscription_details`), and a signed event is trusted, not its shape.
 */
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null ? (v as Obj) : {});
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'object' && v !== null ? str((v as Obj).id) : null;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const first = (list: unknown): Obj => obj(Array.isArray(obj(list).data) ? (obj(list).data as unknown[])[0] : undefined);
/** Stripe's Unix seconds → the business date (the Paris day) of that instant. */
const dateOf = (seconds: number | null): string | null => (seconds === null ? null : parisDateOf(new Date(seconds * 1000)));

function planFrom(metadata: unknown): { organizationId: number | null; plan: PlanId | null; period: BillingPeriod | null } {
  const m = obj(metadata);
  const id = Number(m.organization_id);
  const plan = planIdSchema.safeParse(m.plan);
  const period = billingPeriodSchema.safeParse(m.period);
  return {
    organizationId: Number.isInteger(id) && id > 0 ? id : null,
    plan: plan.success ? plan.data : null,
    period: period.success ? period.data : null,
  };
}

/** The organisation's row an event speaks of: by our metadata, else by Stripe's subscription id. */
async function rowFor(db: Db, organizationId: number | null, subscriptionId: string | null): Promise<SubscriptionRow | undefined> {
  if (organizationId !== null) {
    if (!(await organizationExists(db, { organizationId }))) return undefined;
    return (await findSubscription(db, { organizationId })) ?? emptyRow(organizationId, 'stripe');
  }
  return subscriptionId ? findSubscriptionByStripeId(db, { stripeSubscriptionId: subscriptionId }) : undefined;
}

const STATUS: Record<string, SubscriptionRow['status']> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  incomplete: 'past_due',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
};

async function onCheckoutCompleted(db: Db, session: Obj): Promise<number | null> {
  const meta = planFrom(session.metadata);
  const organizationId = meta.organizationId ?? (Number(session.client_reference_id) || null);
  const row = await rowFor(db, organizationId, str(session.subscription));
  if (!row || !meta.plan) return null;
  await saveSubscription(db, {
    ...row,
    plan: meta.plan,
    period: meta.period ?? row.period ?? 'month',
    status: 'active',
    source: 'stripe',
    cancel_at_period_end: 0,
    pending_plan: null,
    pending_period: null,
    pending_since: null,
    pending_deadline: null,
    stripe_customer_id: str(session.customer) ?? row.stripe_customer_id,
    stripe_subscription_id: str(session.subscription) ?? row.stripe_subscription_id,
    updated_at: nowIso(),
  });
  return row.organization_id;
}

/** The plan a Stripe price bills: ours carry it in their metadata; else its amount and interval (a portal's price). */
function planFromPrice(price: Obj): PlanId | null {
  const tagged = planIdSchema.safeParse(obj(price.metadata).plan);
  if (tagged.success) return tagged.data;
  const cents = num(price.unit_amount);
  const interval = obj(price.recurring).interval;
  if (cents === null || (interval !== 'month' && interval !== 'year')) return null;
  return PLAN_IDS.find((id) => id !== 'free' && toNumber(mul(PLANS[id].price[interval], 100), 0) === cents) ?? null;
}

async function onSubscriptionChanged(db: Db, sub: Obj, deleted: boolean, opts: ApplyOptions): Promise<number | null> {
  const meta = planFrom(sub.metadata);
  const row = await rowFor(db, meta.organizationId, str(sub.id));
  if (!row) return null;
  const item = first(sub.items);
  const status = deleted ? 'canceled' : (STATUS[String(sub.status)] ?? row.status);
  const interval = obj(obj(item.price).recurring).interval;
  const period = meta.period ?? (interval === 'year' || interval === 'month' ? interval : row.period);
  const end =
    status === 'canceled' ? null : (dateOf(num(sub.current_period_end) ?? num(item.current_period_end)) ?? row.current_period_end);
  // What Stripe bills now: the price (a change made on Stripe's portal keeps our checkout's metadata), else ours.
  const billed = planFromPrice(obj(item.price)) ?? meta.plan ?? row.plan;
  let plan: PlanId = status === 'canceled' ? 'free' : billed;
  let pending: Pick<SubscriptionRow, 'pending_plan' | 'pending_period' | 'pending_since' | 'pending_deadline'> = {
    pending_plan: null,
    pending_period: null,
    pending_since: null,
    pending_deadline: null,
  };
  if (status !== 'canceled' && billed === row.plan) {
    // Nothing moved on Stripe's side: a change asked for here and waiting for the usage stays in waiting.
    pending = row;
  } else if (status !== 'canceled' && row.status !== 'canceled' && PLAN_RANK[billed] < PLAN_RANK[row.plan] && opts.planLimits) {
    // A smaller plan chosen on the portal while the usage exceeds it waits until the usage fits, and at the
    // latest until the end of the period Stripe already billed (it bills the smaller plan from then on).
    const reasons = await overLimits(db, row.organization_id, billed);
    if (reasons.length > 0) {
      plan = row.plan;
      pending = {
        pending_plan: billed,
        pending_period: period,
        pending_since: row.pending_plan === billed && row.pending_since ? row.pending_since : nowIso(),
        pending_deadline: row.pending_plan === billed && row.pending_deadline ? row.pending_deadline : (row.current_period_end ?? end),
      };
    }
  }
  await saveSubscription(db, {
    ...row,
    plan,
    period: status === 'canceled' ? null : period,
    status,
    source: 'stripe',
    current_period_end: end,
    cancel_at_period_end: status !== 'canceled' && sub.cancel_at_period_end === true ? 1 : 0,
    pending_plan: pending.pending_plan,
    pending_period: pending.pending_period,
    pending_since: pending.pending_since,
    pending_deadline: pending.pending_deadline,
    stripe_customer_id: str(sub.customer) ?? row.stripe_customer_id,
    stripe_subscription_id: status === 'canceled' ? null : (str(sub.id) ?? row.stripe_subscription_id),
    updated_at: nowIso(),
  });
  return row.organization_id;
}

async function onInvoice(db: Db, invoice: Obj, paid: boolean): Promise<number | null> {
  const details = obj(obj(invoice.parent).subscription_details);
  const subscriptionId = str(invoice.subscription) ?? str(details.subscription);
  const meta = planFrom(Object.keys(obj(details.metadata)).length > 0 ? details.metadata : invoice.metadata);
  const row = await rowFor(db, meta.organizationId, subscriptionId);
  const id = str(invoice.id);
  if (!row || !id) return null;
  const line = first(invoice.lines);
  const cents = (v: unknown) => toStoredUnits(div(num(v) ?? 0, 100));
  const total = num(invoice.total) ?? 0;
  const net = num(invoice.total_excluding_tax) ?? num(invoice.subtotal) ?? total;
  await upsertSubscriptionInvoice(db, {
    organization_id: row.organization_id,
    external_id: id,
    number: str(invoice.number) ?? id,
    date: dateOf(num(invoice.created)) ?? parisDateOf(nowIso()),
    plan: meta.plan ?? row.plan,
    period: meta.period ?? row.period ?? 'month',
    amount_net: cents(net),
    amount_vat: cents(total - net),
    amount_total: cents(total),
    currency: (str(invoice.currency) ?? 'eur').toUpperCase(),
    status: paid ? 'paid' : 'failed',
    pdf_url: str(invoice.invoice_pdf) ?? str(invoice.hosted_invoice_url),
    created_at: nowIso(),
  });
  // A paid renewal carries the new period's end; a failed payment keeps the plan while Stripe retries (past_due).
  const periodEnd = dateOf(num(obj(line.period).end));
  await saveSubscription(db, {
    ...row,
    status: paid ? 'active' : 'past_due',
    current_period_end: paid && periodEnd ? periodEnd : row.current_period_end,
    stripe_customer_id: str(invoice.customer) ?? row.stripe_customer_id,
    stripe_subscription_id: subscriptionId ?? row.stripe_subscription_id,
    updated_at: nowIso(),
  });
  return row.organization_id;
}

/**
 * Applies a verified provider event once: its id is recorded in the same transaction as its effect, so
 * a delivery repeated, or replayed within the signature's tolerance, changes nothing. Answers false for a repeat.
 */
export async function applyPaymentEvent(db: Db, event: ProviderEvent, opts: ApplyOptions): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const known = await trx.selectFrom('payment_events').select('id').where('id', '=', event.id).executeTakeFirst();
    if (known) return false;
    let organizationId: number | null = null;
    switch (event.type) {
      case 'checkout.session.completed':
        organizationId = await onCheckoutCompleted(trx, event.object);
        break;
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
        organizationId = await onSubscriptionChanged(trx, event.object, false, opts);
        break;
      case 'customer.subscription.deleted':
        organizationId = await onSubscriptionChanged(trx, event.object, true, opts);
        break;
      case 'invoice.paid':
      case 'invoice.payment_succeeded':
        organizationId = await onInvoice(trx, event.object, true);
        break;
      case 'invoice.payment_failed':
        organizationId = await onInvoice(trx, event.object, false);
        break;
      default:
        logger.info({ stripe_event: event.type, ignored: true });
    }
    await recordPaymentEvent(trx, { id: event.id, type: event.type, organizationId, now: nowIso() });
    return true;
  });
}
