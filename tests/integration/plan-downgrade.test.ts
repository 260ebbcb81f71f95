import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestServer } from '../helpers/server';
import { deliverStripeEvent, organizationIdOf, seconds, startPlanServers, startStripeStub, type StripeStub } from '../helpers/stripe';
import { newUser, registered, type Session } from '../helpers/clients';
import { clock } from '../../src/server/clock';
import { line, readyToInvoice } from '../helpers/documents';
import { settlePlans } from '../../src/server/scheduler/jobs';
import { emitEvent } from '../../src/server/services/webhooks';
import { deliverDue } from '../../src/server/services/webhook-delivery';

/*
 * A downgrade below current usage is explained and takes effect when the usage fits: the smaller plan is recorded
 * as pending, shown with what exceeds it, applied once the usage fits (at the period's end at the earliest for a plan
 * of ours; as soon as it fits, and at the latest at the period's end, for one Stripe already bills), and cancellable.
 */

let plain: TestServer;
let paid: TestServer;
let stub: StripeStub;
beforeAll(async () => {
  stub = await startStripeStub();
  ({ plain, paid } = await startPlanServers({ stripeApiBase: stub.url }));
});
afterAll(async () => {
  await Promise.all([plain.close(), paid.close()]);
  await stub.close();
});
afterEach(() => {
  clock.now = () => new Date();
});

const subscription = async (session: Session) => (await session.rest('GET', '/api/subscription')).body;
const invite = (session: Session) => session.rest('POST', '/api/members', { email: newUser().email, role: 'member' });
const firstInvitation = async (session: Session) => (await session.rest('GET', '/api/members')).body.invitations[0].id as number;

const SOLO_SEATS =
  'La formule Solo permet 2 membres ; vous en êtes à 3 (invitations en attente comprises). Retirez des membres ou révoquez des invitations.';

