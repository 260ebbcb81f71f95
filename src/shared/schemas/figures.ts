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
  /**
   * This month's money in and out: from confirmed bank lines once a statement was imported ('bank'), else from the
   * payments and paid expenses recorded by hand ('payments'); with the balance the latest statements state.
   */
  cash: z.object({
    source: z.enum(['bank', 'payments']),
    received_month: z.number(),
    paid_month: z.number(),
    balance: z.number().nullable(),
    balance_date: z.string().nullable(),
  }),
  latest: z.array(documentListEntrySchema),
});
