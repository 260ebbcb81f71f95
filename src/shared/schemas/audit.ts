import { z } from 'zod';

/** What the log records. Credit notes are issues of documents of type 'credit'. */
export const AUDIT_EVENTS = {
  issue: 'Émission',
  payment: 'Paiement',
  payment_reversal: 'Annulation de paiement',
  numbering_change: 'Changement de numérotation',
  customer_archive: 'Client archivé',
  archive: 'Archivage du PDF',
  einvoice_send: 'Dépôt sur la plateforme',
  einvoice_status: 'Statut de facture électronique',
  reminder: 'Relance de paiement',
} as const;
export type AuditEvent = keyof typeof AUDIT_EVENTS;
const EVENTS = Object.keys(AUDIT_EVENTS) as [AuditEvent, ...AuditEvent[]];

/**
 * One entry's content, the JSON text that is hashed. `document` names what was issued or paid; `legal_hash` (on an
 * issue) is the SHA-256 of the issued document's legal content as stored, recomputed by verify from the rows.
 */
export const auditContentSchema = z.object({
  event: z.enum(EVENTS),
  at: z.string(),
  user: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  document: z
    .object({ id: z.number().int(), type: z.string(), number: z.string().nullable(), total: z.number(), currency: z.string() })
    .optional(),
  legal_hash: z.string().optional(),
  payment: z
    .object({ id: z.number().int(), date: z.string(), amount: z.number(), method: z.string(), reverses_id: z.number().int().nullable() })
    .optional(),
  numbering: z.object({ type: z.string(), from: z.string(), to: z.string() }).optional(),
  customer: z.object({ id: z.number().int(), number: z.string(), name: z.string() }).optional(),
  /** On an archive: the kept PDF of `document`, where it lies under the data directory and its SHA-256, checked by verify. */
  pdf: z.object({ path: z.string(), sha256: z.string(), size: z.number().int() }).optional(),
  /** On an einvoice_status: the lifecycle status recorded. */
  lifecycle: z
    .object({ status: z.string(), code: z.number().int().nullable(), date: z.string(), source: z.string(), reason: z.string() })
    .optional(),
  /** On an einvoice_send: where it went, its reference, and the SHA-256 of each file transmitted. */
  submission: z
    .object({ platform: z.string(), reference: z.string(), files: z.array(z.object({ name: z.string(), sha256: z.string() })) })
    .optional(),
  /** On a reminder: the step (days from the due date), who triggered it and to whom it went. */
  reminder: z.object({ step: z.number().int(), trigger: z.string(), recipients: z.string(), subject: z.string() }).optional(),
  /** Written by migration 0017 for what happened before the log (or the archive entries) existed, not at the time. */
  backfilled: z.literal(true).optional(),
});
export type AuditContent = z.infer<typeof auditContentSchema>;

export const auditEntrySchema = z.object({
  sequence: z.number().int(),
  event: z.enum(EVENTS),
  content: auditContentSchema,
  content_hash: z.string(),
  previous_hash: z.string(),
  hash: z.string(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1, 'Page : 1 au moins').default(1).meta({ label: 'Page' }),
    per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(20).meta({ label: 'Lignes par page' }),
  })
  .default({ page: 1, per_page: 20 });

export const auditPageSchema = z.object({ total: z.number().int(), data: z.array(auditEntrySchema) });

export const auditVerifySchema = z.object({
  ok: z.boolean(),
  entries: z.number().int(),
  /**
   * The sequence number of the first entry whose hash, link or issued document no longer matches, or the first one
   * missing when the newest were cut (a closing counted more).
   */
  first_broken: z.number().int().optional(),
  /** Why, in French, when not ok: the entry and what no longer holds, or the document or payment without its entry. */
  reason: z.string().optional(),
});
export type AuditVerification = z.infer<typeof auditVerifySchema>;

export const CLOSING_PERIODS = { legacy: 'Scellement initial', day: 'Jour', month: 'Mois', year: 'Année' } as const;
export type ClosingPeriod = keyof typeof CLOSING_PERIODS;
const PERIODS = Object.keys(CLOSING_PERIODS) as [ClosingPeriod, ...ClosingPeriod[]];

/** Sales (invoices less credit notes, tax included) and payments received (less reversals), per currency, as decimal text. */
export const auditTotalsSchema = z.array(z.object({ currency: z.string(), sales: z.string(), payments: z.string() }));
export type AuditTotals = z.infer<typeof auditTotalsSchema>;

export const CLOSING_FORMAT = 'facturier-audit-closing/1';

/**
 * What a closing signs: where the chain stood at its end (the last entry's sequence and hash), the period's totals
 * and the perpetual ones since the first entry, and the previous closing's signature (closings form a chain too).
 */
export const closingPayloadSchema = z.object({
  format: z.literal(CLOSING_FORMAT),
  organization_id: z.number().int(),
  number: z.number().int(),
  period: z.enum(PERIODS),
  /** Paris calendar days, both included. */
  period_start: z.string(),
  period_end: z.string(),
  first_sequence: z.number().int(),
  last_sequence: z.number().int(),
  last_hash: z.string(),
  period_totals: auditTotalsSchema,
  cumulative_totals: auditTotalsSchema,
  /** Legacy seal only: documents and payments the log never recorded (before it existed), left out of completeness. */
  unlogged: z.object({ documents: z.array(z.number().int()), payments_through: z.number().int() }).optional(),
  previous_signature: z.string(),
  closed_at: z.string(),
});
export type ClosingPayload = z.infer<typeof closingPayloadSchema>;

/** The exported file: the payload as signed, the Ed25519 public key (SPKI, base64) and the signature (base64). */
export const exportedClosingSchema = z.object({
  closing: closingPayloadSchema,
  public_key: z.string(),
  signature: z.string(),
});
export type ExportedClosing = z.infer<typeof exportedClosingSchema>;

export const closingSummarySchema = z.object({
  number: z.number().int(),
  period: z.enum(PERIODS),
  period_start: z.string(),
  period_end: z.string(),
  last_sequence: z.number().int(),
  cumulative_totals: auditTotalsSchema,
  closed_at: z.string(),
});
export type ClosingSummary = z.infer<typeof closingSummarySchema>;

export const closingListQuerySchema = auditQuerySchema;
export const closingPageSchema = z.object({ total: z.number().int(), data: z.array(closingSummarySchema) });
export const closingNumberSchema = z.object({
  number: z.coerce
    .number({ message: 'Numéro de clôture : un nombre entier' })
    .int('Numéro de clôture : un nombre entier')
    .min(1, 'Numéro de clôture : 1 au moins'),
});
