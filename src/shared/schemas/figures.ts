import { z } from 'zod';
import { documentListEntrySchema } from './document-model';

/** Vue d'ensemble's figures, in the organisation's base currency. */
export const dashboardSchema = z.object({
  currency: z.string(),
  turnover_month: z.number(),
  turnover_year: z.number(),
  /** Turnover excluding tax of each month of this year, January first. */
  monthly: z.array(z.number()),
  outstanding: z.number(),
  open_invoices: z.number().int(),
  overdue: z.number(),
  overdue_count: z.number().int(),
  latest: z.array(documentListEntrySchema),
});
