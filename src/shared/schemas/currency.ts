import { z } from 'zod';

/** SPEC §3 currency catalogue entry. */
export const currencySchema = z.object({
  code: z.string().regex(/^[A-Z]{3}$/),
  name: z.string().min(1),
  symbol: z.string().min(1),
  symbol_native: z.string().min(1),
  decimal_digits: z.number().int().min(0).max(4),
  rounding: z.number().min(0),
  name_plural: z.string().min(1),
});
export type Currency = z.infer<typeof currencySchema>;
