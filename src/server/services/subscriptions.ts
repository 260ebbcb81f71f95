import type { Context } from '../context';
import type { Db } from '../db/connection';
import type { Session } from '../auth/sessions';
import { fail } from '../errors';
import { logger } from '../logger';
import { clock, nowIso } from '../clock';
import { todayIso } from './document-record';
import { parisToUtc } from './paris-time';
import { occurrenceAt } from '../../shared/recurrence';
import { formatDateLong } from '../../shared/format';
import { fromStoredUnits } from '../../shared/money';
import {
  type BillingPeriod,
  LIMIT_KEYS,
  type LimitKey,
  featureRefusal,
  limitRefusal,
  type PlanFeature,
  PLAN_IDS,
  PLAN_RANK,
  PLAN_VAT_RATE,
  PLANS,
  type PlanId,
  formatLimit,
  LIMIT_LABELS,
  planPrice,
} from '../../shared/plans';
import type { CheckoutInput, Subscription } from '../../shared/schemas/subscription';
import {
  countDocumentsCreatedSince,
  countSeats,
  findSubscription,
  listSubscriptionInvoices,
  saveSubscription,
  storageUsed,
  type SubscriptionRow,
} from '../db/queries/subscriptions';
import { getUserContact } from '../db/queries/users';

type SessionContext = Context & { session: Session };

export function plansList() {
  return {
    data: PLAN_IDS.map((id) => {
      const plan = PLANS[id];
      return {
        id,
        name: plan.name,
        tagline: plan.tagline,
        prices: { month: planPrice(plan, 'month'), year: planPrice(plan, 'year') },
        limits: plan.limits,
        api: plan.api,
        webhooks: plan.webhooks,
        einvoices_per_month: plan.einvoicesPerMonth,
        support: plan.support,
      };
    }),
    vat_rate: Number(PLAN_VAT_RATE),
  };
}

/** The day after which a period started today ends: one month or one year later. */
export function periodEnd(start: string, period: BillingPeriod): string {
  return occurrenceAt({ frequency: period === 'month' ? 'monthly' : 'yearly', start_date: start }, 1);
}

/**
 * The row as it stands today. Stripe's events move a Stripe subscription; the others move here: a plan granted by the
 * operator ends at its date, a plan chosen without provider renews itself (nothing to pay) and takes the change
 * scheduled for its period's end, or ends when it was cancelled.
 */
export function rollOver(row: SubscriptionRow | undefined, today: string): SubscriptionRow | undefined {
  if (!row || row.source === 'stripe' || !row.current_period_end || row.current_period_end >= today) return row;
  if (row.plan === 'free') return row;
  if (row.source === 'operator' || row.cancel_at_period_end) {
    return {
      ...row,
      plan: 'free',
      period: null,
      status: 'canceled',
      current_period_end: null,
      cancel_at_period_end: 0,
      pending_plan: null,
      pending_period: null,
    };
  }
  let next: SubscriptionRow = {
    ...row,
    plan: row.pending_plan ?? row.plan,
    period: row.pending_period ?? row.period,
    pending_plan: null,
    pending_period: null,
  };
  let end = row.current_period_end;
  while (end < today) end = periodEnd(end, next.period ?? 'month');
  next = { ...next, current_period_end: end };
  return next;
}

/** The plan whose limits apply now. A Stripe payment that failed keeps its plan while Stripe retries. */
export function planOf(row: SubscriptionRow | undefined): PlanId {
  if (!row || row.status === 'canceled') return 'free';
  return row.plan;
}

async function currentRow(db: Db, organizationId: number): Promise<SubscriptionRow | undefined> {
  const stored = await findSubscription(db, { organizationId });
  const today = todayIso(clock.now());
  const row = rollOver(stored, today);
  if (row && row !== stored) await saveSubscription(db, { ...row, updated_at: nowIso() });
  return row;
}

/** Start of this month in Paris, as a UTC instant (documents' created_at are UTC). */
function monthStartIso(): string {
  const today = todayIso(clock.now());
  return parisToUtc(`${today.slice(0, 7)}-01`, '00:00').toISOString();
}

export async function usageOf(db: Db, organizationId: number, key: LimitKey): Promise<number> {
  if (key === 'documents') return countDocumentsCreatedSince(db, { organizationId, since: monthStartIso() });
  if (key === 'members') return countSeats(db, { organizationId, now: nowIso() });
  return storageUsed(db, { organizationId });
}

/**
 * CONTRACT.md: a creation past a limit of the plan answers 402, naming the limit and the plan that lifts it. Only
 * creations call this: reading, exporting and issuing a drafted document are never refused.
 */
