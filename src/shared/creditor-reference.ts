import { mod97, mod97CheckDigits } from './mod97';

/**
 * ISO 11649 structured creditor reference: « RF », two check digits, up to 21 letters or digits. Written on a
 * transfer, it lets the payment be matched to its invoice whatever the customer types in the free text.
 */
const BODY_MAX = 21;
const SHAPE = /^RF\d{2}[A-Z0-9]{1,21}$/;

/**
 * The reference of an invoice, from its number alone (so it is the same wherever it is computed and needs no column):
 * the number's letters and digits, upper-cased. null when the number keeps none, or more than a reference holds —
 * cutting it could give two invoices the same reference.
 */
export function creditorReference(documentNumber: string): string | null {
  const body = documentNumber.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (body.length === 0 || body.length > BODY_MAX) return null;
  return `RF${mod97CheckDigits(body, 'RF')}${body}`;
}

/** The reference an issued invoice (or deposit invoice) is paid with; null for other documents and drafts. */
export const invoiceReference = (doc: { type: string; number: string | null }): string | null =>
  doc.type === 'invoice' && doc.number ? creditorReference(doc.number) : null;

/** Whether a text (spaces allowed, any case) is a well-formed ISO 11649 reference with the right check digits. */
export function isValidCreditorReference(text: string): boolean {
  const ref = compactReference(text);
  // MOD 97-10 check digits run from 02 to 98: 00, 01 and 99 alias 97, 98 and 02 and are never issued.
  const digits = Number(ref.slice(2, 4));
  return SHAPE.test(ref) && digits >= 2 && digits <= 98 && mod97(`${ref.slice(4)}${ref.slice(0, 4)}`) === 1;
}

/** Upper case, no spaces: the electronic form (a QR code, a bank statement's field). */
export const compactReference = (text: string): string => text.replace(/\s+/g, '').toUpperCase();

/** ISO 11649's paper form: groups of four, easier to read out and to type. */
export const printedReference = (ref: string): string => compactReference(ref).replace(/(.{4})(?=.)/g, '$1 ');
