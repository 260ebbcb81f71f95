import { z } from 'zod';
import { normalizeTime, timeToSeconds } from '../time-input';
import { listAnswer, writeAnswer } from './answers';
import { APPOINTMENT_STATUSES } from '../appointment-statuses';

export { APPOINTMENT_STATUSES, APPOINTMENT_STATUS_LABELS, type AppointmentStatus } from '../appointment-statuses';

/** Reminder choices the form offers, in minutes before the start (any whole number up to a week is accepted). */
export const REMINDER_CHOICES = [0, 15, 30, 60, 120, 1440] as const;

const isoDate = (label: string) =>
  z.iso.date({ error: `${label} : date attendue au format AAAA-MM-JJ (une date qui existe)` }).meta({ label });

/** A time as typed (`9h30`, `9:30 pm`, `21:30:05`), answered in its canonical 'HH:MM[:SS]'. */
const timeField = (label: string) =>
  z
    .string({ error: `${label} : heure attendue (ex. 09:30)` })
    .transform((text, ctx) => {
      const time = normalizeTime(text);
      if (time === null) {
        ctx.addIssue({ code: 'custom', message: `${label} : « ${text.slice(0, 20)} » n’est pas une heure (ex. 09:30, 9h30, 9:30 pm)` });
        return z.NEVER;
      }
      return time;
    })
    .meta({ label });

/** An appointment as the form and the API send it (title, date, start, end, customer_id?, location, note). */
export const appointmentInputSchema = z
  .object({
    title: z
      .string({ error: 'Le titre est obligatoire' })
      .trim()
      .min(1, 'Le titre est obligatoire')
      .max(200, 'Titre : 200 caractères au plus')
      .meta({ label: 'Titre' }),
    date: isoDate('Date'),
    all_day: z.boolean({ error: 'Toute la journée : true ou false' }).default(false).meta({ label: 'Toute la journée' }),
    start: z.preprocess((v) => (v === '' ? null : v), timeField('Début').nullable().optional().default(null)).meta({ label: 'Début' }),
    end: z.preprocess((v) => (v === '' ? null : v), timeField('Fin').nullable().optional().default(null)).meta({ label: 'Fin' }),
    customer_id: z
      .number({ error: 'Client : identifiant attendu' })
      .int()
      .positive()
      .nullable()
      .optional()
      .default(null)
      .meta({ label: 'Client' }),
    location: z.string().trim().max(300, 'Lieu : 300 caractères au plus').default('').meta({ label: 'Lieu' }),
    note: z.string().max(5000, 'Note : 5000 caractères au plus').default('').meta({ label: 'Note' }),
    status: z
      .enum(APPOINTMENT_STATUSES, { error: 'Statut : planned (prévu), done (effectué) ou cancelled (annulé)' })
      .default('planned')
      .meta({ label: 'Statut' }),
    reminder_minutes: z
      .number({ error: 'Rappel : un nombre de minutes est attendu' })
      .int('Rappel : un nombre entier de minutes')
      .min(0, 'Rappel : il ne peut être négatif')
      .max(10_080, 'Rappel : une semaine au plus')
      .nullable()
      .optional()
      .default(null)
      .meta({ label: 'Rappel' }),
  })
  .superRefine((a, ctx) => {
    if (a.all_day) return;
    if (a.start === null)
      ctx.addIssue({ code: 'custom', path: ['start'], message: 'Début : heure attendue (ex. 09:30), ou « toute la journée »' });
    if (a.end === null)
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'Fin : heure attendue (ex. 10:30), ou « toute la journée »' });
    if (a.start !== null && a.end !== null && timeToSeconds(a.end) <= timeToSeconds(a.start))
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'La fin doit être après le début' });
  })
  // An all-day appointment has no hours: none are kept, whatever was sent.
  .transform((a) => (a.all_day ? { ...a, start: null, end: null } : a));
export type AppointmentInput = z.input<typeof appointmentInputSchema>;
export type AppointmentForm = z.infer<typeof appointmentInputSchema>;

export const appointmentSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  date: z.string(),
  all_day: z.boolean(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  location: z.string(),
  note: z.string(),
  status: z.enum(APPOINTMENT_STATUSES),
  reminder_minutes: z.number().int().nullable(),
  /** The draft invoice it was billed on: billed once, never twice. */
  billed_document_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

export const appointmentListQuerySchema = z.object({
  from: isoDate('Du').optional(),
  to: isoDate('Au').optional(),
  customer_id: z.coerce.number({ error: 'Client : identifiant attendu' }).int().positive().optional().meta({ label: 'Client' }),
  status: z.enum(APPOINTMENT_STATUSES, { error: 'Statut : planned, done ou cancelled' }).optional().meta({ label: 'Statut' }),
  /** Only done appointments not billed yet: what « Facturer » offers. */
  billable: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .transform((v) => v === true || v === 'true' || v === '1')
    .optional()
    .meta({ label: 'À facturer' }),
});
export type AppointmentListQuery = z.infer<typeof appointmentListQuerySchema>;

export const appointmentListSchema = listAnswer(appointmentSchema);
export const appointmentWriteSchema = writeAnswer(appointmentSchema);

/** « Facturer »: done appointments of one customer onto a new draft invoice, priced at an item's hourly rate. */
export const billAppointmentsInputSchema = z.object({
  customer_id: z.number({ error: 'Client : identifiant attendu' }).int().positive().meta({ label: 'Client' }),
  item_id: z.number({ error: 'Choisissez l’article dont le prix est le taux horaire' }).int().positive().meta({ label: 'Article' }),
  appointment_ids: z
    .array(z.number().int().positive(), { error: 'Rendez-vous : une liste est attendue' })
    .min(1, 'Choisissez au moins un rendez-vous effectué')
    .max(500, '500 rendez-vous au plus')
    .meta({ label: 'Rendez-vous' }),
});
export type BillAppointmentsInput = z.infer<typeof billAppointmentsInputSchema>;

/** The private calendar feed's address; `url` is null until one is made, or after it is revoked. */
export const calendarFeedSchema = z.object({ url: z.string().nullable(), created_at: z.string().nullable() });