describe('a smaller plan below the usage, without a payment provider', () => {
  it('is recorded and explained, waits past the period’s end while the usage exceeds it, and applies once a seat is freed', async () => {
    clock.now = () => new Date('2026-11-23T10:00:00Z');
    const { session, user } = await registered(plain.url);
    const relogin = () => session.rest('POST', '/api/auth/login', { email: user.email, password: user.password });
    await session.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' });
    const hook = (await session.rest('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['expense.created'] })).body.data;
    // Invitations last a week: taken a few days before the period's end, they still count after it.
    clock.now = () => new Date('2026-12-20T10:00:00Z');
    await relogin();
    await invite(session);
    await invite(session);

    const down = await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    expect(down).toMatchObject({
      status: 200,
      body: {
        messages: `Le passage à la formule Solo est enregistré : il prendra effet le 23 décembre 2026 si votre usage tient alors dans ses limites, sinon dès qu’il y tiendra. ${SOLO_SEATS}`,
        url: null,
        data: { plan: 'team', pending_plan: 'solo', pending_period: 'month', pending_blockers: [SOLO_SEATS] },
      },
    });
    const pending = await subscription(session);
    expect(pending.pending_since).toBe('2026-12-20T10:00:00.000Z');
    expect(pending.pending_losses).toEqual([
      '1 webhook : hors de la formule Solo, plus aucun événement n’est envoyé (conservé, de nouveau actif avec la formule Équipe).',
    ]);

    // The period ended, the usage still exceeds Solo: Équipe goes on, unrenewed.
    clock.now = () => new Date('2026-12-24T10:00:00Z');
    await relogin();
    expect(await subscription(session)).toMatchObject({ plan: 'team', current_period_end: '2026-12-23', pending_plan: 'solo' });

    const revoked = await session.rest('DELETE', `/api/members/invitations/${await firstInvitation(session)}`);
    expect(revoked).toMatchObject({ status: 200, body: { messages: 'Invitation révoquée. La formule Solo s’applique désormais' } });
    const after = await subscription(session);
    expect(after).toMatchObject({
      plan: 'solo',
      period: 'month',
      current_period_end: '2027-01-23',
      pending_plan: null,
      pending_blockers: [],
    });
    expect(after.dormant).toEqual([
      '1 webhook : hors de la formule Solo, plus aucun événement n’est envoyé (conservé, de nouveau actif avec la formule Équipe).',
    ]);

    // The webhook is kept, not sent: its log says why; its test ping is refused with 402 naming the plan.
    expect((await session.rest('GET', '/api/webhooks')).body.data).toHaveLength(1);
    const db = plain.app.deps.db;
    await emitEvent(db, await organizationIdOf(session), 'expense.created', { id: 1 });
    await deliverDue(db, clock.now(), { allowPrivate: true, planLimits: true });
    // The event also woke the server's own dispatcher, which may hold the delivery (claimed) while this run skips it:
    // its attempt is read once it is written (on PostgreSQL the two run side by side, SQLite's one connection orders them).
    const log = await vi.waitFor(
      async () => {
        const data = (await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data;
        if (data[0]?.status === 'pending') throw new Error('the delivery is still being attempted');
        return data;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(log[0]).toMatchObject({
      status: 'failed',
      error:
        'Non envoyé : Les webhooks ne sont pas compris dans la formule Solo. Passez à la formule Équipe pour en profiter (Paramètres → Gérer mon abonnement).',
    });
    expect((await session.rest('GET', '/api/webhooks')).body.data[0]).toMatchObject({ enabled: true });
    expect(await session.rest('POST', `/api/webhooks/${hook.id}/test`)).toMatchObject({
      status: 402,
      body: { messages: expect.stringMatching(/^Les webhooks ne sont pas compris dans la formule Solo\./) },
    });
  });

  it('can be cancelled (then nothing is pending), and the scheduler’s job applies it when the usage fits', async () => {
    clock.now = () => new Date('2026-11-23T10:00:00Z');
    const { session, user } = await registered(plain.url);
    const relogin = () => session.rest('POST', '/api/auth/login', { email: user.email, password: user.password });
    await session.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' });
    clock.now = () => new Date('2026-12-20T10:00:00Z');
    await relogin();
    await invite(session);
    await invite(session);
    await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    expect(await session.rest('POST', '/api/subscription/change/cancel')).toMatchObject({
      status: 200,
      body: { messages: 'Changement annulé : vous gardez la formule Équipe' },
    });
    expect(await subscription(session)).toMatchObject({ plan: 'team', pending_plan: null, pending_blockers: [] });
    expect(await session.rest('POST', '/api/subscription/change/cancel')).toMatchObject({
      status: 409,
      body: { messages: 'Aucun changement de formule en attente' },
    });

    // Choosing the current plan again while a smaller one waits keeps the current plan, too.
    await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    expect(await session.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' })).toMatchObject({
      status: 200,
      body: {
        messages: 'Changement annulé : vous gardez la formule Équipe',
        data: { plan: 'team', pending_plan: null, current_period_end: '2026-12-23' },
      },
    });
    await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    clock.now = () => new Date('2026-12-24T10:00:00Z');
    const db = plain.app.deps.db;
    // The seat freed outside the app (an invitation expired, a member removed by support): the hourly job sees it.
    await db
      .updateTable('invitations')
      .set({ revoked_at: '2026-12-24T09:00:00.000Z' })
      .where('organization_id', '=', await organizationIdOf(session))
      .where('id', '=', await firstInvitation(session))
      .execute();
    expect(await settlePlans(db, clock.now(), plain.app.deps)).toMatch(/^[1-9]\d* changements? de formule appliqués?/);
    const stored = await db
      .selectFrom('subscriptions')
      .select(['plan', 'pending_plan'])
      .where('organization_id', '=', await organizationIdOf(session))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ plan: 'solo', pending_plan: null });
    await relogin();
    expect(await subscription(session)).toMatchObject({ plan: 'solo', current_period_end: '2027-01-23' });
  });

  it('a cancellation with more documents this month than Gratuit allows waits for the next month’s count', async () => {
    clock.now = () => new Date('2026-11-05T10:00:00Z');
    const { session, user } = await registered(plain.url);
    const relogin = () => session.rest('POST', '/api/auth/login', { email: user.email, password: user.password });
    await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    clock.now = () => new Date('2026-12-02T10:00:00Z');
    await relogin();
    const { customerId } = await readyToInvoice(session);
    for (let i = 0; i < 21; i += 1) {
      const created = await session.rest('POST', '/api/documents', {
        type: 'invoice',
        date: '2026-12-02',
        customer_id: customerId,
        items: [line('Conseil', 1, 100)],
      });
      expect(created.status).toBe(201);
    }
    const cancel = await session.rest('POST', '/api/subscription/cancel');
    expect(cancel.body.messages).toBe(
      'Abonnement résilié : la formule Solo reste active jusqu’au 5 décembre 2026, puis tant que votre usage dépassera les limites de la formule Gratuit (voir Gérer mon abonnement).',
    );
    expect((await subscription(session)).pending_blockers).toEqual([
      'La formule Gratuit permet 20 documents créés par mois ; vous en êtes à 21 ce mois-ci. Le compte repart de zéro le 1er du mois.',
    ]);
    clock.now = () => new Date('2026-12-20T10:00:00Z');
    await relogin();
    expect(await subscription(session)).toMatchObject({ plan: 'solo', cancel_at_period_end: true });
    // 1 January in Paris: the month's count starts again, Gratuit fits.
    clock.now = () => new Date('2027-01-01T08:00:00Z');
    await relogin();
    expect(await subscription(session)).toMatchObject({ plan: 'free', current_period_end: null, pending_blockers: [] });
  });

  it('API keys kept on Gratuit still read and export, but their writes get a 402 naming the plan', async () => {
    clock.now = () => new Date('2026-11-23T10:00:00Z');
    const { session, user } = await registered(plain.url);
    await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    const { secret } = (await session.rest('POST', '/api/api-keys', { name: 'Comptabilité', scope: 'write' })).body.data;
    const bearer = { authorization: `Bearer ${secret}` };
    expect((await session.rest('POST', '/api/customers', { name: 'Avant' }, bearer)).status).toBe(201);
    await session.rest('POST', '/api/subscription/cancel');
    clock.now = () => new Date('2026-12-24T10:00:00Z');
    await session.rest('POST', '/api/auth/login', { email: user.email, password: user.password });
    expect(await subscription(session)).toMatchObject({
      plan: 'free',
      dormant: [
        '1 clé d’API : hors de la formule Gratuit, elle ne peut plus que lire et exporter (conservée, utilisable de nouveau avec la formule Solo ou Équipe).',
      ],
    });
    expect(await session.rest('GET', '/api/customers', undefined, bearer)).toMatchObject({ status: 200, body: { total: 1 } });
    expect(await session.rest('POST', '/api/customers', { name: 'Après' }, bearer)).toMatchObject({
      status: 402,
      body: {
        messages:
          'Les clés d’API ne sont pas comprises dans la formule Gratuit. Passez à la formule Solo pour en profiter (Paramètres → Gérer mon abonnement).',
      },
    });
    expect((await session.rest('GET', '/api/customers')).body.total).toBe(1);
    expect((await session.rest('GET', '/api/api-keys')).body.data).toHaveLength(1);
  });
});

const deliver = (id: string, type: string, object: Record<string, unknown>) => deliverStripeEvent(paid, id, type, object);

/** An organisation on Équipe through Stripe (checkout completed), with three seats taken. */
async function stripeTeam() {
  const { session, user } = await registered(paid.url);
  const org = await organizationIdOf(session);
  await deliver(`evt_co_${org}`, 'checkout.session.completed', {
    id: `cs_${org}`,
    object: 'checkout.session',
    customer: `cus_${org}`,
    subscription: `sub_${org}`,
    metadata: { organization_id: String(org), plan: 'team', period: 'month' },
  });
  await deliver(`evt_cr_${org}`, 'customer.subscription.created', stripeSubscription(org, 2900));
  await invite(session);
  await invite(session);
  return { session, user, org };
}

/** The subscription as Stripe sends it; the portal changes its price, never our checkout's metadata. */
function stripeSubscription(org: number, cents: number) {
  return {
    id: `sub_${org}`,
    object: 'subscription',
    customer: `cus_${org}`,
    status: 'active',
    metadata: { organization_id: String(org), plan: 'team', period: 'month' },
    cancel_at_period_end: false,
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          current_period_end: seconds('2026-12-23T10:00:00Z'),
          price: { unit_amount: cents, recurring: { interval: 'month' } },
        },
      ],
    },
  };
}

