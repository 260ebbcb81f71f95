import { add, max, min, sub, ZERO, type Money } from '../money';

/**
 * The lines of the VAT return a small business files (formulaire 3310-CA3, its notice 3310-NOT-CA3-SD) and what
 * Facturier puts on each. One definition for the server that fills them and the screen that shows them.
 *
 * Cadre A holds amounts excluding VAT of the period's operations, cadre B the VAT itself. A line of cadre A is the
 * base of the operations whose VAT (or, when untaxed, whose chargeable event) falls in the period: the same
 * exigibility as the VAT of cadre B (exigibility.ts), so that A1 equals the bases of lines 08 to T.
 */
export interface Ca3LineDefinition {
  code: Ca3LineCode;
  frame: 'A' | 'B';
  label: string;
  /** Lines of cadre B with a base and a tax (08, 9B, 09, T6, T): both columns; cadre A: the base only; others: the tax only. */
  columns: 'base' | 'base_and_tax' | 'tax';
}

export const CA3_LINES = [
  // Taxable sales of goods and services in France, excluding VAT: the bases of lines 08 to T (invoices, deposits
  // received, less credit notes), each when its VAT becomes due.
  { code: 'A1', frame: 'A', label: 'Ventes, prestations de services', columns: 'base' },
  // Self-supplies, disposals of fixed assets, subsidies that are the price of an operation: nothing Facturier invoices
  // lands here; the line is kept so that the return reads as the form does.
  { code: 'A2', frame: 'A', label: 'Autres opérations imposables', columns: 'base' },
  // Services bought from a business not established in France whose VAT the buyer self-assesses (CGI art. 283-2):
  // expenses recorded with that reverse charge; their VAT on 08–09, deducted on 20.
  {
    code: 'A3',
    frame: 'A',
    label: 'Achats de prestations de services réalisés auprès d’un assujetti non établi en France (art. 283-2 du CGI)',
    columns: 'base',
  },
  // Intra-community acquisitions of goods (CGI art. 256 bis), expenses recorded with that reverse charge: VAT
  // self-assessed on 08–09 (and 17) and deducted on 20.
  { code: 'B2', frame: 'A', label: 'Acquisitions intracommunautaires', columns: 'base' },
  // Exports of goods out of the EU (CGI art. 262 I): untaxed goods lines to a customer established outside the EU.
  { code: 'E1', frame: 'A', label: 'Exportations hors UE', columns: 'base' },
  // Other operations not taxed in France: services to a business of another member state (CGI art. 259-1 and 283-2,
  // the customer self-assesses) or outside the EU, exempt operations (training, CGI art. 261-4-4°…), any other
  // untaxed line.
  { code: 'E2', frame: 'A', label: 'Autres opérations non imposables', columns: 'base' },
  // Exempt intra-community supplies of goods to a business with a VAT number of another member state (CGI art. 262 ter I).
  { code: 'F2', frame: 'A', label: 'Livraisons intracommunautaires à destination d’une personne assujettie', columns: 'base' },
  // VAT due per rate, metropolitan France: the bases and VAT of the taxed lines, when due (exigibility.ts).
  { code: '08', frame: 'B', label: 'Taux normal 20 %', columns: 'base_and_tax' },
  { code: '9B', frame: 'B', label: 'Taux réduit 10 %', columns: 'base_and_tax' },
  { code: '09', frame: 'B', label: 'Taux réduit 5,5 %', columns: 'base_and_tax' },
  // 2,1 % in metropolitan France (medicines, press) is declared among the « autres taux », on line T6.
  { code: 'T6', frame: 'B', label: 'Taux de 2,1 % (France métropolitaine)', columns: 'base_and_tax' },
  // Any other rate (Corsica, overseas departments): to be spread by the accountant on its own line of the form.
  { code: 'T', frame: 'B', label: 'Autres taux (à reporter sur la ligne de leur taux)', columns: 'base_and_tax' },
  { code: '16', frame: 'B', label: 'Total de la TVA brute due', columns: 'tax' },
  // Of line 16, the VAT self-assessed on intra-community acquisitions (B2).
  { code: '17', frame: 'B', label: 'Dont TVA sur acquisitions intracommunautaires', columns: 'tax' },
  // Deductible VAT on fixed assets: expenses booked to a class 2 account (category of the expense).
  { code: '19', frame: 'B', label: 'Biens constituant des immobilisations', columns: 'tax' },
  // Deductible VAT on other goods and services: goods when invoiced, services when paid (CGI art. 271-I-2, 269-2).
  { code: '20', frame: 'B', label: 'Autres biens et services', columns: 'tax' },
  // The credit carried from line 27 of the previous return: given by the user, Facturier does not keep filed returns.
  { code: '22', frame: 'B', label: 'Report du crédit apparaissant ligne 27 de la précédente déclaration', columns: 'tax' },
  { code: '23', frame: 'B', label: 'Total TVA déductible', columns: 'tax' },
  // Line 23 − line 16 when the deductible VAT exceeds the VAT due.
  { code: '25', frame: 'B', label: 'Crédit de TVA', columns: 'tax' },
  // The part of the credit whose refund is asked (formulaire 3519): given by the user.
  { code: '26', frame: 'B', label: 'Remboursement de crédit demandé', columns: 'tax' },
  { code: '27', frame: 'B', label: 'Crédit à reporter (ligne 25 − ligne 26)', columns: 'tax' },
  // Line 16 − line 23 when the VAT due exceeds the deductible VAT.
  { code: '28', frame: 'B', label: 'TVA nette due', columns: 'tax' },
] as const satisfies readonly { code: string; frame: 'A' | 'B'; label: string; columns: Ca3LineDefinition['columns'] }[];

