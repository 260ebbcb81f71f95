import { z } from 'zod';
import { EREPORTING_KINDS } from '../ereporting';

export const ereportingKindSchema = z
  .enum(EREPORTING_KINDS, { error: 'Type de déclaration : transactions, payments, international ou purchases' })
  .default('transactions')
  .meta({ label: 'Type de déclaration' });

export const ereportingPeriodSchema = z
  .string({ error: 'Période : AAAA-MM (ou AAAA-MM-D1, D2, D3 par décade)' })
  .regex(/^\d{4}-\d{2}(-D[123])?$/, 'Période : AAAA-MM (ou AAAA-MM-D1, D2, D3 par décade)')
  .meta({ label: 'Période' });

export const ereportingListQuerySchema = z.object({
  year: z.coerce
    .number({ error: 'Année : un nombre de 4 chiffres' })
    .int('Année : un nombre de 4 chiffres')
    .min(2000, 'Année : entre 2000 et 2099')
    .max(2099, 'Année : entre 2000 et 2099')
    .optional()
    .meta({ label: 'Année' }),
});

/**
 * Where a period's report stands: `open` the period is not over; `to_send` over, never sent; `invalid` the last
 * report failed the Flux 10 checks (never left); `failed` the platform could not be reached; `pending` sent, not
 * yet acknowledged; `accepted` / `rejected` the platform's acknowledgement; `changed` sales changed since the
 * accepted report, a corrected one is due.
 */
export const EREPORTING_STATUSES = ['open', 'to_send', 'invalid', 'failed', 'pending', 'accepted', 'rejected', 'changed'] as const;

export const ereportingRowSchema = z.object({
  period: z.string(),
  kind: z.enum(EREPORTING_KINDS),
  from: z.string(),
  to: z.string(),
  status: z.enum(EREPORTING_STATUSES),
  /** HT of the period in euros, credit notes deducted. */
  amount: z.number(),
  /** How many operations the report counts: invoices and credit notes (10.1), sales (10.3), payments (10.2, 10.4). */
  count: z.number().int(),
  /** The last report written for the period: its version (1 the initial one), flow and acknowledgement. */
  version: z.number().int().nullable(),
  type_code: z.enum(['IN', 'RE']).nullable(),
  flow_id: z.string().nullable(),
  ack_status: z.string().nullable(),
  errors: z.array(z.string()),
  sent_at: z.string().nullable(),
});
export type EreportingRow = z.infer<typeof ereportingRowSchema>;

export const ereportingListSchema = z.object({ year: z.number().int(), frequency: z.string(), data: z.array(ereportingRowSchema) });

export const ereportingTransmitSchema = z.object({
  flow_id: z.string().nullable(),
  ack_status: z.string().nullable(),
  version: z.number().int(),
  type_code: z.enum(['IN', 'RE']),
});
