import { z } from 'zod';
import { checkPeriod, dateField } from './reports';
import { VAT_OPERATION_LINES } from '../vat-return/operation-lines';

/**
 * The operations behind one line of the VAT return, a page at a time: what a period with too many operations to list
 * in the return (`items_omitted`) still lets the user read, line by line. Pages follow one another by a cursor (`next`),
 * so that the thousandth page costs what the first does.
 */

export { VAT_OPERATION_LINES, type VatOperationLine } from '../vat-return/operation-lines';

export const VAT_OPERATIONS_PER_PAGE = 50;

/** Where the next page starts: after this day, kind of piece, document or expense, and rate. */
export interface VatOperationsCursor {
  date: string;
  source: 'invoice' | 'credit' | 'expense';
  id: number;
  rate: number;
}

// Readable and safe in an address: 2026-03-31_invoice_1234_20.
const CURSOR = /^(\d{4}-\d{2}-\d{2})_(invoice|credit|expense)_(\d{1,15})_(\d{1,3}(?:\.\d{1,4})?)$/;

export const writeVatOperationsCursor = (c: VatOperationsCursor) => `${c.date}_${c.source}_${c.id}_${c.rate}`;

export function readVatOperationsCursor(text: string): VatOperationsCursor | null {
  const m = CURSOR.exec(text);
  if (!m) return null;
  const [, date, source, id, rate] = m as unknown as [string, string, VatOperationsCursor['source'], string, string];
  return { date, source, id: Number(id), rate: Number(rate) };
}

export const vatOperationsQuerySchema = z
  .object({
    from: dateField('Du'),
    to: dateField('Au'),
    line: z
      .enum(VAT_OPERATION_LINES, {
        error: `Ligne : une ligne de la CA3 qui porte des opérations est attendue (${VAT_OPERATION_LINES.join(', ')})`,
      })
      .meta({ label: 'Ligne' }),
    after: z
      .string()
      .refine((v) => readVatOperationsCursor(v) !== null, 'Suite : la valeur « next » d’une page précédente est attendue')
      .optional()
      .meta({ label: 'Suite' }),
    per_page: z.coerce
      .number({ error: 'Lignes par page : un nombre est attendu' })
      .int('Lignes par page : un nombre entier est attendu')
      .min(1, 'Lignes par page : 1 au moins')
      .max(100, 'Cent lignes par page au plus')
      .default(VAT_OPERATIONS_PER_PAGE)
      .meta({ label: 'Lignes par page' }),
  })
  .superRefine(checkPeriod);
export type VatOperationsQuery = z.infer<typeof vatOperationsQuerySchema>;

const amount = z.number();

export const vatOperationsPageSchema = z.object({
  currency: z.string(),
  line: z.string(),
  label: z.string(),
  /** The line's totals over the whole period, as the return states them (null where the form has no such column). */
  base: amount.nullable(),
  tax: amount.nullable(),
  /**
   * One piece's share of the line on one day at one rate: an invoice when issued or paid, a credit note, an expense
   * when invoiced or paid. In date order; amounts in the base currency, exact (the line sums them to the cent).
   */
  data: z.array(
    z.object({
      date: z.string(),
      source: z.enum(['invoice', 'credit', 'expense']),
      id: z.number().int(),
      /** The document's number, or the supplier's invoice number (else the expense's label). */
      reference: z.string(),
      /** The customer or the supplier. */
      party: z.string(),
      rate: z.number(),
      base: amount,
      tax: amount,
      /** Where the piece is read in the app. */
      link: z.string(),
    }),
  ),
  /** The `after` of the next page; null on the last one. */
  next: z.string().nullable(),
});
export type VatOperationsPage = z.infer<typeof vatOperationsPageSchema>;
