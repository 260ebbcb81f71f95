import { add, allocate, div, money, mul, round, sub, ZERO, type Money, type MoneyInput } from '../money';
import { formatDateShort, formatDecimal } from '../format';
import { rateLine, type Ca3Item, type Ca3ItemLine } from './ca3-lines';

/**
 * When the VAT of a sale is due (CGI art. 269-2), decided line by line:
 * - goods: when invoiced (the delivery, which the invoice dates; art. 269-2-a);
 * - services: when paid (art. 269-2-c), in proportion of the payments, unless the seller opted for the débits: then
 *   when invoiced;
 * - deposits: when received (art. 269-2-a and c, goods as services since 2023), except deposits on services under the
 *   débits, due when invoiced; the final invoice's VAT is net of its deposits', rate by rate;
 * - credit notes: on the same basis as the lines they credit (a credit on goods when issued; on services paid for,
 *   as the payments go — nothing is deducted of VAT never collected);
 * - untaxed lines carry no VAT: declared (cadre A) when invoiced, the chargeable event of an export, an
 *   intra-community supply or a service to a business abroad.
 * Every amount is computed cumulatively (what is due from the first day up to a date), and a period's share is the
 * difference of two cumulative amounts, each rounded to the cent: consecutive periods add up to the whole sale exactly.
 */

export type Nature = 'goods' | 'services';
/** Where the customer is, for the line of an untaxed operation: France, a business of another member state with its VAT number, outside the EU. */
export type SaleZone = 'france' | 'eu_business' | 'outside_eu';

export interface SaleLine {
  nature: Nature;
  /** The positive VAT rates of the line (several when the organisation allows several taxes per line). */
  rates: readonly number[];
  /** The line's amount excluding VAT after its own discount, in the document's currency. */
  net: MoneyInput;
}

export interface SaleDocument {
  id: number;
  number: string;
  type: 'invoice' | 'credit';
  kind: 'standard' | 'deposit';
  date: string;
  party: string;
  zone: SaleZone;
  /** Units of the document's currency per unit of the base currency at issue; '1' in the base currency. */
  exchangeRate: string;
  /** The document's currency decimals. */
  precision: number;
  /** TTC, VAT and deposits deducted (a final invoice), in the document's currency; positive on a credit note too. */
  total: MoneyInput;
  tax: MoneyInput;
  deposits: MoneyInput;
  groups: readonly { rate: number; base: MoneyInput; amount: MoneyInput }[];
  lines: readonly SaleLine[];
  /** A credit note: the invoice it credits. */
  correctsId: number | null;
  /** A deposit invoice: the final invoice that deducts it. */
  deductedById: number | null;
  /** The buyer is a private person (a B2C sale, e-reported rather than e-invoiced); unset when nobody asked. */
  individual?: boolean;
  /**
   * The buyer as issued, for the e-reporting of international B2B sales (Flux 10.1): where it is established (its
   * zone and ISO country code) and its identifiers, as typed. Unset when nobody asked.
   */
  buyer?: { zone: 'france' | 'eu' | 'outside_eu'; country: string | null; vatNumber: string; businessId: string };
  /** An invoice's payments, counter-entries negative, in the document's currency. */
  payments: readonly { date: string; amount: MoneyInput }[];
}

export type VatBasis = 'debits' | 'receipts';

/**
 * What a sale is worth per nature and VAT rate, in the base currency (exact), net of the deposits it deducts: the
 * same split the VAT return makes, which the e-reporting of B2C sales (Flux 10.3) aggregates by day.
 */
export function saleParts(
  doc: SaleDocument,
  deposits: readonly SaleDocument[],
): { nature: Nature; rate: number; base: Money; tax: Money }[] {
  return netOfDeposits(partsOf(doc), deposits).map(({ nature, rate, base, tax }) => ({ nature, rate, base, tax }));
}
type Mode = 'issue' | 'receipt';

/** A document's share of one line of the return, by nature and rate, in the base currency (exact, not yet rounded). */
interface Part {
  nature: Nature;
  rate: number;
  line: Ca3ItemLine;
  base: Money;
  tax: Money;
}

const UNTAXED = 0;
const keyOf = (p: { nature: Nature; line: Ca3ItemLine; rate: number }) => `${p.nature} ${p.line} ${p.rate}`;

