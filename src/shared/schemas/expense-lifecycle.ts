import { z } from 'zod';
import { BUYER_STATUS_KEYS, BUYER_STATUSES, REASONS_OF, STATUS_REASONS } from '../einvoice-status-reasons';
import { FLOW_STATE_KEYS } from '../einvoice-flows';

/** « Approuver », « Refuser » or « Contester » a supplier invoice received from the platform. */
export const expenseLifecycleInputSchema = z
  .object({
    status: z.enum(BUYER_STATUS_KEYS, { error: 'Statut : approuvée, refusée ou en litige' }).meta({ label: 'Statut' }),
    /** The reason code of a refusal or a dispute, from the reform's list. */
    reason: z.string().trim().max(40).optional().meta({ label: 'Motif' }),
  })
  .superRefine((input, ctx) => {
    if (input.status === 'approved') return;
    const allowed = REASONS_OF[input.status];
    if (!input.reason) {
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: `Motif : obligatoire pour une facture ${BUYER_STATUSES[input.status].label.toLowerCase()}`,
      });
    } else if (!(allowed as readonly string[]).includes(input.reason)) {
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: `Motif : « ${input.reason} » n’est pas un motif de la liste de la réforme`,
      });
    }
  });
export type ExpenseLifecycleInput = z.infer<typeof expenseLifecycleInputSchema>;

export const sentStatusSchema = z.object({
  status: z.enum(BUYER_STATUS_KEYS),
  code: z.number().int(),
  label: z.string(),
  reason_code: z.string(),
  reason_label: z.string(),
  /** Where its message to the platform stands (the outbox's states). */
  state: z.enum(FLOW_STATE_KEYS),
  state_label: z.string(),
  flow_id: z.string().nullable(),
  error: z.string(),
  created_at: z.string(),
});
export type SentStatus = z.infer<typeof sentStatusSchema>;

export const expenseLifecycleSchema = z.object({
  /** Whether the expense is a supplier invoice received from the platform (only those take a status). */
  available: z.boolean(),
  statuses: z.array(sentStatusSchema),
});
export type ExpenseLifecycle = z.infer<typeof expenseLifecycleSchema>;

export const reasonLabel = (code: string) => (STATUS_REASONS as Record<string, string | undefined>)[code] ?? code;