export async function assertWithinLimit(ctx: Pick<Context, 'db' | 'env'>, organizationId: number, key: LimitKey): Promise<void> {
  if (!ctx.env.planLimits) return;
  const plan = PLANS[planOf(await currentRow(ctx.db, organizationId))];
  const limit = plan.limits[key];
  if (limit === null) return;
  const used = await usageOf(ctx.db, organizationId, key);
  if (used >= limit) fail('PAYMENT_REQUIRED', limitRefusal(key, plan, used));
}

/** A feature of the plan (API keys, webhooks): creating one without it is refused with 402; what exists keeps working. */
export async function assertFeature(ctx: Pick<Context, 'db' | 'env'>, organizationId: number, feature: PlanFeature): Promise<void> {
  if (!ctx.env.planLimits) return;
  const plan = PLANS[planOf(await currentRow(ctx.db, organizationId))];
  if (!plan[feature]) fail('PAYMENT_REQUIRED', featureRefusal(feature, plan));
}

export async function subscriptionOf(ctx: Pick<Context, 'db' | 'env' | 'payments'>, organizationId: number): Promise<Subscription> {
  const row = await currentRow(ctx.db, organizationId);
  const planId = planOf(row);
  const plan = PLANS[planId];
  const usage = await Promise.all(
    LIMIT_KEYS.map(async (key) => ({ key, used: await usageOf(ctx.db, organizationId, key), limit: plan.limits[key] })),
  );
  return {
    plan: planId,
    plan_name: plan.name,
    period: planId === 'free' ? null : (row?.period ?? null),
    status: row?.status ?? 'active',
    source: row?.source ?? 'none',
    current_period_end: planId === 'free' ? null : (row?.current_period_end ?? null),
    cancel_at_period_end: Boolean(row?.cancel_at_period_end),
    pending_plan: row?.pending_plan ?? null,
    pending_period: row?.pending_period ?? null,
    usage,
    limits_enforced: ctx.env.planLimits,
    provider: ctx.payments ? 'stripe' : 'none',
  };
}

/** Why a smaller plan cannot take over yet: members and receipts already beyond its limits. Empty when it fits. */
async function overLimits(db: Db, organizationId: number, target: PlanId): Promise<string[]> {
  const reasons: string[] = [];
  for (const key of ['members', 'storage'] as const) {
    const limit = PLANS[target].limits[key];
    if (limit === null) continue;
    const used = await usageOf(db, organizationId, key);
    if (used > limit) {
      reasons.push(
        `La formule ${PLANS[target].name} permet ${formatLimit(key, limit)} ${LIMIT_LABELS[key]} ; vous en êtes à ${formatLimit(key, used)}. ${key === 'members' ? 'Retirez des membres ou révoquez des invitations' : 'Supprimez des justificatifs'}, puis changez de formule.`,
      );
    }
  }
  return reasons;
}

/** An organisation's subscription before any plan: free, managed here (`local`) or by the provider (`stripe`). */
export function emptyRow(organizationId: number, source: SubscriptionRow['source'] = 'local'): SubscriptionRow {
  return {
    organization_id: organizationId,
    plan: 'free',
    period: null,
    status: 'active',
    source,
    current_period_end: null,
    cancel_at_period_end: 0,
    pending_plan: null,
    pending_period: null,
    stripe_customer_id: null,
    stripe_subscription_id: null,
    updated_at: nowIso(),
  };
}

export interface CheckoutResult {
  messages: string;
  url: string | null;
}

/**
 * Choosing a plan (issue 19 §2). With Stripe: its hosted checkout for a first subscription, its portal for a change.
 * Without a provider the change applies here: at once for a larger plan, at the period's end for a smaller one.
 */
