import { describe, expect, it } from 'vitest';
import { formatLimit, limitRefusal, planPrice, planThatLifts, PLANS, yearlySaving } from '../../src/shared/plans';
import { periodEnd, planOf, rollOver } from '../../src/server/services/subscriptions';
import type { SubscriptionRow } from '../../src/server/db/queries/subscriptions';

const row = (over: Partial<SubscriptionRow>): SubscriptionRow => ({
  organization_id: 1,
  plan: 'solo',
  period: 'month',
  status: 'active',
  source: 'local',
  current_period_end: '2026-12-23',
  cancel_at_period_end: 0,
  pending_plan: null,
  pending_period: null,
  pending_since: null,
  pending_deadline: null,
  stripe_customer_id: null,
  stripe_subscription_id: null,
  updated_at: '2026-11-23T00:00:00.000Z',
  ...over,
});

describe('plans (src/shared/plans.ts)', () => {
  it('prices HT with 20 % VAT, exactly, and the yearly saving', () => {
    expect(planPrice(PLANS.team, 'month')).toEqual({ net: 29, vat: 5.8, gross: 34.8 });
    expect(planPrice(PLANS.solo, 'year')).toEqual({ net: 90, vat: 18, gross: 108 });
    expect(yearlySaving(PLANS.team)).toBe(58);
  });

  it('names the cheapest plan above the limit, never the plan already held', () => {
    expect(planThatLifts('documents', 20)?.id).toBe('solo');
    expect(planThatLifts('documents', 500)?.id).toBe('team');
    expect(planThatLifts('members', 10)).toBeUndefined();
    expect(limitRefusal('storage', PLANS.free, 100 * 1024 * 1024)).toBe(
      'Limite atteinte : 100 Mo de justificatifs au plus avec la formule Gratuit. Passez à la formule Solo pour aller au-delà (Paramètres → Gérer mon abonnement).',
    );
    expect(limitRefusal('members', PLANS.team, 10)).toBe(
      'Limite atteinte : 10 membres au plus avec la formule Équipe (invitations en attente comprises).',
    );
    expect(formatLimit('storage', 2048 * 1024 * 1024)).toBe('2 Go');
  });
});

describe('a subscription over time (rollOver)', () => {
  it('renews a plan chosen without provider, taking the change scheduled for the period’s end', () => {
    expect(rollOver(row({}), '2026-12-23')?.plan).toBe('solo');
    expect(rollOver(row({ pending_plan: 'team', pending_period: 'year' }), '2026-12-24')).toMatchObject({
      plan: 'team',
      period: 'year',
      pending_plan: null,
      current_period_end: '2027-12-23',
    });
    expect(periodEnd('2026-01-31', 'month')).toBe('2026-02-28');
  });

  it('ends a cancelled or operator-granted plan after its last day; Stripe’s move only with its events', () => {
    expect(planOf(rollOver(row({ cancel_at_period_end: 1 }), '2026-12-24'))).toBe('free');
    expect(planOf(rollOver(row({ source: 'operator', period: null }), '2026-12-24'))).toBe('free');
    expect(planOf(rollOver(row({ source: 'stripe', status: 'past_due' }), '2027-02-01'))).toBe('solo');
    expect(planOf(row({ source: 'stripe', status: 'canceled' }))).toBe('free');
  });

  it('keeps the current plan past its period while a smaller plan (or Gratuit after a cancellation) does not fit', () => {
    const exceeds = () => false;
    expect(rollOver(row({ plan: 'team', pending_plan: 'solo', pending_period: 'month' }), '2026-12-24', exceeds)).toMatchObject({
      plan: 'team',
      pending_plan: 'solo',
      current_period_end: '2026-12-23',
    });
    expect(planOf(rollOver(row({ cancel_at_period_end: 1 }), '2026-12-24', exceeds))).toBe('solo');
    // Before the period's end nothing moves, even when it fits.
    expect(rollOver(row({ plan: 'team', pending_plan: 'solo' }), '2026-12-20')?.plan).toBe('team');
  });

  it('applies a smaller plan Stripe already bills as soon as it fits, and after its deadline whatever the usage', () => {
    const billed = row({ source: 'stripe', plan: 'team', pending_plan: 'solo', pending_deadline: '2026-12-23' });
    expect(rollOver(billed, '2026-12-20', () => false)?.plan).toBe('team');
    expect(rollOver(billed, '2026-12-20')).toMatchObject({ plan: 'solo', pending_plan: null, pending_deadline: null });
    expect(rollOver(billed, '2026-12-24', () => false)?.plan).toBe('solo');
    // Asked for in the app: only Stripe's switch applies it (settlePlanChange), never the mere passing of time.
    expect(rollOver({ ...billed, pending_deadline: null }, '2027-02-01')?.plan).toBe('team');
  });
});
