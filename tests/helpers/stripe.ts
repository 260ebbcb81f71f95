import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { Session } from './clients';
import { startTestServer, type TestServer } from './server';

/**
 * What the plan tests share (subscription.test.ts, plan-downgrade.test.ts): servers with the plan limits on, with and
 * without Stripe, Stripe events signed locally as Stripe signs them, and a local stub standing for Stripe's API.
 */

export const WEBHOOK_SECRET = 'whsec_test_facturier';
const stripe = new Stripe('sk_test_unused', { telemetry: false });

/**
 * Two servers with the limits on: `plain` without a payment provider (the self-hosted default), `paid` with Stripe,
 * whose API is `stripeApiBase` when given (a stub) and otherwise never called (only its webhook path is used).
 */
export async function startPlanServers(opts: { stripeApiBase?: string } = {}): Promise<{ plain: TestServer; paid: TestServer }> {
  const stripeEnv: Record<string, string> = opts.stripeApiBase
    ? { STRIPE_SECRET_KEY: 'sk_test_stub', STRIPE_API_BASE: opts.stripeApiBase }
    : { STRIPE_SECRET_KEY: 'sk_test_unused' };
  const [plain, paid] = await Promise.all([
    startTestServer({ env: { PLAN_LIMITS: 'on' } }),
    startTestServer({ env: { PLAN_LIMITS: 'on', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ...stripeEnv } }),
  ]);
  return { plain, paid };
}

/**
 * A Stripe event signed with the webhook secret (or `opts.secret`), as Stripe would send it to `server`: to the plans'
 * path, or to `opts.path` (an organisation's own account, `/api/stripe/webhook/{organisation}`).
 */
export async function deliverStripeEvent(
  server: TestServer,
  id: string,
  type: string,
  object: Record<string, unknown>,
  opts: { timestamp?: number; secret?: string; path?: string } = {},
) {
  const payload = JSON.stringify({ id, object: 'event', type, api_version: '2026-10-28.endive', created: 1, data: { object } });
  const header = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: opts.secret ?? WEBHOOK_SECRET,
    timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
  });
  const response = await fetch(`${server.url}${opts.path ?? '/api/stripe/webhook'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
  return { status: response.status, body: await response.json() };
}

/** Stripe's timestamps: seconds since the epoch. */
export const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

export async function organizationIdOf(session: Session): Promise<number> {
  return (await session.rest('GET', '/api/auth')).body.organization.id as number;
}

export interface StripeStub {
  /** STRIPE_API_BASE for a server that should call it. */
  url: string;
  /** Every request received, in order, with the secret key it was made with. */
  seen: { method: string; path: string; body: URLSearchParams; key: string }[];
  /** While true, every request answers 500 (Stripe down). */
  failing: boolean;
  /** Secret keys Stripe does not know: their requests answer 401, as Stripe answers a revoked or mistyped key. */
  refusedKeys: Set<string>;
  /** The fee of the balance transaction behind each payment intent, in the currency's smallest unit. */
  fee: number;
  close(): Promise<void>;
}

/**
 * Stands for Stripe's API: a checkout session, a price, a portal session, and otherwise the subscription named by the
 * path, read back with its one item.
 */
export async function startStripeStub(): Promise<StripeStub> {
  const seen: StripeStub['seen'] = [];
  let paymentSessions = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const body = new URLSearchParams(raw);
      seen.push({ method: req.method ?? '', path: req.url ?? '', body, key });
      res.setHeader('content-type', 'application/json');
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (stub.failing) {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'down' } }));
      } else if (stub.refusedKeys.has(key)) {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}***` } }));
      } else if (req.url === '/v1/checkout/sessions' && body.get('mode') === 'payment') {
        // A card payment's session: its own id each time, echoing what was asked.
        paymentSessions += 1;
        const id = `cs_pay_${paymentSessions}`;
        res.end(
          JSON.stringify({
            id,
            object: 'checkout.session',
            mode: 'payment',
            url: `https://checkout.stripe.com/c/pay/${id}`,
            amount_total: Number(body.get('line_items[0][price_data][unit_amount]')),
            currency: body.get('line_items[0][price_data][currency]'),
          }),
        );
      } else if (path === '/v1/account') {
        res.end(JSON.stringify({ id: 'acct_stub', object: 'account', settings: { dashboard: { display_name: 'Atelier Fontaine' } } }));
      } else if (path.startsWith('/v1/payment_intents/')) {
        const id = path.split('/').pop();
        res.end(
          JSON.stringify({
            id,
            object: 'payment_intent',
            latest_charge: {
              id: `ch_${id}`,
              object: 'charge',
              balance_transaction: {
                id: `txn_${id}`,
                object: 'balance_transaction',
                fee: stub.fee,
                currency: 'eur',
                created: Math.floor(Date.now() / 1000),
              },
            },
          }),
        );
      } else if (req.url === '/v1/checkout/sessions')
        res.end(JSON.stringify({ id: 'cs_1', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_1' }));
      else if (req.url === '/v1/prices') res.end(JSON.stringify({ id: 'price_new', object: 'price' }));
      else if (req.url === '/v1/billing_portal/sessions')
        res.end(JSON.stringify({ id: 'bps_1', object: 'billing_portal.session', url: 'https://billing.stripe.com/p/session/bps_1' }));
      else
        res.end(
          JSON.stringify({
            id: req.url?.split('/').pop(),
            object: 'subscription',
            items: { object: 'list', data: [{ id: 'si_1', object: 'subscription_item' }] },
          }),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stub: StripeStub = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    failing: false,
    refusedKeys: new Set(),
    fee: 165,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
  return stub;
}
