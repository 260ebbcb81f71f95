/**
 * Accounting entries of the FEC (LPF art. A47 A-1) built from issued documents and recorded payments, in integer
 * units of the accounting currency (money.ts): every entry balances exactly, debits = credits, by construction.
 *
 * | piece                 | debit                                  | credit                                                  |
 * |-----------------------|----------------------------------------|---------------------------------------------------------|
 * | invoice (VT)          | 411 customer: total                    | 706 services / 707 goods: net of discount, by line      |
 * |                       |                                        | nature; 708 shipping; 44571 VAT, one line per rate,     |
 * |                       |                                        | less what is not yet due, on 44574 (vat-on-receipts.ts) |
 * | deposit invoice (VT)  | 411: total                             | 4191 deposits received: total − VAT; 44571 per rate     |
 * | deposits deducted on  | 4191: deposit − its VAT; 44571 per rate| 411: deposit total (its VAT was booked on the deposit   |
 * | a final invoice (VT)  | of the deposit                         | invoice: this takes it back out, so it counts once)     |
 * | credit note (VT)      | the invoice's credits, reversed        | 411: total                                              |
 * | payment (BQ)          | 512 bank: amount − fee; 627 fee        | 411 customer (a reversal swaps the sides)               |
 *
 * Purchases and bank statement lines: purchase-entries.ts.
 * Revenue is what is left of the total once VAT and shipping are booked, spread over natures by the lines' net
 * amounts (largest remainder): so the entry balances even where a document's discount or rounding was spread.
 */
import { allocateUnits, INPUT_SCALE, rescale, toUnits4 } from '../money';
import type { AccountingSettings } from '../schemas/accounting';

export type FecJournal = 'VT' | 'AC' | 'BQ' | 'OD';

export const JOURNAL_LABELS: Record<FecJournal, string> = { VT: 'Ventes', AC: 'Achats', BQ: 'Banque', OD: 'Opérations diverses' };

/**
 * One label per kind of account: the administration's checks want one CompteLib per CompteNum across the file (the
 * rate of a VAT line is the line's business, not its account's).
 */
export const ACCOUNT_LABELS = {
  customers: 'Clients',
  services: 'Prestations de services',
  goods: 'Ventes de marchandises',
  shipping: 'Ports et frais accessoires facturés',
  deposits: 'Clients - avances et acomptes reçus',
  vat: 'TVA collectée',
  vat_on_receipts: 'TVA collectée sur encaissements',
  bank: 'Banque',
  suppliers: 'Fournisseurs',
  deductible_vat: 'TVA déductible sur autres biens et services',
  deductible_vat_on_receipts: 'TVA déductible sur encaissements',
  self_assessed_vat: 'TVA due intracommunautaire',
  fees: 'Services bancaires et assimilés',
  suspense: 'Opérations en attente',
} as const;

export interface FecLine {
  account: string;
  accountLabel: string;
  /** The customer's auxiliary account, on 411 lines only. */
  aux: { number: string; label: string } | null;
  label: string;
  /** Units of the accounting currency (10^-precision); one of debit and credit is 0, neither is negative. */
  debit: bigint;
  credit: bigint;
  /** The amount in the document's currency when it is not the accounting one (Montantdevise, Idevise). */
  foreign: { units: bigint; precision: number; currency: string } | null;
}

export interface FecEntry {
  journal: FecJournal;
  /** YYYY-MM-DD: the piece's date (invoice date, payment date). */
  date: string;
  pieceRef: string;
  pieceDate: string;
  /** YYYY-MM-DD: when the entry became final (issue date, payment record date). */
  validDate: string;
  /** ISO timestamp of that moment: orders the entries of one day as they happened. */
  recordedAt: string;
  lines: FecLine[];
}

export interface TaxAmount {
  rate: number;
  amount: number;
}

