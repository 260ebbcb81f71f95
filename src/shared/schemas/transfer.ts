import { z } from 'zod';

/** How to pay an invoice by SEPA transfer, as its public page gets it: the EPC069-12 code and what the code carries. */
export const transferViewSchema = z.object({
  /** The QR code, an SVG data URL. */
  qr: z.string(),
  holder: z.string(),
  /** Electronic form: no spaces, upper case. */
  iban: z.string(),
  /** '' when none (optional for SEPA transfers). */
  bic: z.string(),
  /** What is asked for, '123.45' in euros. */
  amount: z.string(),
  /** ISO 11649, compact; null when the invoice's number is too long for one. */
  reference: z.string().nullable(),
});
export type TransferView = z.infer<typeof transferViewSchema>;