function untaxedLine(nature: Nature, zone: SaleZone): Ca3ItemLine {
  if (nature === 'goods' && zone === 'eu_business') return 'F2';
  if (nature === 'goods' && zone === 'outside_eu') return 'E1';
  return 'E2';
}

/**
 * Splits an amount over lines in proportion of their HT, to the document's cent (the shares add up to it): the tax
 * group of a rate over the lines that carry it; what carries no rate over the untaxed lines. Shipping and the
 * document's discount belong to no line: they follow the lines in proportion, as accessories follow the principal
 * (CGI art. 267-I-2°). With no line to weigh (shipping alone), the document's own nature takes it.
 */
function spread(doc: SaleDocument, lines: readonly SaleLine[], base: Money, tax: Money): { nature: Nature; base: Money; tax: Money }[] {
  const weights = lines.map((l) => money(l.net));
  if (lines.length === 0 || weights.every((w) => w.eq(0))) {
    const nature: Nature = doc.lines.some((l) => l.nature === 'goods') ? 'goods' : 'services';
    return [{ nature, base, tax }];
  }
  const bases = allocate(base, weights, doc.precision);
  const taxes = allocate(tax, weights, doc.precision);
  return lines.map((l, k) => ({ nature: l.nature, base: bases[k] ?? ZERO, tax: taxes[k] ?? ZERO }));
}

/** The document's parts per nature and line of the return, converted to the base currency. */
function partsOf(doc: SaleDocument): Part[] {
  const parts = new Map<string, Part>();
  const put = (nature: Nature, rate: number, line: Ca3ItemLine, base: Money, tax: Money) => {
    const rated = { nature, rate, line };
    const e = parts.get(keyOf(rated)) ?? { ...rated, base: ZERO, tax: ZERO };
    parts.set(keyOf(rated), { ...e, base: add(e.base, div(base, doc.exchangeRate)), tax: add(e.tax, div(tax, doc.exchangeRate)) });
  };
  let taxedBase = ZERO;
  for (const g of doc.groups) {
    if (g.rate <= 0) continue;
    taxedBase = add(taxedBase, g.base);
    const carrying = doc.lines.filter((l) => l.rates.includes(g.rate));
    for (const s of spread(doc, carrying, money(g.base), money(g.amount))) put(s.nature, g.rate, rateLine(g.rate), s.base, s.tax);
  }
  const untaxed = sub(sub(doc.total, doc.tax), taxedBase);
  if (!untaxed.eq(0)) {
    const free = doc.lines.filter((l) => l.rates.length === 0);
    for (const s of spread(doc, free, untaxed, ZERO)) put(s.nature, UNTAXED, untaxedLine(s.nature, doc.zone), s.base, ZERO);
  }
  return [...parts.values()];
}

/**
 * A final invoice's parts less its deposits': the deposits' base and VAT of each rate (untaxed apart) come off the
 * final invoice's parts of that rate, in proportion of their bases.
 */
function netOfDeposits(parts: Part[], deposits: readonly SaleDocument[]): Part[] {
  if (deposits.length === 0) return parts;
  const deducted = new Map<number, { base: Money; tax: Money }>();
  for (const p of deposits.flatMap(partsOf)) {
    const e = deducted.get(p.rate) ?? { base: ZERO, tax: ZERO };
    deducted.set(p.rate, { base: add(e.base, p.base), tax: add(e.tax, p.tax) });
  }
  return parts.map((p) => {
    const d = deducted.get(p.rate);
    if (!d) return p;
    const siblings = parts.filter((q) => q.rate === p.rate);
    const sameRate = siblings.reduce<Money>((s, q) => add(s, q.base), ZERO);
    const share = sameRate.eq(0) ? div(1, siblings.length) : div(p.base, sameRate);
    return { ...p, base: sub(p.base, mul(d.base, share)), tax: sub(p.tax, mul(d.tax, share)) };
  });
}

function modeOf(invoice: SaleDocument, part: Part, basis: VatBasis): Mode {
  if (part.rate === UNTAXED) return 'issue';
  if (invoice.kind === 'deposit') return basis === 'debits' && part.nature === 'services' ? 'issue' : 'receipt';
  return part.nature === 'goods' || basis === 'debits' ? 'issue' : 'receipt';
}