/** A document as the FEC needs it: amounts in major units of its own currency, as stored. */
export interface SaleDocument {
  type: 'invoice' | 'credit';
  deposit: boolean;
  number: string;
  date: string;
  validDate: string;
  recordedAt: string;
  customer: { number: string; name: string };
  total: number;
  shipping: number;
  taxes: TaxAmount[];
  lines: { kind: 'goods' | 'service'; net: number }[];
  /** Deposit invoices deducted by this (final) invoice. */
  deductions: { number: string; total: number; taxes: TaxAmount[] }[];
}

export interface PaymentRecord {
  invoiceNumber: string;
  date: string;
  validDate: string;
  recordedAt: string;
  customer: { number: string; name: string };
  /** Negative for a reversal (counter-entry). */
  amount: number;
  method: string;
  /** What the payment service kept of it (card or bank fee), booked to bank charges; none when absent. */
  fee?: number;
}

/**
 * From the document's currency to the accounting one: `precision` is the accounting currency's decimals; `convert`
 * turns a major-units amount of the document's currency into units of it (identity scaling for the same currency).
 */
export interface Conversion {
  precision: number;
  currency: string | null;
  sourcePrecision: number;
  convert: (units: bigint) => bigint;
}

export const sameCurrency = (precision: number): Conversion => ({
  precision,
  currency: null,
  sourcePrecision: precision,
  convert: (units) => units,
});

export type Draft = { account: string; accountLabel: string; aux: FecLine['aux']; label: string; amount: bigint; source: bigint | null };

/** A signed amount to the debit (positive) or credit side; a negative one moves to the other side. */
function toLine(draft: Draft, side: 'debit' | 'credit', conversion: Conversion, converted: bigint): FecLine {
  const amount = side === 'debit' ? converted : -converted;
  const foreign =
    conversion.currency === null || draft.source === null
      ? null
      : { units: draft.source < 0n ? -draft.source : draft.source, precision: conversion.sourcePrecision, currency: conversion.currency };
  return {
    account: draft.account,
    accountLabel: draft.accountLabel,
    aux: draft.aux,
    label: draft.label,
    debit: amount > 0n ? amount : 0n,
    credit: amount < 0n ? -amount : 0n,
    foreign,
  };
}

/**
 * Debit drafts and credit drafts (signed amounts in the document's units, whose sums are equal) to balanced lines
 * in the accounting currency. Each amount is converted on its own; a conversion's rounding gap goes to the largest
 * debit, so the entry balances exactly. Zero lines are dropped.
 */
export function balancedLines(debits: Draft[], credits: Draft[], conversion: Conversion): FecLine[] {
  const convertedDebits = debits.map((d) => conversion.convert(d.amount));
  const convertedCredits = credits.map((c) => conversion.convert(c.amount));
  const gap = convertedCredits.reduce((a, b) => a + b, 0n) - convertedDebits.reduce((a, b) => a + b, 0n);
  if (gap !== 0n && convertedDebits.length > 0) {
    const magnitude = (v: bigint) => (v < 0n ? -v : v);
    let largest = 0;
    convertedDebits.forEach((v, i) => {
      if (magnitude(v) > magnitude(convertedDebits[largest] ?? 0n)) largest = i;
    });
    convertedDebits[largest] = (convertedDebits[largest] ?? 0n) + gap;
  }
  return [
    ...debits.map((d, i) => toLine(d, 'debit', conversion, convertedDebits[i] ?? 0n)),
    ...credits.map((c, i) => toLine(c, 'credit', conversion, convertedCredits[i] ?? 0n)),
  ].filter((l) => l.debit !== 0n || l.credit !== 0n);
}

/**
 * Moves `held` (units of the accounting currency, on the side the VAT lines are) from the entry's VAT lines to the
 * waiting account, largest line first, one waiting line beside each line it comes from (one per rate, as 44571): the
 * entry keeps its balance, the VAT due at issue stays on 44571.
 */
