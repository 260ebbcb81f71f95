import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ROLE_REFUSAL } from '../../src/shared/roles';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { deliverStripeEvent, organizationIdOf, startStripeStub, type StripeStub } from '../helpers/stripe';

/**
 * Card payment on an invoice's public page, through the organisation's own Stripe account: the real server, a local
 * stub standing for Stripe's API (STRIPE_API_BASE), and Stripe events signed locally as Stripe signs them.
 */
let stub: StripeStub;
let server: TestServer;
beforeAll(async () => {
  stub = await startStripeStub();
  server = await startTestServer({ env: { STRIPE_API_BASE: stub.url } });
});
afterAll(async () => {
  await server.close();
  await stub.close();
});

const KEYS = {
  publishable_key: 'pk_test_51AtelierFontaine',
  secret_key: 'sk_test_51AtelierFontaineSecret',
  webhook_secret: 'whsec_AtelierFontaineSigning',
};

async function seller(): Promise<{ owner: Session; organizationId: number; customerId: number }> {
  const { session: owner } = await registered(server.url);
  const { customerId } = await readyToInvoice(owner);
  return { owner, organizationId: await organizationIdOf(owner), customerId };
}

/** An issued invoice of 540 € TTC (3 × 150 HT, VAT 20 %). */
const invoice540 = (owner: Session, customerId: number) => issued(owner, { customer_id: customerId, items: [line('Conseil', 3, 150)] });

/** The customer, on the invoice's public page: no session. */
function anonymous() {
  return {
    share: async (uuid: string) => {
      const response = await fetch(`${server.url}/api/share/${uuid}`);
      return { status: response.status, body: await response.json() };
    },
    checkout: async (uuid: string) => {
      const response = await fetch(`${server.url}/api/share/${uuid}/checkout`, { method: 'POST' });
      return { status: response.status, body: await response.json() };
    },
  };
}

/** A paid Checkout Session as Stripe sends it in checkout.session.completed. */
const paidSession = (id: string, amountTotal: number, extra: Record<string, unknown> = {}) => ({
  id,
  object: 'checkout.session',
  mode: 'payment',
  payment_status: 'paid',
  status: 'complete',
  amount_total: amountTotal,
  currency: 'eur',
  payment_intent: `pi_${id}`,
  ...extra,
});

const sendEvent = (organizationId: number, id: string, object: Record<string, unknown>, opts: { type?: string; secret?: string } = {}) =>
  deliverStripeEvent(server, id, opts.type ?? 'checkout.session.completed', object, {
    secret: opts.secret ?? KEYS.webhook_secret,
    path: `/api/stripe/webhook/${organizationId}`,
  });

async function cardPaymentsOf(documentId: number) {
  return server.app.deps.db
    .selectFrom('payments')
    .select(['amount', 'method', 'reference', 'fee', 'fee_currency'])
    .where('document_id', '=', documentId)
    .where('method', '=', 'card')
    .execute();
}

