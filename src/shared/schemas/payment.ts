import { z } from 'zod';
import { PAYMENT_METHODS } from '../status';
import { INPUT_SCALE } from '../money';
import { decimalSchema } from './document';
import { formatDateShort } from '../format';

const METHODS = Object.keys(PAYMENT_METHODS) as [keyof typeof PAYMENT_METHODS, ...(keyof typeof PAYMENT_METHODS)[]];

/** A payment received on an invoice (methods). The amount is positive, in major units (the currency's decimals are checked by the service). */
export const paymentInputSchema = z.object({
  date: z.iso.date({ error: 'Date du paiement attendue au format AAAA-MM-JJ' }).meta({ label: 'Date du paiement' }),
  // Typed ('120,50') or a JSON number, read by the one decimal rule: finite, within 1e12, 4 decimals at most.
  amount: decimalSchema('Montant du paiement', INPUT_SCALE, 1e12, 'Le montant est un nombre (ex. 120,50)')
    .refine((n) => n > 0, 'Le montant du paiement doit être positif')
    .meta({ label: 'Montant du paiement' }),
  method: z
    .enum(METHODS, { error: 'Moyen de paiement : virement, chèque, carte ou espèces' })
    .default('transfer')
    .meta({ label: 'Moyen de paiement' }),
  reference: z.string().trim().max(120, 'Référence : 120 caractères au plus').default('').meta({ label: 'Référence' }),
  note: z.string().max(2000, 'Note : 2000 caractères au plus').default('').meta({ label: 'Note' }),
});
export type PaymentInput = z.input<typeof paymentInputSchema>;

/**
 * A payment is recorded once received: dated after today it would be counted before it happened (the VAT on receipts,
 * « Encaissée », the livre des recettes and the bank journal read payments by their date). Null when the date is right.
 */
export function futurePaymentProblem(date: string, today: string): string | null {
  if (date <= today) return null;
  return `Date du paiement : le ${formatDateShort(date)} est dans le futur ; enregistrez le paiement le jour où il est reçu`;
}
export type Payment = z.infer<typeof paymentInputSchema>;

/** A payment as answered. */
export const paymentSchema = z.object({
  id: z.number().int(),
  document_id: z.number().int(),
  date: z.string(),
  amount: z.number(),
  method: z.string(),
  reference: z.string(),
  note: z.string(),
  /** On a counter-entry (negative amount): the payment it cancels. */
  reverses_id: z.number().int().nullable(),
  /** On a cancelled payment: its counter-entry. */
  reversed_by_id: z.number().int().nullable(),
  /** What the payment processor kept on it (a card payment's Stripe fee), in `fee_currency`; 0 and null otherwise. */
  fee: z.number(),
  fee_currency: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A refund of what a credit note has left: the amount (all that is left when omitted), how and when it was paid back. */
export const creditRefundInputSchema = z.object({
  date: z.iso.date({ error: 'Date du remboursement attendue au format AAAA-MM-JJ' }).meta({ label: 'Date du remboursement' }),
  amount: decimalSchema('Montant du remboursement', INPUT_SCALE, 1e12, 'Le montant est un nombre (ex. 120,50)')
    .refine((n) => n > 0, 'Le montant du remboursement doit être positif')
    .optional()
    .meta({ label: 'Montant du remboursement' }),
  method: z
    .enum(METHODS, { error: 'Moyen de remboursement : virement, chèque, carte ou espèces' })
    .default('transfer')
    .meta({ label: 'Moyen de remboursement' }),
});
export type CreditRefund = z.infer<typeof creditRefundInputSchema>;

/** Where a credit note's amount went: the invoices it was set against, its refunds, and what it has left. */
export const creditSettlementSchema = z.object({
  applied: z.array(z.object({ invoice_id: z.number().int(), number: z.string(), amount: z.number(), date: z.string() })),
  refunds: z.array(z.object({ amount: z.number(), method: z.string(), date: z.string() })),
  available: z.number(),
});
export type CreditSettlement = z.infer<typeof creditSettlementSchema>;
