import type { Context } from '../context';
import type { Db } from '../db/connection';
import type { KeptTerm } from '../kept-answers';
import type { Session } from '../auth/sessions';
import { fail } from '../errors';
import { logger } from '../logger';
import { clock, nowIso } from '../clock';
import { todayIso } from './document-record';
import { parisToUtc } from './paris-time';
import { occurrenceAt } from '../../shared/recurrence';
import { formatDateLong } from '../../shared/format';
import { plural, pluralWord } from '../../shared/french';
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
  planPrice,
} from '../../shared/plans';
import type { CheckoutInput, Subscription } from '../../shared/schemas/subscription';
import {
  countDocumentsCreatedSince,
  countFeatureUses,
  seatsTaken,
  findSubscription,
  listSubscriptionInvoices,
  listSubscriptionsToSettle,
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

/** The row with no plan change waiting. */
function withoutPending(row: SubscriptionRow): SubscriptionRow {
  return { ...row, pending_plan: null, pending_period: null, pending_since: null, pending_deadline: null };
}

function toFree(row: SubscriptionRow): SubscriptionRow {
  return { ...withoutPending(row), plan: 'free', period: null, status: 'canceled', current_period_end: null, cancel_at_period_end: 0 };
}

/**
 * The row as it stands today. Stripe's events move a Stripe subscription; the others move here: a plan granted by the
 * operator ends at its date, a plan chosen without provider renews itself (nothing to pay) and takes the change
 * scheduled for its period's end, or ends when it was cancelled.
 *
 * A smaller plan (or Gratuit, after a cancellation) takes over at the period's end only if the usage fits
 * its limits (`fits`); otherwise the current plan goes on, unrenewed, and the change applies on the first day the
 * usage fits. A change the provider already bills (`pending_deadline`) applies as soon as usage fits, and at the
 * latest after that day. `fits` defaults to "always" (limits lifted).
 */
export function rollOver(
  row: SubscriptionRow | undefined,
  today: string,
  fits: (plan: PlanId) => boolean = () => true,
): SubscriptionRow | undefined {
  if (!row) return row;
  if (row.source === 'stripe') {
    const target = row.pending_plan;
    if (!target || !row.pending_deadline || (row.pending_deadline >= today && !fits(target))) return row;
    return { ...withoutPending(row), plan: target, period: row.pending_period ?? row.period };
  }
  if (!row.current_period_end || row.current_period_end >= today || row.plan === 'free') return row;
  if (row.source === 'operator') return toFree(row);
  if (row.cancel_at_period_end) return fits('free') ? toFree(row) : row;
  if (row.pending_plan && !fits(row.pending_plan)) return row;
  let next: SubscriptionRow = {
    ...withoutPending(row),
    plan: row.pending_plan ?? row.plan,
    period: row.pending_period ?? row.period,
  };
  let end = row.current_period_end;
  while (end < today) end = periodEnd(end, next.period ?? 'month');
  next = { ...next, current_period_end: end };
  return next;
}

/** The plan a change in waiting leads to: the smaller plan asked for, or Gratuit after a cancellation. */
export function pendingTarget(row: SubscriptionRow | undefined): PlanId | null {
  if (!row || planOf(row) === 'free') return null;
  return row.pending_plan ?? (row.cancel_at_period_end ? 'free' : null);
}

/** The plan whose limits apply now. A Stripe payment that failed keeps its plan while Stripe retries. */
export function planOf(row: SubscriptionRow | undefined): PlanId {
  if (!row || row.status === 'canceled') return 'free';
  return row.plan;
}

/**
 * The organisation's row as it stands today, saved when time moved it. `planLimits` false (PLAN_LIMITS=off): every
 * plan fits, so a change in waiting never waits for usage.
 */
async function currentRow(db: Db, organizationId: number, planLimits: boolean): Promise<SubscriptionRow | undefined> {
  const stored = await findSubscription(db, { organizationId });
  const target = pendingTarget(stored);
  const fitting = target !== null && (!planLimits || (await overLimits(db, organizationId, target)).length === 0);
  const row = rollOver(stored, todayIso(clock.now()), (plan) => plan !== target || fitting);
  if (row && row !== stored) {
    await saveSubscription(db, { ...row, updated_at: nowIso() });
    if (stored && row.plan !== stored.plan) logger.info({ organization_id: organizationId, plan_from: stored.plan, plan_to: row.plan });
  }
  return row;
}

/** Start of this month in Paris, as a UTC instant (documents' created_at are UTC). */
function monthStartIso(): string {
  const today = todayIso(clock.now());
  return parisToUtc(`${today.slice(0, 7)}-01`, '00:00').toISOString();
}

/** What the organisation uses of a limit now; `term` learns when a pending invitation's expiry frees a seat. */
export async function usageOf(db: Db, organizationId: number, key: LimitKey, term?: KeptTerm | null): Promise<number> {
  if (key === 'documents') return countDocumentsCreatedSince(db, { organizationId, since: monthStartIso() });
  if (key !== 'members') return storageUsed(db, { organizationId });
  const { seats, nextExpiry } = await seatsTaken(db, { organizationId, now: nowIso() });
  term?.endsAt(nextExpiry);
  return seats;
}

/**
 * A creation past a limit of the plan answers 402, naming the limit and the plan that lifts it. Only
 * creations call this: reading, exporting and issuing a drafted document are never refused.
 */
export async function assertWithinLimit(ctx: Pick<Context, 'db' | 'env'>, organizationId: number, key: LimitKey): Promise<void> {
  if (!ctx.env.planLimits) return;
  const plan = PLANS[planOf(await currentRow(ctx.db, organizationId, ctx.env.planLimits))];
  const limit = plan.limits[key];
  if (limit === null) return;
  const used = await usageOf(ctx.db, organizationId, key);
  if (used >= limit) fail('PAYMENT_REQUIRED', limitRefusal(key, plan, used));
}

/** The French refusal when the organisation's plan lacks a feature (API keys, webhooks), or null when it has it. */
export async function featureRefusalFor(db: Db, organizationId: number, feature: PlanFeature, planLimits: boolean): Promise<string | null> {
  if (!planLimits) return null;
  const plan = PLANS[planOf(await currentRow(db, organizationId, planLimits))];
  return plan[feature] ? null : featureRefusal(feature, plan);
}

/**
 * A feature of the plan (API keys, webhooks): creating one without it is refused with 402, and so is a write through
 * an API key (trpc.ts). What exists is kept: keys still read and export, webhooks are kept but not sent.
 */
export async function assertFeature(ctx: Pick<Context, 'db' | 'env'>, organizationId: number, feature: PlanFeature): Promise<void> {
  const refusal = await featureRefusalFor(ctx.db, organizationId, feature, ctx.env.planLimits);
  if (refusal) fail('PAYMENT_REQUIRED', refusal);
}

/** The plan, its period and its usage; `term`, for a kept answer: when the clock alone changes the usage. */
export async function subscriptionOf(
  ctx: Pick<Context, 'db' | 'env' | 'payments'>,
  organizationId: number,
  term: KeptTerm | null = null,
): Promise<Subscription> {
  const row = await currentRow(ctx.db, organizationId, ctx.env.planLimits);
  const planId = planOf(row);
  const plan = PLANS[planId];
  const target = pendingTarget(row);
  const usage = await Promise.all(
    LIMIT_KEYS.map(async (key) => ({ key, used: await usageOf(ctx.db, organizationId, key, term), limit: plan.limits[key] })),
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
    pending_since: row?.pending_plan ? row.pending_since : null,
    pending_deadline: row?.pending_plan ? row.pending_deadline : null,
    pending_blockers: target && ctx.env.planLimits ? await overLimits(ctx.db, organizationId, target, term) : [],
    pending_losses: target && ctx.env.planLimits ? await dormantFeatures(ctx.db, organizationId, target) : [],
    dormant: ctx.env.planLimits ? await dormantFeatures(ctx.db, organizationId, planId) : [],
    usage,
    limits_enforced: ctx.env.planLimits,
    provider: ctx.payments ? 'stripe' : 'none',
  };
}

/**
 * Why a smaller plan cannot take over yet: what the usage already exceeds of its limits, one French sentence each
 * (empty when it fits). The month's documents count too: such a change waits for the next month's count.
 */
export async function overLimits(db: Db, organizationId: number, target: PlanId, term?: KeptTerm | null): Promise<string[]> {
  const plan = PLANS[target];
  const reasons: string[] = [];
  for (const key of LIMIT_KEYS) {
    const limit = plan.limits[key];
    if (limit === null) continue;
    const used = await usageOf(db, organizationId, key, term);
    if (used <= limit) continue;
    const shown = (n: number) => formatLimit(key, n);
    const sentence: Record<LimitKey, string> = {
      documents: `La formule ${plan.name} permet ${plural(limit, 'document créé', 'documents créés', shown(limit))} par mois ; vous en êtes à ${shown(used)} ce mois-ci. Le compte repart de zéro le 1er du mois.`,
      members: `La formule ${plan.name} permet ${plural(limit, 'membre', 'membres', shown(limit))} ; vous en êtes à ${shown(used)} (invitations en attente comprises). Retirez des membres ou révoquez des invitations.`,
      storage: `La formule ${plan.name} permet ${shown(limit)} de justificatifs ; vous en êtes à ${shown(used)}. Supprimez des justificatifs.`,
    };
    reasons.push(sentence[key]);
  }
  return reasons;
}

/** What a plan without API or webhooks leaves unused: the keys and webhooks stay, unusable until a plan includes them. */
export async function dormantFeatures(db: Db, organizationId: number, planId: PlanId): Promise<string[]> {
  const plan = PLANS[planId];
  if (plan.api && plan.webhooks) return [];
  const uses = await countFeatureUses(db, { organizationId });
  const notes: string[] = [];
  if (!plan.api && uses.apiKeys > 0) {
    notes.push(
      `${plural(uses.apiKeys, 'clé d’API', 'clés d’API')} : hors de la formule ${plan.name}, ${pluralWord(uses.apiKeys, 'elle ne peut', 'elles ne peuvent')} plus que lire et exporter (${pluralWord(uses.apiKeys, 'conservée, utilisable', 'conservées, utilisables')} de nouveau avec la formule Solo ou Équipe).`,
    );
  }
  if (!plan.webhooks && uses.webhooks > 0) {
    notes.push(
      `${plural(uses.webhooks, 'webhook')} : hors de la formule ${plan.name}, plus aucun événement n’est envoyé (${pluralWord(uses.webhooks, 'conservé, de nouveau actif', 'conservés, de nouveau actifs')} avec la formule Équipe).`,
    );
  }
  return notes;
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
    pending_since: null,
    pending_deadline: null,
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
 * Choosing a plan. With Stripe: its hosted checkout for a first subscription, its portal for a change.
 * Without a provider the change applies here: at once for a larger plan, at the period's end for a smaller one.
 */
export async function checkout(ctx: SessionContext, input: CheckoutInput): Promise<CheckoutResult> {
  const { organizationId, userId } = ctx.session;
  const row = await currentRow(ctx.db, organizationId, ctx.env.planLimits);
  const current = planOf(row);
  const target = PLANS[input.plan];
  if (input.plan === 'free') {
    if (current === 'free') fail('CONFLICT', 'Vous êtes déjà sur la formule Gratuit');
    fail('CONFLICT', 'Pour revenir à la formule Gratuit, résiliez votre abonnement : il reste actif jusqu’à la fin de la période payée.');
  }
  if (current === input.plan && row?.period === input.period && row.pending_plan && !row.pending_deadline) {
    // Choosing the current plan again while a smaller one waits: the current plan is kept, as « Garder la formule ».
    await saveSubscription(ctx.db, { ...withoutPending(row), updated_at: nowIso() });
    return { messages: `Changement annulé : vous gardez la formule ${target.name}`, url: null };
  }
  if (current === input.plan && row?.period === input.period && !row.cancel_at_period_end && !row.pending_plan) {
    fail('CONFLICT', `Vous avez déjà la formule ${target.name} (${input.period === 'month' ? 'mensuelle' : 'annuelle'})`);
  }
  const smaller =
    PLAN_RANK[input.plan] < PLAN_RANK[current] || (input.plan === current && input.period === 'month' && row?.period === 'year');
  // A smaller plan the usage exceeds is recorded, not refused; it waits until the usage fits (rollOver).
  // With every limit lifted (PLAN_LIMITS=off) it always fits.
  const reasons = smaller && ctx.env.planLimits ? await overLimits(ctx.db, organizationId, input.plan) : [];
  const waiting = (base: SubscriptionRow): SubscriptionRow => ({
    ...base,
    pending_plan: input.plan,
    pending_period: input.period,
    pending_since: nowIso(),
    pending_deadline: null,
    cancel_at_period_end: 0,
    updated_at: nowIso(),
  });

  const appUrl = ctx.env.appUrl;
  if (ctx.payments) {
    if (row?.source === 'stripe' && row.stripe_customer_id && current !== 'free') {
      if (reasons.length > 0 && row.stripe_subscription_id) {
        // Stripe is asked only once the usage fits (settlePlanChange): until then it bills the current plan.
        await saveSubscription(ctx.db, waiting(row));
        return {
          messages: `Le passage à la formule ${target.name} est enregistré : il prendra effet dès que votre usage tiendra dans ses limites. ${reasons.join(' ')}`,
          url: null,
        };
      }
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
  const end = base.current_period_end;
  if (smaller && end && (end >= today || reasons.length > 0)) {
    await saveSubscription(ctx.db, waiting(base));
    if (reasons.length === 0)
      return { messages: `Le passage à la formule ${target.name} prendra effet le ${formatDateLong(end)}`, url: null };
    const when =
      end >= today
        ? `il prendra effet le ${formatDateLong(end)} si votre usage tient alors dans ses limites, sinon dès qu’il y tiendra`
        : 'il prendra effet dès que votre usage tiendra dans ses limites';
    return { messages: `Le passage à la formule ${target.name} est enregistré : ${when}. ${reasons.join(' ')}`, url: null };
  }
  await saveSubscription(ctx.db, {
    ...withoutPending(base),
    plan: input.plan,
    period: input.period,
    status: 'active',
    source: 'local',
    current_period_end: periodEnd(today, input.period),
    cancel_at_period_end: 0,
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
  const row = await currentRow(ctx.db, organizationId, ctx.env.planLimits);
  if (!row || planOf(row) === 'free') fail('CONFLICT', 'Aucun abonnement payant à résilier : vous êtes sur la formule Gratuit');
  if (Boolean(row.cancel_at_period_end) === cancel) {
    fail('CONFLICT', cancel ? 'Cet abonnement est déjà résilié à la fin de la période' : 'Cet abonnement n’est pas résilié');
  }
  if (row.source === 'stripe' && row.stripe_subscription_id) {
    if (!ctx.payments) fail('CONFLICT', 'Cet abonnement est géré par Stripe, qui n’est plus configuré sur ce serveur');
    await ctx.payments.cancelAtPeriodEnd(row.stripe_subscription_id, cancel).catch(providerDown);
  }
  await saveSubscription(ctx.db, {
    // A change Stripe already bills stays until it applies; one only asked for here gives way to the cancellation.
    ...(row.pending_deadline ? row : withoutPending(row)),
    cancel_at_period_end: cancel ? 1 : 0,
    updated_at: nowIso(),
  });
  const end = row.current_period_end ? formatDateLong(row.current_period_end) : '';
  if (!cancel) return 'Résiliation annulée : votre abonnement continue';
  const said = end ? `Abonnement résilié : la formule ${PLANS[row.plan].name} reste active jusqu’au ${end}` : 'Abonnement résilié';
  const over = ctx.env.planLimits ? await overLimits(ctx.db, organizationId, 'free') : [];
  if (over.length === 0) return said;
  // Stripe stops billing at the period's end, so Gratuit applies then; a plan of ours waits for the usage to fit.
  return row.source === 'stripe'
    ? `${said}. Ensuite, la formule Gratuit s’appliquera : rien n’est supprimé, mais ce qui dépasse ses limites ne pourra plus être créé.`
    : `${said}, puis tant que votre usage dépassera les limites de la formule Gratuit (voir Gérer mon abonnement).`;
}

/** Drops a change to a smaller plan still in waiting: the current plan goes on. */
export async function cancelPendingChange(ctx: SessionContext): Promise<string> {
  const row = await currentRow(ctx.db, ctx.session.organizationId, ctx.env.planLimits);
  if (!row?.pending_plan) fail('CONFLICT', 'Aucun changement de formule en attente');
  if (row.pending_deadline) {
    fail(
      'CONFLICT',
      `Ce changement a été fait sur la page de paiement Stripe, qui facture déjà la formule ${PLANS[row.pending_plan].name} : revenez-y pour garder la formule ${PLANS[row.plan].name}.`,
    );
  }
  await saveSubscription(ctx.db, { ...withoutPending(row), updated_at: nowIso() });
  return `Changement annulé : vous gardez la formule ${PLANS[row.plan].name}`;
}

/**
 * Applies a change in waiting whose moment came: called by the scheduler's job and right after a seat is
 * freed. Ours apply when the row is read (rollOver); one asked for here on a Stripe subscription needs Stripe to
 * switch the price first, and only then is it applied. Answers whether the plan moved.
 */
export async function settlePlanChange(deps: Pick<Context, 'db' | 'env' | 'payments'>, organizationId: number): Promise<boolean> {
  const before = await findSubscription(deps.db, { organizationId });
  const row = await currentRow(deps.db, organizationId, deps.env.planLimits);
  if (
    row?.source === 'stripe' &&
    row.pending_plan &&
    !row.pending_deadline &&
    row.stripe_subscription_id &&
    deps.payments &&
    planOf(row) !== 'free' &&
    (!deps.env.planLimits || (await overLimits(deps.db, organizationId, row.pending_plan)).length === 0)
  ) {
    const period = row.pending_period ?? row.period ?? 'month';
    await deps.payments.changePlan({ subscriptionId: row.stripe_subscription_id, organizationId, plan: row.pending_plan, period });
    await saveSubscription(deps.db, { ...withoutPending(row), plan: row.pending_plan, period, updated_at: nowIso() });
    logger.info({ organization_id: organizationId, plan_from: row.plan, plan_to: row.pending_plan, provider: 'stripe' });
    return true;
  }
  return before?.plan !== row?.plan;
}

/**
 * After a seat is freed: the change in waiting may apply now. Never fails the caller's own work (Stripe down: the
 * scheduler's job tries again); answers the French note to add to its message when the plan moved.
 */
export async function settleAfterUsageDrop(deps: Pick<Context, 'db' | 'env' | 'payments'>, organizationId: number): Promise<string | null> {
  try {
    if (!(await settlePlanChange(deps, organizationId))) return null;
    const row = await findSubscription(deps.db, { organizationId });
    return `La formule ${PLANS[planOf(row)].name} s’applique désormais`;
  } catch (error) {
    logger.error(`plan change of organisation ${organizationId} not applied`, error);
    return null;
  }
}

/** The scheduler's job: every change in waiting, and every period of ours that ended, looked at once. */
export async function settlePlanChanges(
  deps: Pick<Context, 'db' | 'env' | 'payments'>,
  now: Date,
): Promise<{ moved: number; failed: number }> {
  const report = { moved: 0, failed: 0 };
  for (const organizationId of await listSubscriptionsToSettle(deps.db, { today: todayIso(now) })) {
    try {
      if (await settlePlanChange(deps, organizationId)) report.moved++;
    } catch (error) {
      // Stripe down: tried again at the next run; the other organisations go on.
      report.failed++;
      logger.error(`plan change of organisation ${organizationId} not applied`, error);
    }
  }
  return report;
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
  // The operator's word is final: a change in waiting is dropped, and a plan below the usage is granted as asked
  // (creations past its limits are then refused; nothing is removed).
  const row: SubscriptionRow = {
    ...withoutPending(existing),
    plan: params.plan,
    period: null,
    status: params.plan === 'free' ? 'canceled' : 'active',
    source: 'operator',
    current_period_end: params.plan === 'free' ? null : params.until,
    cancel_at_period_end: 0,
    updated_at: nowIso(),
  };
  await saveSubscription(db, row);
  return row;
}