describe('Paramètres → Paiement en ligne', () => {
  it('keeps the keys, answers none of the secrets, and says the webhook address to give Stripe', async () => {
    const { owner, organizationId } = await seller();
    const empty = await owner.rest('GET', '/api/settings/online-payment');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ enabled: false, publishable_key: '', secret_key_set: false, webhook_secret_set: false, mode: null });

    const saved = await owner.rest('PUT', '/api/settings/online-payment', KEYS);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.messages).toBe('Mise à jour avec succès');
    const read = await owner.rest('GET', '/api/settings/online-payment');
    expect(read.body).toEqual({
      enabled: true,
      publishable_key: KEYS.publishable_key,
      secret_key_set: true,
      webhook_secret_set: true,
      mode: 'test',
      webhook_url: expect.stringMatching(new RegExp(`^http://[^/]+/api/stripe/webhook/${organizationId}$`)),
      events: ['checkout.session.completed', 'checkout.session.async_payment_succeeded'],
    });
    for (const answer of [saved, read]) {
      expect(JSON.stringify(answer.body)).not.toContain(KEYS.secret_key);
      expect(JSON.stringify(answer.body)).not.toContain(KEYS.webhook_secret);
    }
    // Encrypted at rest: the database holds neither secret in clear.
    const row = await server.app.deps.db
      .selectFrom('online_payment_settings')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    expect(row.secret_key).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(KEYS.secret_key);
    expect(JSON.stringify(row)).not.toContain(KEYS.webhook_secret);
    // The key was tried on Stripe before being kept, with that key.
    expect(stub.seen.some((r) => r.path === '/v1/account' && r.key === KEYS.secret_key)).toBe(true);

    // A PUT without the secrets keeps them.
    const kept = await owner.rest('PUT', '/api/settings/online-payment', { publishable_key: 'pk_test_51AutreCleePublique' });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({
      enabled: true,
      secret_key_set: true,
      webhook_secret_set: true,
      publishable_key: 'pk_test_51AutreCleePublique',
    });

    const tested = await owner.rest('POST', '/api/settings/online-payment/test');
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({
      messages: 'Connexion à Stripe réussie : compte « Atelier Fontaine »',
      data: { account_id: 'acct_stub', name: 'Atelier Fontaine', livemode: false },
    });

    const removed = await owner.rest('DELETE', '/api/settings/online-payment');
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ messages: 'Paiement en ligne désactivé', data: { enabled: false, secret_key_set: false } });
    expect((await owner.rest('POST', '/api/settings/online-payment/test')).status).toBe(409);
  });

  it('refuses, in French and field by field, keys of the wrong shape, of mixed modes, or that Stripe refuses', async () => {
    const { owner } = await seller();
    const shapes = await owner.rest('PUT', '/api/settings/online-payment', {
      publishable_key: 'sk_test_pasUneClePublique',
      secret_key: 'motdepasse',
      webhook_secret: 'secret',
    });
    expect(shapes.status).toBe(400);
    expect(shapes.body.messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Clé publiable : ce n’est pas une clé Stripe de ce type/),
        expect.stringMatching(/^Clé secrète : ce n’est pas une clé Stripe de ce type/),
        expect.stringMatching(/^Secret de signature du webhook : ce n’est pas une clé Stripe de ce type/),
      ]),
    );
    const missing = await owner.rest('PUT', '/api/settings/online-payment', { publishable_key: KEYS.publishable_key });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toMatchObject({
      secret_key: expect.stringMatching(/^Obligatoire/),
      webhook_secret: expect.stringMatching(/^Obligatoire/),
    });

    const mixed = await owner.rest('PUT', '/api/settings/online-payment', { ...KEYS, secret_key: 'sk_live_51AtelierFontaineSecret' });
    expect(mixed.status).toBe(400);
    expect(mixed.body.messages).toBe('Clé secrète : c’est une clé réelle (live) alors que la clé publiable est de test');

    stub.refusedKeys.add('sk_test_51CleRevoquee000');
    const refused = await owner.rest('PUT', '/api/settings/online-payment', { ...KEYS, secret_key: 'sk_test_51CleRevoquee000' });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe(
      'Clé secrète : Stripe refuse la clé secrète : elle est inconnue, révoquée ou mal copiée (Stripe → Développeurs → Clés API)',
    );
    expect((await owner.rest('GET', '/api/settings/online-payment')).body.enabled).toBe(false);

    // A key revoked after it was saved: « Tester » says so (502), in French.
    expect((await owner.rest('PUT', '/api/settings/online-payment', { ...KEYS, secret_key: 'sk_test_51RevoqueePlusTard' })).status).toBe(
      200,
    );
    stub.refusedKeys.add('sk_test_51RevoqueePlusTard');
    const test = await owner.rest('POST', '/api/settings/online-payment/test');
    expect(test.status).toBe(502);
    expect(test.body.messages).toMatch(/^Stripe refuse la clé secrète/);
  });

  it('is for owners and admins only, even to read', async () => {
    for (const role of ['member', 'accountant']) {
      const { session, profile } = await registered(server.url);
      await sql`update memberships set role = ${role} where user_id = ${profile.id}`.execute(server.app.deps.db);
      for (const [method, path] of [
        ['GET', '/api/settings/online-payment'],
        ['PUT', '/api/settings/online-payment'],
        ['DELETE', '/api/settings/online-payment'],
        ['POST', '/api/settings/online-payment/test'],
      ] as const) {
        expect(await session.rest(method, path, method === 'PUT' ? KEYS : undefined), `${role} ${method} ${path}`).toMatchObject({
          status: 403,
          body: { messages: ROLE_REFUSAL },
        });
      }
    }
  });
});