describe('a smaller plan below the usage, through Stripe', () => {
  it('chosen on Stripe’s portal: Équipe kept while the usage exceeds Solo, Solo as soon as it fits; not cancellable here', async () => {
    // Before the period's end Stripe sends (23 December), whatever day the tests run.
    clock.now = () => new Date('2026-12-20T10:00:00Z');
    const { session, org } = await stripeTeam();
    expect(await deliver(`evt_down_${org}`, 'customer.subscription.updated', stripeSubscription(org, 900))).toMatchObject({ status: 200 });
    expect(await subscription(session)).toMatchObject({
      plan: 'team',
      pending_plan: 'solo',
      pending_deadline: '2026-12-23',
      pending_blockers: [SOLO_SEATS],
    });
    expect(await session.rest('POST', '/api/subscription/change/cancel')).toMatchObject({
      status: 409,
      body: {
        messages:
          'Ce changement a été fait sur la page de paiement Stripe, qui facture déjà la formule Solo : revenez-y pour garder la formule Équipe.',
      },
    });
    const revoked = await session.rest('DELETE', `/api/members/invitations/${await firstInvitation(session)}`);
    expect(revoked.body.messages).toBe('Invitation révoquée. La formule Solo s’applique désormais');
    expect(await subscription(session)).toMatchObject({ plan: 'solo', pending_plan: null, source: 'stripe' });
  });

  it('chosen on Stripe’s portal: Solo applies after the period Stripe already billed, even if the usage still exceeds it', async () => {
    // Invitations last a week: taken a few days before the period's end, they still count after it.
    clock.now = () => new Date('2026-12-20T10:00:00Z');
    const { session, user, org } = await stripeTeam();
    await deliver(`evt_down_${org}`, 'customer.subscription.updated', stripeSubscription(org, 900));
    expect((await subscription(session)).plan).toBe('team');
    clock.now = () => new Date('2026-12-24T10:00:00Z');
    await session.rest('POST', '/api/auth/login', { email: user.email, password: user.password });
    expect(await subscription(session)).toMatchObject({ plan: 'solo', pending_plan: null });
    // Over Solo's seats now: a new one is refused (402), nobody is removed.
    expect((await invite(session)).status).toBe(402);
    expect((await session.rest('GET', '/api/members')).body.invitations).toHaveLength(2);
  });

  it('asked for here: recorded without opening the portal; Stripe is switched once a seat is freed', async () => {
    const { session, org } = await stripeTeam();
    stub.seen.length = 0;
    const down = await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    expect(down).toMatchObject({
      status: 200,
      body: {
        messages: `Le passage à la formule Solo est enregistré : il prendra effet dès que votre usage tiendra dans ses limites. ${SOLO_SEATS}`,
        url: null,
        data: { plan: 'team', pending_plan: 'solo', pending_deadline: null },
      },
    });
    expect(stub.seen).toEqual([]);
    await session.rest('DELETE', `/api/members/invitations/${await firstInvitation(session)}`);
    expect(stub.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/subscriptions/sub_${org}`,
      'POST /v1/prices',
      `POST /v1/subscriptions/sub_${org}`,
    ]);
    expect(Object.fromEntries(stub.seen[1]?.body ?? [])).toMatchObject({
      unit_amount: '900',
      'recurring[interval]': 'month',
      'metadata[plan]': 'solo',
    });
    expect(Object.fromEntries(stub.seen[2]?.body ?? [])).toMatchObject({
      'items[0][id]': 'si_1',
      'items[0][price]': 'price_new',
      'metadata[plan]': 'solo',
    });
    expect(await subscription(session)).toMatchObject({ plan: 'solo', pending_plan: null });
    // Stripe's own event for that update changes nothing more.
    await deliver(`evt_after_${org}`, 'customer.subscription.updated', {
      ...stripeSubscription(org, 900),
      metadata: { organization_id: String(org), plan: 'solo', period: 'month' },
    });
    expect(await subscription(session)).toMatchObject({ plan: 'solo', pending_plan: null });
  });
});
