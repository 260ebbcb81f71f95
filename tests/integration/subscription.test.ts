import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  deliverStripeEvent as deliver,
  organizationIdOf,
  seconds,
  startPlanServers,
  startStripeStub,
  type StripeStub,
  WEBHOOK_SECRET,
} from '../helpers/stripe';
import { newUser, registered, Session } from '../helpers/clients';
import { clock } from '../../src/server/clock';
import { ROLE_REFUSAL } from '../../src/shared/roles';
import { line, readyToInvoice } from '../helpers/documents';
import { defined } from '../../src/shared/defined';

let plain: TestServer; // no payment provider, limits on: the self-hosted default
let paid: TestServer; // Stripe configured (never called: the webhook path only)
beforeAll(async () => {
  ({ plain, paid } = await startPlanServers());
});
afterAll(() => Promise.all([plain.close(), paid.close()]));
afterEach(() => {
  clock.now = () => new Date();
});

const draft = { type: 'invoice', date: new Date().toISOString().slice(0, 10), items: [line('Conseil', 1, 100)] };

describe('plans (GET /api/plans, no session)', () => {
  it('lists free, solo and team with prices HT and TTC and their limits', async () => {
    const answer = await new Session(plain.url).rest('GET', '/api/plans');
    expect(answer.status).toBe(200);
    expect(answer.body.vat_rate).toBe(20);
    expect(answer.body.data.map((p: { id: string }) => p.id)).toEqual(['free', 'solo', 'team']);
    expect(answer.body.data[1]).toMatchObject({
      name: 'Solo',
      prices: { month: { net: 9, vat: 1.8, gross: 10.8 }, year: { net: 90, vat: 18, gross: 108 } },
    });
    expect(answer.body.data[0].limits).toEqual({ documents: 20, members: 1, storage: 100 * 1024 * 1024 });
    expect(answer.body.data[2].limits.documents).toBeNull();
  });
});