describe('« Payer par carte » on the share page', () => {
  it('shows nothing without keys: no button, and a checkout is refused', async () => {
    const { owner, customerId } = await seller();
    const invoice = await invoice540(owner, customerId);
    expect((await anonymous().share(invoice.uuid)).body.card_payment).toBe(false);
    const refused = await anonymous().checkout(invoice.uuid);
    expect(refused.status).toBe(409);
    expect(refused.body.messages).toBe('Le paiement par carte n’est pas proposé pour cette facture');
  });

  it('opens a Checkout Session for the balance; a signed event records it once with its fee; the invoice and the dashboard follow', async () => {
    const { owner, organizationId, customerId } = await seller();
    expect((await owner.rest('PUT', '/api/settings/online-payment', KEYS)).status).toBe(200);
    const invoice = await invoice540(owner, customerId);
    expect(
      (await owner.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 140, method: 'transfer' })).status,
    ).toBe(201);
    expect((await anonymous().share(invoice.uuid)).body).toMatchObject({ card_payment: true, document: { amount_due: 400 } });
    const before = (await owner.rest('GET', '/api/dashboard')).body;

    stub.seen.length = 0;
    const checkout = await anonymous().checkout(invoice.uuid);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect(checkout.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_pay_\d+$/);
    const sessionId = String(checkout.body.url).split('/').pop() ?? '';
    const asked = stub.seen.find((r) => r.path === '/v1/checkout/sessions');
    expect(asked?.key).toBe(KEYS.secret_key);
    expect(Object.fromEntries(asked?.body ?? [])).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '40000', // 400,00 € in cents: the balance, not the total
      'line_items[0][price_data][product_data][name]': `Facture ${invoice.number}`,
      client_reference_id: invoice.uuid,
      success_url: expect.stringMatching(new RegExp(`/share/${invoice.uuid}\\?paiement=recu$`)),
      cancel_url: expect.stringMatching(new RegExp(`/share/${invoice.uuid}\\?paiement=annule$`)),
      locale: 'fr',
    });
    // Clicking again while that session is open reuses it: Stripe is not asked twice.
    expect((await anonymous().checkout(invoice.uuid)).body.url).toBe(checkout.body.url);
    expect(stub.seen.filter((r) => r.path === '/v1/checkout/sessions')).toHaveLength(1);

    // A bad signature: 400, nothing recorded.
    const forged = await sendEvent(organizationId, 'evt_forged', paidSession(sessionId, 40000), { secret: 'whsec_PasLeBonSecret' });
    expect(forged.status).toBe(400);
    expect(forged.body.messages).toBe('Événement Stripe refusé : signature invalide');
    expect(await cardPaymentsOf(invoice.id)).toEqual([]);

    // The signed event, delivered twice at once and then replayed, and the session's other event: one payment.
    const [first, second] = await Promise.all([
      sendEvent(organizationId, 'evt_paid_1', paidSession(sessionId, 40000)),
      sendEvent(organizationId, 'evt_paid_1', paidSession(sessionId, 40000)),
    ]);
    expect([first.body.outcome, second.body.outcome].sort()).toEqual(['duplicate', 'recorded']);
    const replay = await sendEvent(organizationId, 'evt_paid_1', paidSession(sessionId, 40000));
    expect(replay).toEqual({ status: 200, body: { received: true, outcome: 'duplicate' } });
    const other = await sendEvent(organizationId, 'evt_paid_2', paidSession(sessionId, 40000), {
      type: 'checkout.session.async_payment_succeeded',
    });
    expect(other.body.outcome).toBe('duplicate');

    // 400,00 € by card, Stripe's 1,65 € fee kept beside it (stored in ten-thousandths).
    expect(await cardPaymentsOf(invoice.id)).toEqual([
      { amount: 4_000_000, method: 'card', reference: `pi_${sessionId}`, fee: 16_500, fee_currency: 'EUR' },
    ]);
    // Answered with the payments of the invoice, in major units.
    const listed = (await owner.rest('GET', `/api/documents/${invoice.id}/payments`)).body.data;
    expect(listed.find((p: { method: string }) => p.method === 'card')).toMatchObject({ amount: 400, fee: 1.65, fee_currency: 'EUR' });
    expect(listed.find((p: { method: string }) => p.method === 'transfer')).toMatchObject({ amount: 140, fee: 0, fee_currency: null });
    const paid = (await owner.rest('GET', `/api/documents/${invoice.id}`)).body;
    expect(paid).toMatchObject({ status: 'paid', paid: 540, amount_due: 0 });
    // The bank journal books what reached the bank and the fee as bank charges; the customer is cleared of the whole.
    const fec = String((await owner.rest('GET', `/api/exports/fec?year=${paid.date.slice(0, 4)}`)).body);
    const rows = fec.split('\r\n').map((row) => row.split('\t'));
    const fee = rows.filter((f) => f[0] === 'BQ' && f[4] === '627');
    expect(fee.map((f) => [f[11], f[12]])).toEqual([['1,65', '0,00']]);
    const after = (await owner.rest('GET', '/api/dashboard')).body;
    expect(after.outstanding).toBe(before.outstanding - 400);
    expect(after.open_invoices).toBe(before.open_invoices - 1);

    // Paid: no button any more, and a checkout says why.
    expect((await anonymous().share(invoice.uuid)).body).toMatchObject({ card_payment: false, document: { amount_due: 0 } });
    const again = await anonymous().checkout(invoice.uuid);
    expect(again.status).toBe(409);
    expect(again.body.messages).toBe('Cette facture est déjà réglée : il n’y a plus rien à payer');
  });

  it('acknowledges and ignores a session it never opened, an unpaid one and other events', async () => {
    const { owner, organizationId, customerId } = await seller();
    expect((await owner.rest('PUT', '/api/settings/online-payment', KEYS)).status).toBe(200);
    const invoice = await invoice540(owner, customerId);
    const unknown = await sendEvent(organizationId, 'evt_unknown', paidSession('cs_someone_else', 54000));
    expect(unknown).toEqual({ status: 200, body: { received: true, outcome: 'ignored' } });
    const checkout = await anonymous().checkout(invoice.uuid);
    const sessionId = String(checkout.body.url).split('/').pop() ?? '';
    const pending = await sendEvent(organizationId, 'evt_pending', paidSession(sessionId, 54000, { payment_status: 'unpaid' }));
    expect(pending.body.outcome).toBe('ignored');
    const refund = await sendEvent(organizationId, 'evt_refund', { id: 'ch_1', object: 'charge' }, { type: 'charge.refunded' });
    expect(refund.body.outcome).toBe('ignored');
    expect(await cardPaymentsOf(invoice.id)).toEqual([]);
    // Paid later by the delayed method: recorded then.
    const later = await sendEvent(organizationId, 'evt_later', paidSession(sessionId, 54000), {
      type: 'checkout.session.async_payment_succeeded',
    });
    expect(later.body.outcome).toBe('recorded');
    expect(await cardPaymentsOf(invoice.id)).toHaveLength(1);
  });

  it('never pays an invoice past its balance: a session paid after the invoice was settled is kept aside', async () => {
    const { owner, organizationId, customerId } = await seller();
    expect((await owner.rest('PUT', '/api/settings/online-payment', KEYS)).status).toBe(200);
    const invoice = await invoice540(owner, customerId);
    const checkout = await anonymous().checkout(invoice.uuid);
    const sessionId = String(checkout.body.url).split('/').pop() ?? '';
    expect(
      (await owner.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 540, method: 'check' })).status,
    ).toBe(201);
    const late = await sendEvent(organizationId, 'evt_late', paidSession(sessionId, 54000));
    expect(late).toEqual({ status: 200, body: { received: true, outcome: 'refused' } });
    expect(await cardPaymentsOf(invoice.id)).toEqual([]);
    expect((await owner.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ paid: 540, amount_due: 0 });
    const kept = await server.app.deps.db
      .selectFrom('card_checkouts')
      .select(['status', 'problem'])
      .where('session_id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ status: 'refused', problem: expect.stringMatching(/^Le paiement dépasse le reste à payer/) });
    expect((await sendEvent(organizationId, 'evt_late', paidSession(sessionId, 54000))).body.outcome).toBe('duplicate');
  });

  it('checks each organisation’s events with its own secret, and answers 404 where there are no keys', async () => {
    const a = await seller();
    const b = await seller();
    expect((await a.owner.rest('PUT', '/api/settings/online-payment', KEYS)).status).toBe(200);
    expect((await b.owner.rest('PUT', '/api/settings/online-payment', { ...KEYS, webhook_secret: 'whsec_AutreEntreprise' })).status).toBe(
      200,
    );
    const invoice = await invoice540(a.owner, a.customerId);
    const sessionId =
      String((await anonymous().checkout(invoice.uuid)).body.url)
        .split('/')
        .pop() ?? '';
    // A's session sent to B's path, signed with B's secret: B never opened it.
    const elsewhere = await sendEvent(b.organizationId, 'evt_cross', paidSession(sessionId, 54000), { secret: 'whsec_AutreEntreprise' });
    expect(elsewhere.body.outcome).toBe('ignored');
    // Signed with B's secret on A's path: refused.
    expect(
      (await sendEvent(a.organizationId, 'evt_cross2', paidSession(sessionId, 54000), { secret: 'whsec_AutreEntreprise' })).status,
    ).toBe(400);
    expect(await cardPaymentsOf(invoice.id)).toEqual([]);

    expect((await b.owner.rest('DELETE', '/api/settings/online-payment')).status).toBe(200);
    const gone = await sendEvent(b.organizationId, 'evt_gone', paidSession(sessionId, 54000), { secret: 'whsec_AutreEntreprise' });
    expect(gone.status).toBe(404);
    for (const path of ['/api/stripe/webhook/0', '/api/stripe/webhook/abc', '/api/stripe/webhook/99999999999']) {
      const response = await fetch(`${server.url}${path}`, { method: 'POST', body: '{}' });
      expect(response.status, path).toBe(404);
    }
    expect((await fetch(`${server.url}/api/stripe/webhook/${a.organizationId}`)).status).toBe(405);
  });
});
