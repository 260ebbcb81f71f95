import { z } from 'zod';
import { templateText } from './email-settings';
import { offsetLabel, REMINDER_STATUSES } from '../reminders';
import { listAnswer } from './answers';

export { offsetLabel, REMINDER_STATUSES };

/** Who sends a step: the scheduler by itself, or the user in one click from the Relances list. */
export const REMINDER_MODES = { automatic: 'Envoi automatique', proposed: 'Proposée (envoi en un clic)' } as const;
export type ReminderMode = keyof typeof REMINDER_MODES;

/** Days before (negative) or after the due date: a year either side at most. */
export const MAX_REMINDER_OFFSET = 365;

const signature = '\n\nCordialement,\n{organization_name}';

export const reminderStepSchema = z
  .object({
    offset_days: z
      .number({ error: 'Délai de la relance : un nombre de jours est attendu' })
      .int('Délai de la relance : un nombre entier de jours est attendu')
      .min(-MAX_REMINDER_OFFSET, `Délai de la relance : ${MAX_REMINDER_OFFSET} jours avant l’échéance au plus`)
      .max(MAX_REMINDER_OFFSET, `Délai de la relance : ${MAX_REMINDER_OFFSET} jours après l’échéance au plus`)
      .meta({ label: 'Délai de la relance' }),
    enabled: z.boolean({ error: 'Relance active : oui ou non' }).default(true).meta({ label: 'Relance active' }),
    mode: z
      .enum(['automatic', 'proposed'], { error: 'Mode de la relance : automatic ou proposed' })
      .default('proposed')
      .meta({ label: 'Mode de la relance' }),
    subject: templateText('Objet de la relance', { max: 200, singleLine: true }).meta({ label: 'Objet de la relance' }),
    body: templateText('Message de la relance', { max: 5000, singleLine: false }).meta({ label: 'Message de la relance' }),
  })
  .strict();
export type ReminderStep = z.infer<typeof reminderStepSchema>;

/**
 * Paramètres → Relances of one organisation. A step is known by its offset (the `step` of each reminder recorded),
 * so two steps on the same day are refused.
 */
export const reminderSettingsSchema = z
  .object({
    steps: z
      .array(reminderStepSchema, { error: 'Étapes de relance : une liste est attendue' })
      .max(12, 'Douze étapes de relance au plus')
      .superRefine((steps, ctx) => {
        const seen = new Set<number>();
        for (const step of steps) {
          if (seen.has(step.offset_days))
            ctx.addIssue({
              code: 'custom',
              message: `Deux relances le même jour (${offsetLabel(step.offset_days)}) : changez l’un des délais`,
            });
          seen.add(step.offset_days);
        }
      })
      .transform((steps) => [...steps].sort((a, b) => a.offset_days - b.offset_days)),
  })
  .strict();
export type ReminderSettings = z.infer<typeof reminderSettingsSchema>;

const step = (offset_days: number, subject: string, text: string): ReminderStep => ({
  offset_days,
  enabled: true,
  // Proposed by default: no mail leaves for a customer until the user turns automatic sending on.
  mode: 'proposed',
  subject,
  body: `Bonjour {customer_name},\n\n${text}\n\nVous pouvez consulter la facture et la télécharger ici : {link}${signature}`,
});

