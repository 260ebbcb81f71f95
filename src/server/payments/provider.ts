import type { BillingPeriod, PlanId } from '../../shared/plans';

/**
 * What the subscription service needs from a payment provider. Stripe implements it (stripe.ts); with
 * none configured the service applies plans itself. Tests swap the API host for a local stub (STRIPE_API_BASE).
 */
export interface PaymentProvider {
  readonly name: 'stripe';
  /** A hosted payment page for a new subscription; answers its URL. */
  createCheckout(params: {
    organizationId: number;
    plan: PlanId;
    period: BillingPeriod;
    customerId: string | null;
    email: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<string>;
  /** The provider's own page where a paying customer changes plan, card or cancels; answers its URL. */
  portalUrl(params: { customerId: string; returnUrl: string }): Promise<string>;
  /** Ends (or keeps, with `false`) the subscription at the end of the period already paid. */
  cancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void>;
  /**
   * Switches a running subscription to another plan (a smaller one asked for in the app, once the usage fits); the
   * provider credits what was paid for the larger one.
   */
  changePlan(params: { subscriptionId: string; organizationId: number; plan: PlanId; period: BillingPeriod }): Promise<void>;
  /** Checks the signature and its age, then answers the event; throws `WebhookRefusal` otherwise. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
}

/** The few fields of a provider event the service reads; `object` is the provider's object, read defensively. */
export interface ProviderEvent {
  id: string;
  type: string;
  object: Record<string, unknown>;
}

export class WebhookRefusal extends Error {}