export function holdVat(lines: FecLine[], held: bigint, accounts: AccountingSettings, label: string): FecLine[] {
  if (held === 0n) return lines;
  const credit = lines.some((l) => l.account === accounts.vat && l.credit > 0n);
  const amountOf = (l: FecLine) => (credit ? l.credit : l.debit);
  const order = lines
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.account === accounts.vat && amountOf(l) > 0n)
    .sort((a, b) => (amountOf(a.l) < amountOf(b.l) ? 1 : amountOf(a.l) > amountOf(b.l) ? -1 : a.i - b.i));
  const taken = new Map<number, bigint>();
  let rest = held;
  for (const [k, { l, i }] of order.entries()) {
    // The last line takes what is left, should a foreign currency's rounding leave more than it holds.
    const take = k === order.length - 1 || rest < amountOf(l) ? rest : amountOf(l);
    if (take === 0n) break;
    taken.set(i, take);
    rest -= take;
  }
  const sided = (amount: bigint) =>
    credit
      ? { debit: amount < 0n ? -amount : 0n, credit: amount > 0n ? amount : 0n }
      : { debit: amount > 0n ? amount : 0n, credit: amount < 0n ? -amount : 0n };
  return lines
    .flatMap((l, i) => {
      const take = taken.get(i);
      if (take === undefined) return [l];
      const whole = take === amountOf(l);
      // The document's own amount follows a line moved whole; a line cut in two keeps none on either side.
      const left: FecLine = { ...l, ...sided(amountOf(l) - take), foreign: null };
      const waiting: FecLine = {
        account: accounts.vat_on_receipts,
        accountLabel: ACCOUNT_LABELS.vat_on_receipts,
        aux: null,
        label,
        ...sided(take),
        foreign: whole ? l.foreign : null,
      };
      return [left, waiting];
    })
    .filter((l) => l.debit !== 0n || l.credit !== 0n);
}

/** VAT amounts merged by rate (two taxes of one rate are one account line), in the document's units. */
function vatByRate(taxes: TaxAmount[], units: (n: number) => bigint): Map<number, bigint> {
  const byRate = new Map<number, bigint>();
  for (const t of taxes) byRate.set(t.rate, (byRate.get(t.rate) ?? 0n) + units(t.amount));
  return new Map([...byRate].sort(([a], [b]) => a - b));
}

/**
 * Revenue over natures in proportion to their net amounts. With a negative nature (a rebate line) proportions mean
 * nothing: each nature keeps its own net and only the difference (a document discount) is spread by magnitude.
 */
function spread(revenue: bigint, weights: bigint[]): bigint[] {
  if (weights.every((w) => w >= 0n) || weights.every((w) => w <= 0n)) return allocateUnits(revenue, weights);
  const rest = allocateUnits(revenue - weights.reduce((a, b) => a + b, 0n), weights);
  return weights.map((w, i) => w + (rest[i] ?? 0n));
}

