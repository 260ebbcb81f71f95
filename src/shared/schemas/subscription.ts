import { z } from 'zod';
import { LIMIT_KEYS } from '../plans';
import { billingPeriodSchema, planIdSchema } from './plan';

const limitsSchema = z.object({ documents: z.number().nullable(), members: z.number().nullable(), storage: z.number().nullable() });

export const planSchema = z.object({
  id: planIdSchema,
  name: z.string(),
  tagline: z.string(),
  prices: z.object({
    month: z.object({ net: z.number(), vat: z.number(), gross: z.number() }),
    year: z.object({ net: z.number(), vat: z.number(), gross: z.number() }),
  }),
  limits: limitsSchema,
  api: z.boolean(),
  webhooks: z.boolean(),
  einvoices_per_month: z.number().nullable(),
  support: z.string(),
});
export const plansAnswerSchema = z.object({ data: z.array(planSchema), vat_rate: z.number() });

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;
export const SUBSCRIPTION_SOURCES = ['none', 'local', 'operator', 'stripe'] as const;

export const usageSchema = z.object({
  key: z.enum(LIMIT_KEYS),
  used: z.number(),
  limit: z.number().nullable(),
});

export const subscriptionSchema = z.object({
  plan: planIdSchema,
  plan_name: z.string(),
  period: billingPeriodSchema.nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  source: z.enum(SUBSCRIPTION_SOURCES),
  /** The last day paid for (YYYY-MM-DD): renewal date, or end date when cancelled or granted until then. */
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  /** A change to a smaller plan, in waiting: it takes effect at the period's end once the usage fits its limits. */
  pending_plan: planIdSchema.nullable(),
  pending_period: billingPeriodSchema.nullable(),
  /** When the change was asked for (ISO instant), and the day it applies at the latest whatever the usage. */
  pending_since: z.string().nullable(),
  pending_deadline: z.string().nullable(),
  /**
   * What the usage exceeds of the limits of the plan a change leads to (the pending plan, or Gratuit after a
   * cancellation), one French sentence each: the change waits until this is empty.
   */
  pending_blockers: z.array(z.string()),
  /** The API keys and webhooks that plan would leave unused (kept, not deleted), in French. */
  pending_losses: z.array(z.string()),
  /** The API keys and webhooks the current plan leaves unused, in French. */
  dormant: z.array(z.string()),
  usage: z.array(usageSchema),
  /** PLAN_LIMITS=off: this server lifts every limit (self-hosted). */
  limits_enforced: z.boolean(),
  /** Whether checkout goes through a payment provider (else the plan is applied at once). */
  provider: z.enum(['stripe', 'none']),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const checkoutInputSchema = z
  .object({
    plan: planIdSchema.meta({ label: 'Formule' }),
    period: billingPeriodSchema.default('month').meta({ label: 'Période' }),
  })
  .strict();
export type CheckoutInput = z.infer<typeof checkoutInputSchema>;

export const checkoutAnswerSchema = z.object({
  messages: z.string(),
  /** Where the browser goes to pay (Stripe Checkout or Customer Portal); null when the change was applied here. */
  url: z.string().nullable(),
  data: subscriptionSchema,
});

export const subscriptionInvoiceSchema = z.object({
  id: z.number(),
  number: z.string(),
  date: z.string(),
  plan: planIdSchema,
  period: billingPeriodSchema,
  amount_net: z.number(),
  amount_vat: z.number(),
  amount_total: z.number(),
  currency: z.string(),
  status: z.enum(['paid', 'open', 'failed']),
  pdf_url: z.string().nullable(),
});
export const subscriptionInvoicesAnswerSchema = z.object({ total: z.number(), data: z.array(subscriptionInvoiceSchema) });
