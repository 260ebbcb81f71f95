import { z } from 'zod';
import { listAnswer } from './answers';
import { documentTypeSchema } from './document';
import type { StoredStatus } from '../document-status';

const DISPLAYED_STATUSES = [
  'draft',
  'unpaid',
  'partial',
  'paid',
  'canceled',
  'pending',
  'accepted',
  'refused',
  'converted',
  'done',
  'overdue',
] as const satisfies readonly (StoredStatus | 'overdue')[];

/**
 * A document as lists show it (the documents list, the dashboard's latest documents): amounts in major units,
 * `status` as displayed (an unpaid invoice past its due date is 'overdue').
 */
export const documentListEntrySchema = z.object({
  id: z.number().int(),
  type: documentTypeSchema,
  kind: z.enum(['standard', 'deposit']),
  status: z.enum(DISPLAYED_STATUSES),
  number: z.string().nullable(),
  uuid: z.string(),
  date: z.string(),
  maturity: z.string().nullable(),
  customer_id: z.number().int().nullable(),
  customer_name: z.string(),
  currency: z.string(),
  subtotal: z.number(),
  tax: z.number(),
  total: z.number(),
  deposits: z.number(),
  paid: z.number(),
  amount_due: z.number(),
  origin_id: z.number().int().nullable(),
  corrects_id: z.number().int().nullable(),
  sent_at: z.string().nullable(),
  issued_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const documentListSchema = listAnswer(documentListEntrySchema);