export const defaultReminderSettings = (): ReminderSettings => ({
  steps: [
    step(
      -3,
      'Facture {document_number} : échéance le {due_date}',
      'Pour rappel, notre facture {document_number} d’un montant restant de {amount_due} arrive à échéance le {due_date}.\n\nSi votre règlement est déjà parti, merci de ne pas tenir compte de ce message.',
    ),
    step(
      7,
      'Rappel : facture {document_number} en attente de règlement',
      'Sauf erreur de notre part, la facture {document_number} du {date}, arrivée à échéance le {due_date}, reste à régler pour un montant de {amount_due}.\n\nSi votre règlement est déjà parti, merci de ne pas tenir compte de ce message.',
    ),
    step(
      15,
      'Deuxième rappel : facture {document_number} impayée',
      'Malgré notre précédent rappel, la facture {document_number} échue le {due_date} reste impayée : {amount_due} restent à régler.\n\nMerci de procéder au règlement dans les meilleurs délais ou de nous indiquer la date prévue.',
    ),
    step(
      30,
      'Dernier rappel avant mise en demeure : facture {document_number}',
      'La facture {document_number} échue le {due_date} reste impayée pour un montant de {amount_due}, malgré nos relances.\n\nSans règlement sous huit jours, nous serons contraints d’engager une procédure de recouvrement. Nous vous rappelons que tout retard de paiement entraîne des pénalités de retard et une indemnité forfaitaire de 40 € pour frais de recouvrement (article L441-10 du Code de commerce).',
    ),
  ],
});

/** One reminder recorded on an invoice (table payment_reminders). */
export const reminderRecordSchema = z.object({
  id: z.number().int(),
  document_id: z.number().int(),
  step: z.number().int(),
  status: z.enum(['sending', 'sent', 'failed']),
  /** 'automatic' when the scheduler sent it, 'manual' when a user clicked. */
  trigger: z.enum(['automatic', 'manual']),
  recipients: z.string(),
  subject: z.string(),
  error: z.string(),
  attempts: z.number().int(),
  sent_at: z.string().nullable(),
  updated_at: z.string(),
});
export type ReminderRecord = z.infer<typeof reminderRecordSchema>;

/** A late (or soon due) unpaid invoice on the Relances list. */
export const reminderRowSchema = z.object({
  document_id: z.number().int(),
  number: z.string(),
  customer_name: z.string(),
  customer_email: z.string(),
  maturity: z.string(),
  /** Negative before the due date. */
  days_late: z.number().int(),
  amount_due: z.number(),
  currency: z.string(),
  last_reminder: reminderRecordSchema.nullable(),
  /** The step that falls due now and is not sent yet (the most recent one only), or null. */
  due_step: z.object({ offset_days: z.number().int(), mode: z.enum(['automatic', 'proposed']), label: z.string() }).nullable(),
  /** The step that comes after today, with its date, or null when none is left. */
  next_step: z.object({ offset_days: z.number().int(), label: z.string(), date: z.string() }).nullable(),
});
export type ReminderRow = z.infer<typeof reminderRowSchema>;

/** The Relances list's page: an organisation may owe on tens of thousands of invoices. */
export const reminderListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1, 'Page : 1 au moins').default(1).meta({ label: 'Page' }),
    per_page: z.coerce.number().int().min(1).max(100, 'Cent lignes par page au plus').default(25).meta({ label: 'Lignes par page' }),
  })
  .default({ page: 1, per_page: 25 });
export type ReminderListQuery = z.infer<typeof reminderListQuerySchema>;

/** One page of the Relances list, with what the page's head counts over all of them. */
export const reminderListSchema = listAnswer(reminderRowSchema).extend({
  /** Invoices a day or more past their due date. */
  late: z.number().int(),
  /** Invoices a step falls due for today. */
  due_today: z.number().int(),
  /**
   * The invoices whose due step waits for a click and who have an address: « Envoyer les N relances proposées ». The
   * first hundred in list order at most: once they are sent, the list offers the next ones.
   */
  proposed: z.array(z.number().int()),
});
export type ReminderList = z.infer<typeof reminderListSchema>;

/** One job of the scheduler on the « Tâches planifiées » panel. */
export const scheduledJobSchema = z.object({
  name: z.string(),
  label: z.string(),
  pattern: z.string(),
  next_run_at: z.string().nullable(),
  last_started_at: z.string().nullable(),
  last_finished_at: z.string().nullable(),
  last_status: z.enum(['ok', 'error']).nullable(),
  last_message: z.string().nullable(),
});
export type ScheduledJob = z.infer<typeof scheduledJobSchema>;
