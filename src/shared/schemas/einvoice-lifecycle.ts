import { z } from 'zod';
import {
  LIFECYCLE_SOURCES,
  LIFECYCLE_STATUS_KEYS,
  LIFECYCLE_STATUSES,
  MANUAL_STATUSES,
  REASON_REQUIRED,
  type LifecycleStatus,
} from '../einvoice-lifecycle';
import { FLOW_STATE_KEYS } from '../einvoice-flows';

const SOURCES = Object.keys(LIFECYCLE_SOURCES) as [keyof typeof LIFECYCLE_SOURCES, ...(keyof typeof LIFECYCLE_SOURCES)[]];
const MANUAL = MANUAL_STATUSES as [LifecycleStatus, ...LifecycleStatus[]];
const manualList = MANUAL_STATUSES.map((s) => LIFECYCLE_STATUSES[s].label.toLowerCase()).join(', ');

/** One entry of a document's lifecycle history, as answered. */
export const lifecycleEntrySchema = z.object({
  id: z.number().int(),
  status: z.enum(LIFECYCLE_STATUS_KEYS),
  /** The platform status code (200 Déposée … 213 Rejetée); null for Facturier's own `cash_withdrawn`. */
  code: z.number().int().nullable(),
  label: z.string(),
  /** The day it happened, YYYY-MM-DD. */
  date: z.string(),
  reason: z.string(),
  source: z.enum(SOURCES),
  /** On an Encaissée: the amount received, in major units. */
  amount: z.number().nullable(),
  created_at: z.string(),
});
export type LifecycleEntry = z.infer<typeof lifecycleEntrySchema>;

/** The document's transmission to the platform, once made. */
export const submissionSchema = z.object({
  platform: z.string(),
  reference: z.string(),
  format: z.string(),
  xml_attached: z.boolean(),
  sent_at: z.string(),
});
export type Submission = z.infer<typeof submissionSchema>;

/** A reason the platform gave (XP Z12-013 reason code, raw), with what it means in French. */
export const flowReasonSchema = z.object({
  code: z.string(),
  /** The platform's own words, as it sent them. */
  platform_message: z.string(),
  /** The item it is about (a field, a business term), '' when none. */
  item: z.string(),
  level: z.enum(['Error', 'Warning']),
  message: z.string(),
});
export type FlowReason = z.infer<typeof flowReasonSchema>;

/**
 * The document's submission to the platform's API (XP Z12-013), once queued: where it stands, the flow id, the
 * acknowledgement and its reasons; `error` says in French why the last attempt failed, `next_attempt_at` when the
 * next one is due.
 */
export const transmissionSchema = z.object({
  state: z.enum(FLOW_STATE_KEYS),
  state_label: z.string(),
  flow_id: z.string().nullable(),
  ack_status: z.enum(['Pending', 'Ok', 'Error']),
  reasons: z.array(flowReasonSchema),
  error: z.string(),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  submitted_at: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  syntax: z.string(),
  profile: z.string(),
});
export type Transmission = z.infer<typeof transmissionSchema>;

/** What a document's answer carries of its submission through the platform's API, so its page shows it without another call. */
export const documentEinvoiceSchema = z.object({
  state: z.enum(FLOW_STATE_KEYS),
  flow_id: z.string().nullable(),
  ack_status: z.enum(['Pending', 'Ok', 'Error']),
  lifecycle: z.array(z.object({ code: z.number().int().nullable(), label: z.string(), date: z.string() })),
});
export type DocumentEinvoice = z.infer<typeof documentEinvoiceSchema>;

export const lifecycleAnswerSchema = z.object({
  total: z.number().int(),
  data: z.array(lifecycleEntrySchema),
  submission: submissionSchema.nullable(),
  transmission: transmissionSchema.nullable(),
});
export type LifecycleAnswer = z.infer<typeof lifecycleAnswerSchema>;

/** A status recorded by hand (POST /api/documents/{id}/lifecycle): a reason is required where a problem is stated. */
export const lifecycleInputSchema = z
  .object({
    status: z.enum(MANUAL, { error: `Statut : ${manualList}` }).meta({ label: 'Statut' }),
    date: z.iso.date({ error: 'Date attendue au format AAAA-MM-JJ' }).optional().meta({ label: 'Date' }),
    reason: z.string().trim().max(500, 'Motif : 500 caractères au plus').default('').meta({ label: 'Motif' }),
  })
  .superRefine((value, ctx) => {
    if (REASON_REQUIRED.includes(value.status) && !value.reason)
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: `Motif : obligatoire pour le statut « ${LIFECYCLE_STATUSES[value.status].label} »`,
      });
  });
export type LifecycleInput = z.input<typeof lifecycleInputSchema>;