export type Ca3LineCode = (typeof CA3_LINES)[number]['code'];

/** The line of cadre B of a VAT rate collected in metropolitan France. */
export function rateLine(rate: number): Ca3ItemLine {
  if (rate === 20) return '08';
  if (rate === 10) return '9B';
  if (rate === 5.5) return '09';
  if (rate === 2.1) return 'T6';
  return 'T';
}

/** The lines an operation can be traced to (each item names one); totals (16, 23, 25…) are computed from them. */
export type Ca3ItemLine = 'A3' | 'B2' | 'E1' | 'E2' | 'F2' | '08' | '9B' | '09' | 'T6' | 'T' | '19' | '20';

/** One operation behind a line: a document's or an expense's share of it in the period, in the base currency. */
export interface Ca3Item {
  line: Ca3ItemLine;
  /** What it is: an invoice (deposits included), a credit note, an expense (or a supplier's credit note). */
  source: 'invoice' | 'credit' | 'expense';
  id: number;
  /** The document's number, or the supplier's invoice number. */
  reference: string;
  /** The customer or the supplier. */
  party: string;
  /** The day the VAT became due or deductible in the period: issue, payment, credit note. */
  date: string;
  nature: 'goods' | 'services' | null;
  /** Why it falls in this period, in French (« Facturée », « Encaissée à 50 % »…). */
  basis: string;
  /** The VAT rate in percent (0 for untaxed operations). */
  rate: number;
  base: Money;
  tax: Money;
  /** VAT self-assessed by the buyer (an expense): on B2 or A3 and the rate's line, not a sale of A1. */
  reverseCharge: 'goods' | 'services' | null;
}

/** A1 counts the sales taxed in France: the rate lines' items but the VAT self-assessed on purchases. */
export const isSale = (item: { reverseCharge: 'goods' | 'services' | null }) => item.reverseCharge === null;

export interface Ca3Line {
  code: Ca3LineCode;
  frame: 'A' | 'B';
  label: string;
  base: Money | null;
  tax: Money | null;
  /** The operations on this line itself. */
  items: Ca3Item[];
  /** A total's lines, whose items make it up (A1: 08 to T; 16: 08 to T; 23: 19 and 20): each item is given once. */
  sums: Ca3ItemLine[];
}