/** One sales-journal entry (VT) for an issued invoice, deposit invoice or credit note. */
export function saleEntry(doc: SaleDocument, accounts: AccountingSettings, conversion: Conversion, held = 0n): FecEntry {
  const p = conversion.sourcePrecision;
  const units = (n: number) => rescale(toUnits4(n), INPUT_SCALE, p);
  const aux = { number: doc.customer.number, label: doc.customer.name };
  const what = doc.type === 'credit' ? 'Avoir' : doc.deposit ? "Facture d'acompte" : 'Facture';
  const label = `${what} ${doc.number} ${doc.customer.name}`;
  const customer = (amount: bigint, text = label): Draft => ({
    account: accounts.customers,
    accountLabel: ACCOUNT_LABELS.customers,
    aux,
    label: text,
    amount,
    source: amount,
  });
  const plain = (account: string, accountLabel: string, amount: bigint, text = label): Draft => ({
    account,
    accountLabel,
    aux: null,
    label: text,
    amount,
    source: amount,
  });

  const total = units(doc.total);
  const vat = vatByRate(doc.taxes, units);
  const shipping = units(doc.shipping);
  const vatSum = [...vat.values()].reduce((a, b) => a + b, 0n);
  const revenue = total - vatSum - shipping;
  const revenueDrafts: Draft[] = [];
  if (doc.deposit) revenueDrafts.push(plain(accounts.deposits, ACCOUNT_LABELS.deposits, revenue));
  else {
    const natures = [
      { kind: 'service' as const, account: accounts.services, name: ACCOUNT_LABELS.services },
      { kind: 'goods' as const, account: accounts.goods, name: ACCOUNT_LABELS.goods },
    ];
    const weights = natures.map((n) => doc.lines.filter((l) => l.kind === n.kind).reduce((a, l) => a + units(l.net), 0n));
    const shares = spread(revenue, weights);
    natures.forEach((n, i) => {
      revenueDrafts.push(plain(n.account, n.name, shares[i] ?? 0n));
    });
  }
  const credits = [
    ...revenueDrafts,
    plain(accounts.shipping, ACCOUNT_LABELS.shipping, shipping),
    ...[...vat].map(([, amount]) => plain(accounts.vat, ACCOUNT_LABELS.vat, amount)),
  ];
  let debits = [customer(total)];
  let creditsOut = credits;
  if (doc.type === 'credit') [debits, creditsOut] = [credits, debits];
  // VAT not yet due (services, deposits on receipts) waits on its own account until paid (vat-on-receipts.ts).
  const lines = holdVat(balancedLines(debits, creditsOut, conversion), held, accounts, label);

  // Deposits deducted: their VAT was collected on the deposit invoice, so it comes back out here, once per deposit.
  for (const deduction of doc.deductions) {
    const text = `Acompte ${deduction.number} déduit`;
    const depositVat = vatByRate(deduction.taxes, units);
    const depositTotal = units(deduction.total);
    const depositVatSum = [...depositVat.values()].reduce((a, b) => a + b, 0n);
    const reversal = [
      plain(accounts.deposits, ACCOUNT_LABELS.deposits, depositTotal - depositVatSum, text),
      ...[...depositVat].map(([, amount]) => plain(accounts.vat, ACCOUNT_LABELS.vat, amount, text)),
    ];
    lines.push(...balancedLines(reversal, [customer(depositTotal, text)], conversion));
  }
  return {
    journal: 'VT',
    date: doc.date,
    pieceRef: doc.number,
    pieceDate: doc.date,
    validDate: doc.validDate,
    recordedAt: doc.recordedAt,
    lines,
  };
}

/**
 * One bank-journal entry (BQ) for a payment recorded by hand, or its reversal: the bank receives the amount less any
 * fee the payment service kept, booked to bank charges (627), and the customer's account is cleared of the whole.
 */
export function paymentEntry(payment: PaymentRecord, accounts: AccountingSettings, conversion: Conversion): FecEntry {
  const units = (n: number) => rescale(toUnits4(n), INPUT_SCALE, conversion.sourcePrecision);
  const amount = units(payment.amount);
  const fee = payment.amount > 0 && payment.fee ? units(payment.fee) : 0n;
  const what = payment.amount < 0 ? 'Annulation du règlement' : 'Règlement';
  const label = `${what} ${payment.invoiceNumber} ${payment.customer.name}`;
  const lines = balancedLines(
    [
      { account: accounts.bank, accountLabel: ACCOUNT_LABELS.bank, aux: null, label, amount: amount - fee, source: amount - fee },
      { account: accounts.fees, accountLabel: ACCOUNT_LABELS.fees, aux: null, label, amount: fee, source: fee },
    ],
    [
      {
        account: accounts.customers,
        accountLabel: ACCOUNT_LABELS.customers,
        aux: { number: payment.customer.number, label: payment.customer.name },
        label,
        amount,
        source: amount,
      },
    ],
    conversion,
  );
  return {
    journal: 'BQ',
    date: payment.date,
    pieceRef: payment.invoiceNumber,
    pieceDate: payment.date,
    validDate: payment.validDate,
    recordedAt: payment.recordedAt,
    lines,
  };
}

export const entryBalance = (entry: FecEntry): bigint => entry.lines.reduce((a, l) => a + l.debit - l.credit, 0n);
