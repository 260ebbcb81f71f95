import type Stripe from 'stripe';
import { onFirstUse } from '../on-first-use';
import { mul, toNumber } from '../../shared/money';
import { PLANS } from '../../shared/plans';
import { type PaymentProvider, type ProviderEvent, WebhookRefusal } from './provider';

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (a local stub in tests); unset = Stripe's. */
  apiBase?: string;
}

/** Stripe's package, loaded by the first payment, key check or webhook: a process that takes no card never holds it. */
export const stripeModule = onFirstUse<typeof Stripe>('stripe');

/** Seconds a signed webhook stays acceptable: Stripe's default, against replays of an old delivery. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * A Stripe API client on a secret key: the server's own (plans) or an organisation's (card payments on its invoices).
 * `apiBase` points it at another host (STRIPE_API_BASE: a local stub in tests).
 */
export function stripeClient(secretKey: string, apiBase?: string): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  const StripeClient = stripeModule();
  return new StripeClient(secretKey, {
    telemetry: false,
    maxNetworkRetries: 1,
    // A customer waits on the other end of a checkout: a Stripe that does not answer is said so within seconds.
    timeout: 20_000,
    ...(base && { host: base.hostname, port: base.port || undefined, protocol: base.protocol === 'http:' ? 'http' : 'https' }),
  });
}

/**
 * A Stripe event whose signature (`Stripe-Signature` over the raw bytes, with `secret`) is right and recent; throws
 * `WebhookRefusal` with the reason in French otherwise. Both webhook doors (plans, card payments) check through it.
 */
export function verifyStripeEvent(rawBody: Buffer, signature: string | undefined, secret: string): ProviderEvent {
  if (!signature) throw new WebhookRefusal('Signature Stripe absente (en-tête Stripe-Signature)');
  try {
    const event = stripeModule().webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
    return { id: event.id, type: event.type, object: event.data.object as unknown as Record<string, unknown> };
  } catch (error) {
    if (error instanceof stripeModule().errors.StripeSignatureVerificationError) {
      throw new WebhookRefusal(
        /tolerance/i.test(error.message)
          ? 'Événement Stripe refusé : sa signature est trop ancienne (rejeu ?)'
          : 'Événement Stripe refusé : signature invalide',
      );
    }
    throw new WebhookRefusal('Événement Stripe illisible');
  }
}

export function createStripeProvider(config: StripeConfig): PaymentProvider {
  let client: Stripe | undefined;
  const stripe = () => {
    client ??= stripeClient(config.secretKey, config.apiBase);
    return client;
  };
  return {
    name: 'stripe',
    async createCheckout(params) {
      const plan = PLANS[params.plan];
      const metadata = { organization_id: String(params.organizationId), plan: params.plan, period: params.period };
      const session = await stripe().checkout.sessions.create({
        mode: 'subscription',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'eur',
              // Prices are HT: Stripe adds the VAT (exclusive), in cents.
              unit_amount: toNumber(mul(plan.price[params.period], 100), 0),
              tax_behavior: 'exclusive',
              recurring: { interval: params.period },
              product_data: { name: `Facturier ${plan.name}` },
            },
          },
        ],
        client_reference_id: String(params.organizationId),
        ...(params.customerId ? { customer: params.customerId } : { customer_email: params.email }),
        metadata,
        subscription_data: { metadata },
        success_url: params.successUrl,
        cancel_url: params.cancelUrl,
        locale: 'fr',
      });
      if (!session.url) throw new Error('Stripe checkout session without url');
      return session.url;
    },
    async portalUrl(params) {
      const session = await stripe().billingPortal.sessions.create({
        customer: params.customerId,
        return_url: params.returnUrl,
        locale: 'fr',
      });
      return session.url;
    },
    async cancelAtPeriodEnd(subscriptionId, cancel) {
      await stripe().subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
    },
    async changePlan(params) {
      const plan = PLANS[params.plan];
      const current = await stripe().subscriptions.retrieve(params.subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new Error(`Stripe subscription ${params.subscriptionId} without item`);
      // Prices are made on the fly, as at checkout (no catalogue to keep in step with shared/plans.ts).
      const price = await stripe().prices.create({
        currency: 'eur',
        unit_amount: toNumber(mul(plan.price[params.period], 100), 0),
        tax_behavior: 'exclusive',
        recurring: { interval: params.period },
        product_data: { name: `Facturier ${plan.name}` },
        metadata: { plan: params.plan },
      });
      await stripe().subscriptions.update(params.subscriptionId, {
        items: [{ id: item.id, price: price.id }],
        metadata: { organization_id: String(params.organizationId), plan: params.plan, period: params.period },
      });
    },
    verifyWebhook(rawBody, signature): ProviderEvent {
      return verifyStripeEvent(rawBody, signature, config.webhookSecret);
    },
  };
}
