import { z } from 'zod';

/** The events an endpoint may subscribe to, with their name on the settings page. */
export const WEBHOOK_EVENTS = [
  'document.issued',
  'document.sent',
  'payment.recorded',
  'estimate.accepted',
  'estimate.refused',
  'expense.created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'document.issued': 'Document émis',
  'document.sent': 'Document envoyé',
  'payment.recorded': 'Paiement enregistré',
  'estimate.accepted': 'Devis accepté',
  'estimate.refused': 'Devis refusé',
  'expense.created': 'Dépense créée',
};

/** How long the delivery log is kept; older deliveries are deleted by the scheduler's daily job. */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;
/** How long an endpoint may fail every attempt before it is turned off (its owners are mailed). */
export const WEBHOOK_DISABLE_AFTER_DAYS = 3;
/** The most events one replay sends again: a longer range is refused, to be split. */
export const WEBHOOK_REPLAY_MAX_EVENTS = 5000;

export const webhookEventSchema = z.enum(WEBHOOK_EVENTS, {
  error: (issue) => `« ${String(issue.input)} » n’est pas un événement connu (${WEBHOOK_EVENTS.join(', ')})`,
});

export const webhookUrlSchema = z
  .string({ error: 'L’adresse est obligatoire' })
  .trim()
  .min(1, 'L’adresse est obligatoire')
  .max(2000, 'L’adresse est trop longue (2000 caractères au plus)')
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'Une adresse complète en http:// ou https:// est attendue, par exemple https://exemple.fr/webhooks')
  .meta({ label: 'URL' });

export const webhookInputSchema = z
  .object({
    url: webhookUrlSchema,
    events: z
      .array(webhookEventSchema, { error: 'Choisissez au moins un événement' })
      .min(1, 'Choisissez au moins un événement')
      .meta({ label: 'Événements' }),
    enabled: z.boolean().default(true).meta({ label: 'Actif' }),
  })
  .strict();
export type WebhookInput = z.input<typeof webhookInputSchema>;

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(webhookEventSchema),
  enabled: z.boolean(),
  consecutive_failures: z.number().int(),
  /** When repeated failures turned it off (null: on, or turned off by hand). */
  disabled_at: z.string().nullable(),
  /** The first failed attempt since its last 2xx (null while it answers): turned off after 3 days of failures. */
  failing_since: z.string().nullable(),
  /** The start of the secret, to recognise it; the whole secret is answered once, at creation. */
  secret_hint: z.string(),
  created_at: z.string(),
  last_delivery: z
    .object({ status: z.enum(['pending', 'delivered', 'failed']), response_status: z.number().int().nullable(), at: z.string().nullable() })
    .nullable(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhooksAnswerSchema = z.object({ total: z.number().int(), data: z.array(webhookEndpointSchema) });

export const webhookCreatedSchema = z.object({
  messages: z.string(),
  data: webhookEndpointSchema.extend({ secret: z.string() }),
});
export const webhookUpdatedSchema = z.object({ messages: z.string(), data: webhookEndpointSchema });

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  response_status: z.number().int().nullable(),
  response_ms: z.number().int().nullable(),
  /** The first kilobyte of the answer's body. */
  response_body: z.string(),
  error: z.string(),
  /** The endpoint's sequence number of the event (null for a ping); a resend or replay keeps it. */
  sequence: z.number().int().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveriesAnswerSchema = z.object({ total: z.number().int(), data: z.array(webhookDeliverySchema) });

export const webhookTestAnswerSchema = z.object({ messages: z.string(), data: webhookDeliverySchema });

/** An instant of a replay range: ISO 8601 with its offset, or a date (midnight UTC). */
const instantSchema = (label: string) =>
  z
    .string({ error: `${label} : une date est attendue` })
    .trim()
    .refine(
      (value) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !Number.isNaN(Date.parse(value)),
      'une date (AAAA-MM-JJ) ou un instant ISO 8601 (2026-11-23T10:00:00Z) est attendu',
    )
    .transform((value) => new Date(value).toISOString())
    .meta({ label });

export const webhookReplayInputSchema = z
  .object({ from: instantSchema('Début'), to: instantSchema('Fin') })
  .strict()
  .refine((range) => range.from < range.to, { message: 'La fin de la période doit suivre son début', path: ['to'] });
export type WebhookReplayInput = z.output<typeof webhookReplayInputSchema>;

export const webhookReplayAnswerSchema = z.object({ messages: z.string(), data: z.object({ replayed: z.number().int() }) });
export const webhookResendAnswerSchema = webhookTestAnswerSchema;