/** The share of an invoice's VAT on receipts paid by a date: payments over what is left to pay after credit notes. */
function paidRatio(invoice: SaleDocument, credits: readonly SaleDocument[], upTo: (date: string) => boolean): Money {
  const paid = invoice.payments.filter((p) => upTo(p.date)).reduce<Money>((s, p) => add(s, p.amount), ZERO);
  const credited = credits.filter((c) => upTo(c.date)).reduce<Money>((s, c) => add(s, c.total), ZERO);
  const payable = sub(sub(invoice.total, invoice.deposits), credited);
  if (payable.lte(0)) return paid.gt(0) ? money(1) : ZERO;
  const ratio = div(paid, payable);
  return ratio.gt(1) ? money(1) : ratio.lt(0) ? ZERO : ratio;
}

const cents = (m: Money) => round(m, 2);

type UpTo = (date: string) => boolean;

/**
 * How an invoice's VAT falls due: its parts net of its deposits, the mode of each, the share paid by a date and the
 * share of a credit note's VAT on receipts that has come off by then. The return (saleItems) and the books
 * (receiptVat) both read it, so the VAT the FEC moves out of waiting is the VAT the return declares.
 */
function receiptPlan(invoice: SaleDocument, credits: readonly SaleDocument[], deposits: readonly SaleDocument[], basis: VatBasis) {
  const invoiceParts = netOfDeposits(partsOf(invoice), deposits);
  const modes = new Map(invoiceParts.map((p) => [keyOf(p), modeOf(invoice, p, basis)]));
  const paid = (upTo: UpTo) => paidRatio(invoice, credits, upTo);
  const creditPaid = (credit: SaleDocument) => (upTo: UpTo) => (upTo(credit.date) ? paid(upTo) : ZERO);
  const creditMode = (part: Part) => modes.get(keyOf(part)) ?? modeOf(invoice, part, basis);
  return { invoiceParts, modes, paid, creditPaid, creditMode };
}

/**
 * The VAT on receipts of one invoice and its credit notes, as the books hold it (« TVA collectée sur encaissements »):
 * `held` is what each document's issue puts on the waiting account (an invoice's VAT not yet due; a credit note's,
 * taken back off it), `dueUpTo` the VAT due from the first day up to a date net of the credit notes, part by part
 * rounded to the cent exactly as saleItems rounds it; `events` the days it can move (payments, credit notes). In the
 * base currency. A day's transfer to the VAT due is dueUpTo(that day) − dueUpTo(the day before).
 */
export function receiptVat(invoice: SaleDocument, credits: readonly SaleDocument[], deposits: readonly SaleDocument[], basis: VatBasis) {
  const { invoiceParts, modes, paid, creditPaid, creditMode } = receiptPlan(invoice, credits, deposits, basis);
  const onReceipt = invoiceParts.filter((p) => modes.get(keyOf(p)) === 'receipt');
  const creditParts = credits.map((credit) => ({ credit, parts: partsOf(credit).filter((p) => creditMode(p) === 'receipt') }));
  const total = (values: Money[]) => values.reduce<Money>((s, v) => add(s, v), ZERO);
  const held = new Map<number, Money>([
    [invoice.id, total(onReceipt.map((p) => cents(p.tax)))],
    ...creditParts.map(({ credit, parts }): [number, Money] => [credit.id, total(parts.map((p) => cents(p.tax)))]),
  ]);
  const dueUpTo = (upTo: UpTo) =>
    total([
      ...onReceipt.map((p) => cents(mul(p.tax, paid(upTo)))),
      ...creditParts.flatMap(({ credit, parts }) => parts.map((p) => cents(mul(p.tax, mul(creditPaid(credit)(upTo), -1))))),
    ]);
  const events = [...new Set([...invoice.payments.map((p) => p.date), ...credits.map((c) => c.date)])].sort();
  return { held, dueUpTo, events };
}

function groupBy<T>(values: readonly T[], key: (value: T) => number | null): Map<number | null, T[]> {
  const groups = new Map<number | null, T[]>();
  for (const v of values) {
    const k = key(v);
    const group = groups.get(k);
    if (group) group.push(v);
    else groups.set(k, [v]);
  }
  return groups;
}

