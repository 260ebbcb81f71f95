import { z } from 'zod';

/**
 * Paramètres → Paiement en ligne: the organisation's own Stripe account, through which its customers pay its invoices by
 * card from their public page. The secret key and the webhook's signing secret are kept encrypted and never answered.
 */
export const ONLINE_PAYMENT_FIELD_LABELS = {
  publishable_key: 'Clé publiable',
  secret_key: 'Clé secrète',
  webhook_secret: 'Secret de signature du webhook',
} as const;
type Field = keyof typeof ONLINE_PAYMENT_FIELD_LABELS;

/** The Stripe events the webhook endpoint must send: a paid session, and a delayed payment method that succeeds later. */
export const CARD_PAYMENT_EVENTS = ['checkout.session.completed', 'checkout.session.async_payment_succeeded'] as const;

/** Stripe's key shapes: test or live mode, then Stripe's own characters. */
const KEY_PATTERNS: Record<Field, { pattern: RegExp; example: string }> = {
  publishable_key: { pattern: /^pk_(test|live)_[A-Za-z0-9]{8,}$/, example: 'pk_live_… ou pk_test_…' },
  secret_key: { pattern: /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, example: 'sk_live_…, rk_live_… ou leur version _test_' },
  webhook_secret: { pattern: /^whsec_[A-Za-z0-9+/=]{8,}$/, example: 'whsec_…' },
};

const key = (field: Field) =>
  z
    .string({ error: `${ONLINE_PAYMENT_FIELD_LABELS[field]} : du texte est attendu` })
    .trim()
    .max(300, `${ONLINE_PAYMENT_FIELD_LABELS[field]} : 300 caractères au plus`)
    .refine((v) => v === '' || KEY_PATTERNS[field].pattern.test(v), {
      error: `${ONLINE_PAYMENT_FIELD_LABELS[field]} : ce n’est pas une clé Stripe de ce type (attendu : ${KEY_PATTERNS[field].example})`,
    })
    .meta({ label: ONLINE_PAYMENT_FIELD_LABELS[field] });

/** Test or live: Stripe's keys say it in their prefix; null when the key says neither. */
export function stripeKeyMode(value: string): 'test' | 'live' | null {
  const match = /^(?:pk|sk|rk)_(test|live)_/.exec(value);
  return match ? (match[1] as 'test' | 'live') : null;
}

/**
 * The PUT body. A secret left out (or empty) keeps the one stored; the publishable key is always sent (it is shown back).
 * Removing everything is DELETE, not a PUT of empty fields.
 */
export const onlinePaymentSettingsInputSchema = z
  .object({
    publishable_key: key('publishable_key').refine((v) => v !== '', {
      error: `${ONLINE_PAYMENT_FIELD_LABELS.publishable_key} : obligatoire (Stripe → Développeurs → Clés API)`,
    }),
    secret_key: key('secret_key').optional(),
    webhook_secret: key('webhook_secret').optional(),
  })
  .strict();
export type OnlinePaymentSettingsInput = z.input<typeof onlinePaymentSettingsInputSchema>;

/** What GET answers: never a secret, only whether one is stored. */
export const onlinePaymentSettingsSchema = z.object({
  /** Every key stored: the « Payer par carte » button shows on the organisation's unpaid invoices. */
  enabled: z.boolean(),
  publishable_key: z.string(),
  secret_key_set: z.boolean(),
  webhook_secret_set: z.boolean(),
  /** Stripe's test or live mode, read from the keys (null without keys). */
  mode: z.enum(['test', 'live']).nullable(),
  /** The address to give Stripe as the webhook endpoint (Développeurs → Webhooks), with the events below. */
  webhook_url: z.string(),
  events: z.array(z.string()),
});
export type OnlinePaymentSettings = z.infer<typeof onlinePaymentSettingsSchema>;

/** « Tester »: the Stripe account the stored secret key opens. */
export const onlinePaymentCheckSchema = z.object({
  account_id: z.string(),
  name: z.string(),
  livemode: z.boolean(),
});

/** A Checkout Session opened for an invoice's balance: where the customer's browser goes to pay. */
export const cardCheckoutSchema = z.object({ url: z.string() });