describe('limits enforced on the server (402)', () => {
  it('refuses the 21st document of the month on the free plan, naming the limit and the plan that lifts it', async () => {
    const { session } = await registered(plain.url);
    const { customerId } = await readyToInvoice(session);
    const body = { ...draft, customer_id: customerId };
    for (let i = 0; i < 20; i += 1) {
      const created = await session.rest('POST', '/api/documents', body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const refused = await session.rest('POST', '/api/documents', body);
    expect(refused).toMatchObject({
      status: 402,
      body: {
        messages:
          'Limite atteinte : 20 documents créés par mois avec la formule Gratuit. Passez à la formule Solo pour aller au-delà (Paramètres → Gérer mon abonnement).',
      },
    });
    // The same refusal through tRPC; nothing was created.
    await expect(session.trpc().documents.duplicate.mutate({ id: 1 })).rejects.toThrow(/Limite atteinte/);
    expect((await session.rest('GET', '/api/documents?per_page=50')).body.total).toBe(20);
    // Reading, issuing a drafted document and a credit note (the legal record) are never refused.
    const list = (await session.rest('GET', '/api/documents?per_page=1')).body.data;
    const id = list[0].id as number;
    expect((await session.rest('GET', `/api/documents/${id}`)).status).toBe(200);
    const issued = await session.rest('POST', `/api/documents/${id}/issue`);
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect((await session.rest('POST', `/api/documents/${id}/convert`, { type: 'credit' })).status).toBe(201);
    const usage = (await session.rest('GET', '/api/subscription')).body.usage;
    expect(usage.find((u: { key: string }) => u.key === 'documents')).toEqual({ key: 'documents', used: 21, limit: 20 });
    // Upgrading lifts it at once (no payment provider here).
    expect((await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' })).status).toBe(200);
    expect((await session.rest('POST', '/api/documents', body)).status).toBe(201);
  });

  it('refuses a second seat on the free plan (an invitation takes a seat)', async () => {
    const { session } = await registered(plain.url);
    const refused = await session.rest('POST', '/api/members', { email: newUser().email, role: 'member' });
    expect(refused).toMatchObject({
      status: 402,
      body: { messages: expect.stringMatching(/^Limite atteinte : 1 membre au plus avec la formule Gratuit.*Passez à la formule Solo/) },
    });
    expect((await session.rest('GET', '/api/members')).body.invitations).toEqual([]);
  });

  it('frees an invitation’s seat in the usage the moment it expires, with no write in between', async () => {
    clock.now = () => new Date('2026-11-16T10:00:00Z');
    const { session } = await registered(plain.url);
    expect((await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' })).status).toBe(200);
    expect((await session.rest('POST', '/api/members', { email: newUser().email, role: 'member' })).status).toBe(201);
    const seats = async () => {
      const rest = (await session.rest('GET', '/api/subscription')).body.usage.find((u: { key: string }) => u.key === 'members');
      const trpc = (await session.trpc().subscription.get.query()).usage.find((u) => u.key === 'members');
      expect(trpc).toEqual(rest);
      return rest.used as number;
    };
    // The invitation expires on 23 November at 10:00 UTC: read twice that morning (the second answer is the kept one),
    // then a second after it expires, the same Paris day.
    clock.now = () => new Date('2026-11-23T09:00:00Z');
    expect(await seats()).toBe(2);
    expect(await seats()).toBe(2);
    clock.now = () => new Date('2026-11-23T10:00:01Z');
    expect(await seats()).toBe(1);
  });

  it('keeps API keys to Solo and Équipe and webhooks to Équipe (402 naming the plan), nothing created', async () => {
    const { session } = await registered(plain.url);
    const key = await session.rest('POST', '/api/api-keys', { name: 'Comptabilité', scope: 'read' });
    expect(key).toMatchObject({
      status: 402,
      body: {
        messages:
          'Les clés d’API ne sont pas comprises dans la formule Gratuit. Passez à la formule Solo pour en profiter (Paramètres → Gérer mon abonnement).',
      },
    });
    const hook = await session.rest('POST', '/api/webhooks', { url: 'https://exemple.fr/hook', events: ['document.issued'] });
    expect(hook).toMatchObject({
      status: 402,
      body: { messages: expect.stringMatching(/^Les webhooks ne sont pas compris dans la formule Gratuit\. Passez à la formule Équipe/) },
    });
    expect((await session.rest('GET', '/api/api-keys')).body.data).toEqual([]);
    expect((await session.rest('GET', '/api/webhooks')).body.data).toEqual([]);
    // Solo opens the API (applied at once without a payment provider), not the webhooks.
    expect((await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' })).status).toBe(200);
    expect((await session.rest('POST', '/api/api-keys', { name: 'Comptabilité', scope: 'read' })).status).toBe(201);
    expect((await session.rest('POST', '/api/webhooks', { url: 'https://exemple.fr/hook', events: ['document.issued'] })).status).toBe(402);
  });

  it('PLAN_LIMITS=off lifts every limit', async () => {
    const open = await startTestServer({ env: { PLAN_LIMITS: 'off' } });
    try {
      const { session } = await registered(open.url);
      expect((await session.rest('POST', '/api/members', { email: newUser().email, role: 'member' })).status).toBe(201);
      expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({ plan: 'free', limits_enforced: false });
    } finally {
      await open.close();
    }
  });
});

describe('choosing a plan without a payment provider', () => {
  it('applies a larger plan at once, a smaller one at the period’s end, and cancels at the period’s end', async () => {
    clock.now = () => new Date('2026-11-23T10:00:00Z');
    const { session, user } = await registered(plain.url);
    // Sessions slide for 30 days: after each jump in time, log in again.
    const relogin = () => session.rest('POST', '/api/auth/login', { email: user.email, password: user.password });
    const up = await session.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' });
    expect(up).toMatchObject({
      status: 200,
      body: {
        messages: 'Formule Équipe activée',
        url: null,
        data: { plan: 'team', period: 'month', current_period_end: '2026-12-23', source: 'local' },
      },
    });
    const down = await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    expect(down.body).toMatchObject({
      messages: 'Le passage à la formule Solo prendra effet le 23 décembre 2026',
      data: { plan: 'team', pending_plan: 'solo' },
    });
    clock.now = () => new Date('2026-12-24T10:00:00Z');
    await relogin();
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({
      plan: 'solo',
      pending_plan: null,
      current_period_end: '2027-01-23',
    });
    const cancel = await session.rest('POST', '/api/subscription/cancel');
    expect(cancel).toMatchObject({
      status: 200,
      body: { messages: 'Abonnement résilié : la formule Solo reste active jusqu’au 23 janvier 2027' },
    });
    expect((await session.rest('POST', '/api/subscription/cancel')).status).toBe(409);
    clock.now = () => new Date('2027-01-24T10:00:00Z');
    await relogin();
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({ plan: 'free', current_period_end: null });
  });

  it('refuses an unknown plan, a free “checkout” and the same plan twice — nothing changed', async () => {
    const { session } = await registered(plain.url);
    const unknown = await session.rest('POST', '/api/subscription/checkout', { plan: 'platine' });
    expect(unknown).toMatchObject({ status: 400, body: { messages: 'Formule inconnue : choisissez Gratuit, Solo ou Équipe' } });
    const free = await session.rest('POST', '/api/subscription/checkout', { plan: 'free' });
    expect(free).toMatchObject({ status: 409, body: { messages: 'Vous êtes déjà sur la formule Gratuit' } });
    await session.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'year' });
    const twice = await session.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'year' });
    expect(twice).toMatchObject({ status: 409, body: { messages: 'Vous avez déjà la formule Équipe (annuelle)' } });
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({ plan: 'team', period: 'year', pending_plan: null });
  });

  it('only owners change the plan; every role reads it and its invoices', async () => {
    const { session: owner } = await registered(plain.url);
    await owner.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' });
    const organizationId = await organizationIdOf(owner);
    for (const role of ['admin', 'member', 'accountant'] as const) {
      const { session, profile } = await registered(plain.url);
      await withServerDb(plain, (db) =>
        db
          .insertInto('memberships')
          .values({ user_id: profile.id, organization_id: organizationId, role, created_at: new Date().toISOString() })
          .execute(),
      );
      await session.rest('POST', `/api/organizations/${organizationId}/switch`);
      expect((await session.rest('GET', '/api/subscription')).body.plan).toBe('team');
      const refused = await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
      expect(refused).toMatchObject({ status: 403, body: { messages: ROLE_REFUSAL } });
      expect((await session.rest('POST', '/api/subscription/cancel')).status).toBe(403);
      expect((await session.rest('POST', '/api/subscription/change/cancel')).status).toBe(403);
      expect((await session.rest('GET', '/api/subscription/invoices')).status).toBe(200);
    }
    expect((await owner.rest('GET', '/api/subscription')).body).toMatchObject({
      plan: 'team',
      cancel_at_period_end: false,
      pending_plan: null,
    });
  });
});

describe('Stripe webhooks, signed locally', () => {
  it('applies created, renewed, payment failed and cancelled, each once', async () => {
    const { session } = await registered(paid.url);
    const org = await organizationIdOf(session);
    const metadata = { organization_id: String(org), plan: 'solo', period: 'month' };
    const subscription = (status: string, end: string, extra: Record<string, unknown> = {}) => ({
      id: `sub_${org}`,
      object: 'subscription',
      customer: `cus_${org}`,
      status,
      metadata,
      cancel_at_period_end: false,
      items: { object: 'list', data: [{ id: 'si_1', current_period_end: seconds(end), price: { recurring: { interval: 'month' } } }] },
      ...extra,
    });
    const invoice = (id: string, end: string, status: string) => ({
      id,
      object: 'invoice',
      number: `FACT-${id}`,
      customer: `cus_${org}`,
      created: seconds('2026-11-23T10:00:00Z'),
      currency: 'eur',
      status,
      total: 1080,
      total_excluding_tax: 900,
      invoice_pdf: `https://pay.stripe.com/invoice/${id}/pdf`,
      parent: { subscription_details: { subscription: `sub_${org}`, metadata } },
      lines: { object: 'list', data: [{ period: { start: seconds('2026-11-23T00:00:00Z'), end: seconds(end) } }] },
    });

    const checkout = {
      id: 'cs_1',
      object: 'checkout.session',
      client_reference_id: String(org),
      customer: `cus_${org}`,
      subscription: `sub_${org}`,
      metadata,
    };
    expect(await deliver(paid, `evt_a${org}`, 'checkout.session.completed', checkout)).toEqual({
      status: 200,
      body: { received: true, duplicate: false },
    });
    expect(
      await deliver(paid, `evt_b${org}`, 'customer.subscription.created', subscription('active', '2026-12-23T10:00:00Z')),
    ).toMatchObject({ status: 200 });
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({
      plan: 'solo',
      period: 'month',
      status: 'active',
      source: 'stripe',
      current_period_end: '2026-12-23',
      provider: 'stripe',
    });

    // Renewed: the invoice is kept (downloadable from Stripe), the period moves on.
    expect(await deliver(paid, `evt_c${org}`, 'invoice.paid', invoice(`in_1_${org}`, '2027-01-23T10:00:00Z', 'paid'))).toMatchObject({
      status: 200,
    });
    const again = await deliver(paid, `evt_c${org}`, 'invoice.paid', invoice(`in_1_${org}`, '2027-01-23T10:00:00Z', 'paid'));
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect((await session.rest('GET', '/api/subscription')).body.current_period_end).toBe('2027-01-23');
    const invoices = (await session.rest('GET', '/api/subscription/invoices')).body;
    expect(invoices).toEqual({
      total: 1,
      data: [
        {
          id: expect.any(Number),
          number: `FACT-in_1_${org}`,
          date: '2026-11-23',
          plan: 'solo',
          period: 'month',
          amount_net: 9,
          amount_vat: 1.8,
          amount_total: 10.8,
          currency: 'EUR',
          status: 'paid',
          pdf_url: `https://pay.stripe.com/invoice/in_1_${org}/pdf`,
        },
      ],
    });

    // Payment failed: past due, the plan kept while Stripe retries.
    await deliver(paid, `evt_d${org}`, 'invoice.payment_failed', invoice(`in_2_${org}`, '2027-02-23T10:00:00Z', 'open'));
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({
      plan: 'solo',
      status: 'past_due',
      current_period_end: '2027-01-23',
    });
    expect((await session.rest('GET', '/api/subscription/invoices')).body.data[0]).toMatchObject({ status: 'failed' });

    // Cancelled at the period's end, then deleted by Stripe: back to the free plan.
    await deliver(
      paid,
      `evt_e${org}`,
      'customer.subscription.updated',
      subscription('active', '2027-01-23T10:00:00Z', { cancel_at_period_end: true }),
    );
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({
      plan: 'solo',
      status: 'active',
      cancel_at_period_end: true,
    });
    await deliver(paid, `evt_f${org}`, 'customer.subscription.deleted', subscription('canceled', '2027-01-23T10:00:00Z'));
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({
      plan: 'free',
      status: 'canceled',
      current_period_end: null,
    });
  });

  it('refuses a forged signature, an old (replayed) timestamp and an unsigned body, changing nothing', async () => {
    const { session } = await registered(paid.url);
    const org = await organizationIdOf(session);
    const checkout = {
      id: 'cs_x',
      object: 'checkout.session',
      customer: 'cus_x',
      subscription: 'sub_x',
      metadata: { organization_id: String(org), plan: 'team', period: 'year' },
    };
    expect(await deliver(paid, `evt_forged${org}`, 'checkout.session.completed', checkout, { secret: 'whsec_not_ours' })).toEqual({
      status: 400,
      body: { messages: 'Événement Stripe refusé : signature invalide' },
    });
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    expect(await deliver(paid, `evt_old${org}`, 'checkout.session.completed', checkout, { timestamp: hourAgo })).toEqual({
      status: 400,
      body: { messages: 'Événement Stripe refusé : sa signature est trop ancienne (rejeu ?)' },
    });
    const unsigned = await fetch(`${paid.url}/api/stripe/webhook`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toEqual({ messages: 'Signature Stripe absente (en-tête Stripe-Signature)' });
    expect((await session.rest('GET', '/api/subscription')).body.plan).toBe('free');
    // Without a provider the path does not exist.
    expect((await fetch(`${plain.url}/api/stripe/webhook`, { method: 'POST', body: '{}' })).status).toBe(404);
  });
});

describe('npm run plan (operator)', () => {
  const run = promisify(execFile);
  // As `npm run plan` runs it (tsx), without npx's own start-up.
  const plan = (server: TestServer, ...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'scripts/plan.ts', ...args], {
      env: { ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir },
    });

  it('grants a plan until a date, which then ends by itself', async () => {
    const { session } = await registered(plain.url);
    const org = await organizationIdOf(session);
    const until = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const { stdout } = await plan(plain, '--org', String(org), '--plan', 'team', '--until', until);
    expect(stdout.trim()).toMatch(new RegExp(`^Organisation n° ${org} : formule Équipe jusqu’au \\d+ \\S+ \\d{4} inclus\\.$`));
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({
      plan: 'team',
      source: 'operator',
      current_period_end: until,
    });
    clock.now = () => new Date(Date.now() + 7 * 86_400_000);
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({ plan: 'free' });
  });

  it('refuses an unknown plan, a past date and an unknown organisation (exit code 2)', async () => {
    const { session } = await registered(plain.url);
    const org = String(await organizationIdOf(session));
    await expect(plan(plain, '--org', org, '--plan', 'platine', '--until', '2099-01-01')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--plan : formule inconnue « platine » (free, solo ou team)'),
    });
    await expect(plan(plain, '--org', org, '--plan', 'solo', '--until', '2020-01-01')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--until : la date 2020-01-01 est déjà passée'),
    });
    await expect(plan(plain, '--org', '999999', '--plan', 'solo', '--until', '2099-01-01')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Aucune organisation n° 999999 dans cette base'),
    });
    expect((await session.rest('GET', '/api/subscription')).body.plan).toBe('free');
  });
});

describe('Stripe checkout through the provider interface (a local stub stands for Stripe’s API)', () => {
  let stub: StripeStub;
  let server: TestServer;

  beforeAll(async () => {
    stub = await startStripeStub();
    server = await startTestServer({
      env: {
        PLAN_LIMITS: 'on',
        STRIPE_SECRET_KEY: 'sk_test_stub',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: stub.url,
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await stub.close();
  });

  it('opens a Checkout Session priced HT, then the Customer Portal once subscribed, and cancels at the period’s end', async () => {
    const { session, user } = await registered(server.url);
    const org = await organizationIdOf(session);
    const checkout = await session.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'year' });
    expect(checkout).toMatchObject({
      status: 200,
      body: {
        messages: 'Redirection vers la page de paiement sécurisée',
        url: 'https://checkout.stripe.com/c/pay/cs_1',
        data: { plan: 'free' },
      },
    });
    const created = defined(
      stub.seen.find((r) => r.path === '/v1/checkout/sessions'),
      'checkout request',
    );
    expect(Object.fromEntries(created.body)).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '9000',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][tax_behavior]': 'exclusive',
      'line_items[0][price_data][recurring][interval]': 'year',
      'subscription_data[metadata][organization_id]': String(org),
      'subscription_data[metadata][plan]': 'solo',
      customer_email: user.email,
    });

    await deliver(server, `evt_stub${org}`, 'checkout.session.completed', {
      id: 'cs_1',
      object: 'checkout.session',
      customer: 'cus_stub',
      subscription: 'sub_stub',
      metadata: { organization_id: String(org), plan: 'solo', period: 'year' },
    });
    const change = await session.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'year' });
    expect(change.body).toMatchObject({ url: 'https://billing.stripe.com/p/session/bps_1', data: { plan: 'solo' } });
    expect(Object.fromEntries(defined(stub.seen.find((r) => r.path === '/v1/billing_portal/sessions')).body)).toMatchObject({
      customer: 'cus_stub',
    });

    expect((await session.rest('POST', '/api/subscription/cancel')).status).toBe(200);
    const cancelled = defined(
      stub.seen.find((r) => r.path === '/v1/subscriptions/sub_stub'),
      'cancel request',
    );
    expect(cancelled.body.get('cancel_at_period_end')).toBe('true');
    expect((await session.rest('GET', '/api/subscription')).body).toMatchObject({ plan: 'solo', cancel_at_period_end: true });
  });

  it('answers 503 when Stripe does not answer, and changes nothing', async () => {
    const { session } = await registered(server.url);
    stub.failing = true;
    try {
      const refused = await session.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' });
      expect(refused).toMatchObject({
        status: 503,
        body: { messages: 'Le service de paiement ne répond pas : réessayez dans quelques minutes, rien n’a été changé.' },
      });
    } finally {
      stub.failing = false;
    }
    expect((await session.rest('GET', '/api/subscription')).body.plan).toBe('free');
  });
});