/**
 * The items of the period [from, to] of every sale given: each invoice (with its credit notes, and for a final invoice
 * the deposits it deducts, among `documents`) yields its share of each line of the return that is not zero.
 */
export function saleItems(documents: readonly SaleDocument[], period: { from: string; to: string; basis: VatBasis }): Ca3Item[] {
  const items: Ca3Item[] = [];
  const until = (date: string) => date <= period.to;
  const before = (date: string) => date < period.from;
  const inPeriod = (date: string) => date >= period.from && date <= period.to;
  const invoices = documents.filter((d) => d.type === 'invoice');
  // Indexed once: a year of a busy shop is tens of thousands of documents.
  const invoiceIds = new Set(invoices.map((i) => i.id));
  const creditsOf = groupBy(
    documents.filter((d) => d.type === 'credit' && d.correctsId !== null),
    (d) => d.correctsId,
  );
  const depositsOf = groupBy(
    documents.filter((d) => d.deductedById !== null),
    (d) => d.deductedById,
  );
  const orphanCredits = documents.filter((d) => d.type === 'credit' && (d.correctsId === null || !invoiceIds.has(d.correctsId)));

  const emit = (
    doc: SaleDocument,
    part: Part,
    sign: 1 | -1,
    shareAt: (upTo: (d: string) => boolean) => Money,
    date: string,
    basis: string,
  ) => {
    const at = (upTo: (d: string) => boolean) => {
      const share = mul(shareAt(upTo), sign);
      return { base: cents(mul(part.base, share)), tax: cents(mul(part.tax, share)) };
    };
    const [end, start] = [at(until), at(before)];
    const base = sub(end.base, start.base);
    const tax = sub(end.tax, start.tax);
    if (base.eq(0) && tax.eq(0)) return;
    items.push({
      line: part.line,
      source: doc.type,
      id: doc.id,
      reference: doc.number,
      party: doc.party,
      date,
      nature: part.nature,
      basis,
      rate: part.rate,
      base,
      tax,
      reverseCharge: null,
    });
  };
  const onIssue = (doc: SaleDocument) => (upTo: (d: string) => boolean) => (upTo(doc.date) ? money(1) : ZERO);

  for (const invoice of invoices) {
    const credits = creditsOf.get(invoice.id) ?? [];
    const deposits = depositsOf.get(invoice.id) ?? [];
    const { invoiceParts, modes, paid, creditPaid } = receiptPlan(invoice, credits, deposits, period.basis);
    // The day the period's payments or credit notes moved the share paid: the last of them.
    const events = [...invoice.payments.map((p) => p.date), ...credits.map((c) => c.date)].filter(inPeriod).sort();
    const receiptDate = events.at(-1) ?? period.to;
    const receiptBasis = (upTo: (d: string) => boolean) =>
      `À l’encaissement : ${formatDecimal(mul(paid(upTo), 100), 2).replace(/,00$/, '')} % payés au ${formatDateShort(period.to)}`;
    for (const part of invoiceParts) {
      if (modes.get(keyOf(part)) === 'issue')
        emit(invoice, part, 1, onIssue(invoice), invoice.date, `À la facturation du ${formatDateShort(invoice.date)}`);
      else emit(invoice, part, 1, paid, receiptDate, receiptBasis(until));
    }
    for (const credit of credits) {
      for (const part of partsOf(credit)) {
        const mode = modes.get(keyOf(part)) ?? modeOf(invoice, part, period.basis);
        if (mode === 'issue') emit(credit, part, -1, onIssue(credit), credit.date, `Avoir du ${formatDateShort(credit.date)}`);
        else emit(credit, part, -1, creditPaid(credit), receiptDate, `Avoir sur ${invoice.number}, au prorata des encaissements`);
      }
    }
  }
  // A credit note whose invoice was not given (never the case of the server's selection) is taken when issued.
  for (const credit of orphanCredits)
    for (const part of partsOf(credit)) emit(credit, part, -1, onIssue(credit), credit.date, `Avoir du ${formatDateShort(credit.date)}`);
  return items;
}