const RATE_LINES: readonly Ca3ItemLine[] = ['08', '9B', '09', 'T6', 'T'];
const DEDUCTIBLE_LINES: readonly Ca3ItemLine[] = ['19', '20'];
const sumOf = (items: readonly Ca3Item[], field: 'base' | 'tax') => items.reduce<Money>((s, i) => add(s, i[field]), ZERO);

/**
 * Lays out the return from the period's items: every line of CA3_LINES, in its order, with its items and totals.
 * `previousCredit` (line 22) and `refund` (line 26) are the user's; the refund cannot exceed the credit.
 */
export function buildCa3(unsorted: readonly Ca3Item[], options: { previousCredit?: Money; refund?: Money } = {}): Ca3Line[] {
  // In date order, as the accountant ticks them off the journals.
  const items = [...unsorted].sort(
    (a, b) =>
      a.date.localeCompare(b.date) ||
      a.reference.localeCompare(b.reference, 'fr') ||
      (a.nature ?? '').localeCompare(b.nature ?? '') ||
      b.rate - a.rate,
  );
  const on = (code: Ca3ItemLine) => items.filter((i) => i.line === code);
  const taxed = items.filter((i) => RATE_LINES.includes(i.line));
  const gross = sumOf(taxed, 'tax');
  const previousCredit = options.previousCredit ?? ZERO;
  const deductible = add(
    sumOf(
      items.filter((i) => DEDUCTIBLE_LINES.includes(i.line)),
      'tax',
    ),
    previousCredit,
  );
  const credit = max(sub(deductible, gross), ZERO);
  const refund = max(min(options.refund ?? ZERO, credit), ZERO);
  const values: Record<Ca3LineCode, { base: Money | null; tax: Money | null; items: Ca3Item[]; sums?: Ca3ItemLine[] }> = {
    A1: { base: sumOf(taxed.filter(isSale), 'base'), tax: null, items: [], sums: [...RATE_LINES] },
    A2: { base: ZERO, tax: null, items: [] },
    A3: { base: sumOf(on('A3'), 'base'), tax: null, items: on('A3') },
    B2: { base: sumOf(on('B2'), 'base'), tax: null, items: on('B2') },
    E1: { base: sumOf(on('E1'), 'base'), tax: null, items: on('E1') },
    E2: { base: sumOf(on('E2'), 'base'), tax: null, items: on('E2') },
    F2: { base: sumOf(on('F2'), 'base'), tax: null, items: on('F2') },
    '08': { base: sumOf(on('08'), 'base'), tax: sumOf(on('08'), 'tax'), items: on('08') },
    '9B': { base: sumOf(on('9B'), 'base'), tax: sumOf(on('9B'), 'tax'), items: on('9B') },
    '09': { base: sumOf(on('09'), 'base'), tax: sumOf(on('09'), 'tax'), items: on('09') },
    T6: { base: sumOf(on('T6'), 'base'), tax: sumOf(on('T6'), 'tax'), items: on('T6') },
    T: { base: sumOf(on('T'), 'base'), tax: sumOf(on('T'), 'tax'), items: on('T') },
    '16': { base: null, tax: gross, items: [], sums: [...RATE_LINES] },
    // The VAT self-assessed on intra-community acquisitions, carried by the items of B2.
    '17': { base: null, tax: sumOf(on('B2'), 'tax'), items: [], sums: ['B2'] },
    '19': { base: null, tax: sumOf(on('19'), 'tax'), items: on('19') },
    '20': { base: null, tax: sumOf(on('20'), 'tax'), items: on('20') },
    '22': { base: null, tax: previousCredit, items: [] },
    '23': { base: null, tax: deductible, items: [], sums: [...DEDUCTIBLE_LINES] },
    '25': { base: null, tax: credit, items: [] },
    '26': { base: null, tax: refund, items: [] },
    '27': { base: null, tax: sub(credit, refund), items: [] },
    '28': { base: null, tax: max(sub(gross, deductible), ZERO), items: [] },
  };
  return CA3_LINES.map((d) => ({ code: d.code, frame: d.frame, label: d.label, sums: [], ...values[d.code] }));
}