export async function checkout(ctx: SessionContext, input: CheckoutInput): Promise<CheckoutResult> {
  const { organizationId, userId } = ctx.session;
  const row = await currentRow(ctx.db, organizationId);
  const current = planOf(row);
  const target = PLANS[input.plan];
  if (input.plan === 'free') {
    if (current === 'free') fail('CONFLICT', 'Vous êtes déjà sur la formule Gratuit');
    fail('CONFLICT', 'Pour revenir à la formule Gratuit, résiliez votre abonnement : il reste actif jusqu’à la fin de la période payée.');
  }
  if (current === input.plan && row?.period === input.period && !row.cancel_at_period_end && !row.pending_plan) {
    fail('CONFLICT', `Vous avez déjà la formule ${target.name} (${input.period === 'month' ? 'mensuelle' : 'annuelle'})`);
  }
  // With every limit lifted (PLAN_LIMITS=off) a smaller plan always fits.
  const reasons = ctx.env.planLimits ? await overLimits(ctx.db, organizationId, input.plan) : [];
  if (reasons.length > 0) fail('CONFLICT', reasons);

  const appUrl = ctx.env.appUrl;
  if (ctx.payments) {
    if (row?.source === 'stripe' && row.stripe_customer_id && current !== 'free') {
      const url = await ctx.payments
        .portalUrl({ customerId: row.stripe_customer_id, returnUrl: `${appUrl}/settings/subscription` })
        .catch(providerDown);
      return { messages: 'Changez de formule sur la page de paiement sécurisée', url };
    }
    const contact = await getUserContact(ctx.db, { userId });
    const url = await ctx.payments
      .createCheckout({
        organizationId,
        plan: input.plan,
        period: input.period,
        customerId: row?.stripe_customer_id ?? null,
        email: contact?.email ?? '',
        successUrl: `${appUrl}/settings/subscription?paiement=ok`,
        cancelUrl: `${appUrl}/pricing`,
      })
      .catch(providerDown);
    return { messages: 'Redirection vers la page de paiement sécurisée', url };
  }

  const today = todayIso(clock.now());
  const base = row ?? emptyRow(organizationId);
  const smaller =
    PLAN_RANK[input.plan] < PLAN_RANK[current] || (input.plan === current && input.period === 'month' && row?.period === 'year');
  if (smaller && base.current_period_end && base.current_period_end >= today) {
    await saveSubscription(ctx.db, {
      ...base,
      pending_plan: input.plan,
      pending_period: input.period,
      cancel_at_period_end: 0,
      updated_at: nowIso(),
    });
    return { messages: `Le passage à la formule ${target.name} prendra effet le ${formatDateLong(base.current_period_end)}`, url: null };
  }
  await saveSubscription(ctx.db, {
    ...base,
    plan: input.plan,
    period: input.period,
    status: 'active',
    source: 'local',
    current_period_end: periodEnd(today, input.period),
    cancel_at_period_end: 0,
    pending_plan: null,
    pending_period: null,
    updated_at: nowIso(),
  });
  return { messages: `Formule ${target.name} activée`, url: null };
}

function providerDown(error: unknown): never {
  logger.error('payment provider call failed', error);
  fail('SERVICE_UNAVAILABLE', 'Le service de paiement ne répond pas : réessayez dans quelques minutes, rien n’a été changé.');
}

/** Cancel (or, with `cancel: false`, keep) the paid plan at the end of the period already paid. */
export async function setCancellation(ctx: SessionContext, cancel: boolean): Promise<string> {
  const { organizationId } = ctx.session;
  const row = await currentRow(ctx.db, organizationId);
  if (!row || planOf(row) === 'free') fail('CONFLICT', 'Aucun abonnement payant à résilier : vous êtes sur la formule Gratuit');
  if (Boolean(row.cancel_at_period_end) === cancel) {
    fail('CONFLICT', cancel ? 'Cet abonnement est déjà résilié à la fin de la période' : 'Cet abonnement n’est pas résilié');
  }
  if (row.source === 'stripe' && row.stripe_subscription_id) {
    if (!ctx.payments) fail('CONFLICT', 'Cet abonnement est géré par Stripe, qui n’est plus configuré sur ce serveur');
    await ctx.payments.cancelAtPeriodEnd(row.stripe_subscription_id, cancel).catch(providerDown);
  }
  await saveSubscription(ctx.db, {
    ...row,
    cancel_at_period_end: cancel ? 1 : 0,
    pending_plan: null,
    pending_period: null,
    updated_at: nowIso(),
  });
  const end = row.current_period_end ? formatDateLong(row.current_period_end) : '';
  if (!cancel) return 'Résiliation annulée : votre abonnement continue';
  return end ? `Abonnement résilié : la formule ${PLANS[row.plan].name} reste active jusqu’au ${end}` : 'Abonnement résilié';
}

export async function invoicesOf(ctx: SessionContext) {
  const rows = await listSubscriptionInvoices(ctx.db, { organizationId: ctx.session.organizationId });
  const data = rows.map((r) => ({
    ...r,
    amount_net: fromStoredUnits(r.amount_net),
    amount_vat: fromStoredUnits(r.amount_vat),
    amount_total: fromStoredUnits(r.amount_total),
  }));
  return { total: data.length, data };
}

/** `npm run plan`: the operator grants a plan until a date, whatever the provider (self-hosted, gifts, support). */
export async function grantPlan(db: Db, params: { organizationId: number; plan: PlanId; until: string }): Promise<SubscriptionRow> {
  const existing = (await findSubscription(db, { organizationId: params.organizationId })) ?? emptyRow(params.organizationId);
  const row: SubscriptionRow = {
    ...existing,
    plan: params.plan,
    period: null,
    status: params.plan === 'free' ? 'canceled' : 'active',
    source: 'operator',
    current_period_end: params.plan === 'free' ? null : params.until,
    cancel_at_period_end: 0,
    pending_plan: null,
    pending_period: null,
    updated_at: nowIso(),
  };
  await saveSubscription(db, row);
  return row;
}
