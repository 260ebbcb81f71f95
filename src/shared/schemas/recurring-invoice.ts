import { z } from 'zod';
import { FREQUENCIES } from '../recurrence';
import { documentInputSchema } from './document';
import { listAnswer, writeAnswer } from './answers';

/**
 * A recurring invoice (/api/recurring): a model in the document form's shape — not a
 * numbered document — plus its schedule. Each occurrence becomes an invoice through the documents' own services.
 */
export const RECURRING_MODES = ['draft', 'issue', 'issue_and_send'] as const;
export type RecurringMode = (typeof RECURRING_MODES)[number];
export const RECURRING_MODE_LABELS: Record<RecurringMode, string> = {
  draft: 'Brouillon à vérifier',
  issue: 'Émettre',
  issue_and_send: 'Émettre et envoyer par e-mail',
};

const isoDate = (label: string) => z.iso.date({ error: `${label} : date attendue au format AAAA-MM-JJ` }).meta({ label });
const optionalDate = (label: string) =>
  z.preprocess((v) => (v === '' ? null : v), isoDate(label).nullable().optional().default(null)).meta({ label });

/** The document form without what each occurrence sets itself: its type, dates, order and deposits. */
const modelShape = documentInputSchema.omit({
  type: true,
  date: true,
  maturity: true,
  sale_date: true,
  order_id: true,
  deposit_request: true,
  // Each occurrence is converted at the rate of its own day, as any draft without a typed rate.
  exchange_rate: true,
}).shape;

export const recurringInvoiceInputSchema = z
  .object({
    ...modelShape,
    customer_id: z
      .number({ error: 'Client : choisissez le client à facturer' })
      .int()
      .positive('Client : choisissez le client à facturer')
      .meta({ label: 'Client' }),
    items: modelShape.items,
    /** Days between an occurrence's date and its due date (none: the customer's or the organisation's terms). */
    payment_days: z
      .number({ error: 'Délai de paiement : un nombre de jours est attendu' })
      .int('Délai de paiement : un nombre entier de jours')
      .min(0, 'Délai de paiement : 0 jour au moins')
      .max(365, 'Délai de paiement : 365 jours au plus')
      .nullable()
      .default(null)
      .meta({ label: 'Délai de paiement' }),
    frequency: z
      .enum(FREQUENCIES, { error: 'Fréquence : weekly, monthly, quarterly ou yearly' })
      .default('monthly')
      .meta({ label: 'Fréquence' }),
    interval: z
      .number({ error: 'Intervalle : un nombre est attendu' })
      .int('Intervalle : un nombre entier')
      .min(1, 'Intervalle : 1 au moins')
      .max(36, 'Intervalle : 36 au plus')
      .default(1)
      .meta({ label: 'Intervalle' }),
    month_end: z.boolean({ error: 'Dernier jour du mois : oui ou non' }).default(false).meta({ label: 'Dernier jour du mois' }),
    start_date: isoDate('Date de début'),
    end_date: optionalDate('Date de fin'),
    occurrences: z
      .number({ error: 'Nombre de factures : un nombre est attendu' })
      .int('Nombre de factures : un nombre entier')
      .min(1, 'Nombre de factures : 1 au moins')
      .max(1000, 'Nombre de factures : 1000 au plus')
      .nullable()
      .optional()
      .default(null)
      .meta({ label: 'Nombre de factures' }),
    mode: z.enum(RECURRING_MODES, { error: 'Mode : draft, issue ou issue_and_send' }).default('draft').meta({ label: 'Mode' }),
    paused: z.boolean({ error: 'En pause : oui ou non' }).default(false).meta({ label: 'En pause' }),
  })
  .superRefine((r, ctx) => {
    if (r.items.length === 0) ctx.addIssue({ code: 'custom', path: ['items'], message: 'Lignes : ajoutez au moins une ligne à facturer' });
    if (r.end_date && r.end_date < r.start_date)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'Date de fin : elle précède la date de début' });
    if (r.end_date && r.occurrences != null)
      ctx.addIssue({
        code: 'custom',
        path: ['occurrences'],
        message: 'Fin : une date de fin ou un nombre de factures, pas les deux',
      });
  });
export type RecurringInvoiceInput = z.input<typeof recurringInvoiceInputSchema>;
export type RecurringInvoiceModel = z.infer<typeof recurringInvoiceInputSchema>;

export const RUN_STATUSES = ['draft', 'issued', 'sent'] as const;

/** One occurrence made: the invoice it became (draft, issued or sent), and why issuing or sending did not go through. */
export const recurringRunSchema = z.object({
  occurrence_date: z.string(),
  status: z.enum(RUN_STATUSES),
  error: z.string(),
  document_id: z.number().int().nullable(),
  number: z.string().nullable(),
  created_at: z.string(),
});
export type RecurringRun = z.infer<typeof recurringRunSchema>;

export const recurringInvoiceSchema = z.object({
  ...recurringInvoiceInputSchema.shape,
  id: z.number().int(),
  customer_name: z.string(),
  /** The first line's text, to name the model in the list. */
  label: z.string(),
  /** The model's total TTC, as an occurrence would be invoiced. */
  total: z.number(),
  /** « Tous les 2 mois »… */
  frequency_label: z.string(),
  generated_until: z.string().nullable(),
  /** The next occurrence to be made (null once the end is reached). */
  next_date: z.string().nullable(),
  last_generated_at: z.string().nullable(),
  documents_count: z.number().int(),
  runs: z.array(recurringRunSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RecurringInvoiceRecord = z.infer<typeof recurringInvoiceSchema>;
export const recurringInvoiceListSchema = listAnswer(recurringInvoiceSchema);
export const recurringInvoiceWriteSchema = writeAnswer(recurringInvoiceSchema);
