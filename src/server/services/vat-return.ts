import type { Db } from '../db/connection';
import { vatReturnExpenses, vatReturnSales, type vatSalesOf } from '../db/queries/vat-return';
import { customerPartySchema } from '../../shared/schemas/document-parties';
import { customerZone, hasOtherEuVatNumber } from '../../shared/legal-mentions';
import { currencyPrecision } from '../../shared/currencies';
import { countryCode } from '../../shared/countries';
import { euVatCountry } from '../../shared/eu-countries';
import { add, INPUT_SCALE, money, sub, toNumber, unitsToDecimalText, ZERO, type Money } from '../../shared/money';
import { buildCa3, type Ca3Item, type Ca3Line } from '../../shared/vat-return/ca3-lines';
import { purchaseItems, purchaseNature, type PurchaseExpense } from '../../shared/vat-return/purchases';
import { saleItems, type SaleDocument, type SaleZone } from '../../shared/vat-return/sales';
import type { VatQuery } from '../../shared/schemas/reports';
import { getOrganizationProfile } from './organization';
import { converter } from './report-currency';

const decimal = (units: number | bigint | null) => unitsToDecimalText(BigInt(units ?? 0), INPUT_SCALE);

function zoneOf(snapshot: string | null): SaleZone {
  if (!snapshot) return 'france';
  const parsed = customerPartySchema.safeParse(JSON.parse(snapshot));
  if (!parsed.success) return 'france';
  const customer = parsed.data;
  const zone = customerZone(customer);
  if (zone === 'outside_eu') return 'outside_eu';
  return zone === 'eu' && customer.type === 'company' && hasOtherEuVatNumber(customer) ? 'eu_business' : 'france';
}

/** The buyer's establishment and identifiers, from the customer as issued (Flux 10.1 names the foreign buyer). */
function buyerOf(snapshot: string | null): SaleDocument['buyer'] {
  if (!snapshot) return undefined;
  const parsed = customerPartySchema.safeParse(JSON.parse(snapshot));
  if (!parsed.success) return undefined;
  const c = parsed.data;
  const zone = customerZone(c);
  // A country left empty reads as France: a VAT number of another member state then tells where the buyer is.
  const typed = countryCode(c.address.country) ?? null;
  const country = zone === 'eu' && (typed === null || typed === 'FR') ? (euVatCountry(c.vat_number)?.code ?? null) : typed;
  return { zone, country, vatNumber: c.vat_number, businessId: c.business_id };
}

/** Whether the buyer is a private person (a B2C sale), from the customer as issued. */
function individualOf(snapshot: string | null): boolean {
  if (!snapshot) return true;
  const parsed = customerPartySchema.safeParse(JSON.parse(snapshot));
  return parsed.success && parsed.data.type === 'individual';
}

const ratesOf = (taxes: string): number[] =>
  (JSON.parse(taxes) as { rate: number }[]).map((t) => Number(t.rate)).filter((rate) => rate > 0);

/** The period's sales as the VAT engine takes them (shared/vat-return/sales.ts); the e-reporting reads the same. */
export async function saleDocuments(
  db: Db,
  organizationId: number,
  period: { from: string; to: string },
  rateOf: (row: { currency: string; rate: string | null }) => Promise<string>,
) {
  return toSaleDocuments(await vatReturnSales(db, { organizationId, ...period }), rateOf);
}

/** Rows read by vatReturnSales / vatSalesOf as the VAT engine takes them. */
export async function toSaleDocuments(
  { documents, lines, taxes, payments }: Awaited<ReturnType<typeof vatSalesOf>>,
  rateOf: (row: { currency: string; rate: string | null }) => Promise<string>,
) {
  const group = <T extends { document_id: number }>(rows: T[]) => {
    const by = new Map<number, T[]>();
    for (const r of rows) {
      const list = by.get(r.document_id);
      if (list) list.push(r);
      else by.set(r.document_id, [r]);
    }
    return by;
  };
  const [linesOf, taxesOf, paymentsOf] = [group(lines), group(taxes), group(payments)];
  const sales: SaleDocument[] = [];
  for (const d of documents) {
    sales.push({
      id: d.id,
      number: d.number ?? '',
      type: d.type === 'credit' ? 'credit' : 'invoice',
      kind: d.kind,
      date: d.date,
      party: d.customer_name,
      zone: zoneOf(d.customer_snapshot),
      individual: individualOf(d.customer_snapshot),
      buyer: buyerOf(d.customer_snapshot),
      exchangeRate: await rateOf({ currency: d.currency, rate: d.exchange_rate }),
      precision: currencyPrecision(d.currency),
      total: decimal(d.total),
      tax: decimal(d.tax),
      deposits: decimal(d.deposits),
      groups: (taxesOf.get(d.id) ?? []).map((t) => ({ rate: Number(t.rate), base: decimal(t.base), amount: decimal(t.amount) })),
      lines: (linesOf.get(d.id) ?? []).map((l) => ({
        nature: l.kind === 'goods' ? 'goods' : 'services',
        rates: ratesOf(l.taxes),
        net: decimal(l.net),
      })),
      correctsId: d.corrects_id,
      deductedById: d.deducted_by_id,
      payments: (paymentsOf.get(d.id) ?? []).map((p) => ({ date: p.date, amount: decimal(p.amount) })),
    });
  }
  return sales;
}

/** The period's expenses in the base currency (the return is kept in it) as the deduction rules take them. */
async function purchaseExpenses(db: Db, organizationId: number, period: { from: string; to: string }, currency: string) {
  return (await vatReturnExpenses(db, { organizationId, ...period, currency })).map(toPurchaseExpense);
}

/** An expense row (vatReturnExpenses, vatExpensesOf) as the deduction rules take it. */
export const toPurchaseExpense = (e: Awaited<ReturnType<typeof vatReturnExpenses>>[number]): PurchaseExpense => ({
  id: e.id,
  reference: e.invoice_number || e.label,
  supplier: e.supplier,
  date: e.date,
  paidAt: e.status === 'paid' ? (e.paid_at ?? e.date) : null,
  // An expense whose category was deleted keeps being one of services: deducted only once paid.
  nature: purchaseNature(e.account ?? ''),
  reverseCharge: e.reverse_charge === 'goods' || e.reverse_charge === 'services' ? e.reverse_charge : '',
  amount: decimal(e.amount),
  vat: (JSON.parse(e.vat) as { rate: number; amount: number; deductible: boolean }[]).map((v) => ({
    rate: Number(v.rate),
    amount: decimal(v.amount),
    deductible: v.deductible,
  })),
});

const cents = (m: Money) => toNumber(m, 2);
const centsOrNull = (m: Money | null) => (m === null ? null : cents(m));

/** Per-rate sums of the items, highest rate first, as the report's `collected` and `deductible`. */
function byRate(items: readonly Ca3Item[]) {
  const sums = new Map<number, { base: Money; amount: Money }>();
  for (const i of items) {
    const e = sums.get(i.rate) ?? { base: ZERO, amount: ZERO };
    sums.set(i.rate, { base: add(e.base, i.base), amount: add(e.amount, i.tax) });
  }
  return [...sums]
    .filter(([, e]) => !e.base.eq(0) || !e.amount.eq(0))
    .sort(([a], [b]) => b - a)
    .map(([rate, e]) => ({ rate, base: cents(e.base), amount: cents(e.amount) }));
}

/** The lines of cadre B that have something, as the report listed them before the whole return was laid out. */
function summaryLines(lines: readonly Ca3Line[]) {
  const shown = (l: Ca3Line) =>
    ['16', '20', '23'].includes(l.code) ||
    (l.code === '28' && !lines.some((x) => x.code === '25' && x.tax?.gt(0))) ||
    (l.tax !== null && !l.tax.eq(0));
  return lines
    .filter((l) => l.frame === 'B' && l.code !== '17' && shown(l))
    .map((l) => ({ line: l.code, label: l.label, base: centsOrNull(l.base), amount: cents(l.tax ?? ZERO) }));
}

/**
 * The VAT return of a period (a month, a quarter, the year of a CA12) computed by the engine from the documents and
 * expenses themselves: each line of the CA3 with the documents and expenses behind it, the VAT collected and
 * deductible per rate, and what is due. The report reads the ledger instead (vat-report.ts); this stays the rules'
 * one reading of the data, which the ledger's tests compare it with.
 */
export async function vatReport(db: Db, organizationId: number, query: VatQuery) {
  const period = { from: query.from, to: query.to };
  const [{ base, rateOf }, org] = await Promise.all([converter(db, organizationId), getOrganizationProfile(db, organizationId)]);
  const basis = org.vat_on_debits ? 'debits' : 'receipts';
  const [sales, expenses] = await Promise.all([
    saleDocuments(db, organizationId, period, rateOf),
    purchaseExpenses(db, organizationId, period, base),
  ]);
  const collected = saleItems(sales, { ...period, basis });
  const purchases = purchaseItems(expenses, period);
  return layOutReturn({ currency: base, basis, items: [...collected, ...purchases], query });
}

/** The report of a period's items: the CA3's lines, the sums per rate, what is due. */
export function layOutReturn(params: { currency: string; basis: 'debits' | 'receipts'; items: readonly Ca3Item[]; query: VatQuery }) {
  const { items, query } = params;
  // What the return deducts; the VAT self-assessed on purchases is owed as well (rate lines) and declared (A3, B2).
  const deducted = items.filter((i) => i.line === '19' || i.line === '20');
  const lines = buildCa3(items, {
    previousCredit: money(query.previous_credit ?? 0),
    refund: money(query.refund ?? 0),
  });
  const taxed = items.filter((i) => i.rate > 0 && !['A3', 'B2', '19', '20'].includes(i.line));
  const total = (list: readonly Ca3Item[]) => list.reduce<Money>((s, i) => add(s, i.tax), ZERO);
  return {
    currency: params.currency,
    basis: params.basis,
    collected: byRate(taxed),
    deductible: byRate(deducted),
    due: cents(sub(total(taxed), total(deducted))),
    ca3: summaryLines(lines),
    lines: lines.map((l) => ({
      code: l.code,
      frame: l.frame,
      label: l.label,
      base: centsOrNull(l.base),
      tax: centsOrNull(l.tax),
      items: l.items.map(itemOut),
      sums: l.sums,
    })),
  } as const;
}

/** An operation behind a line as the report gives it. */
export const itemOut = ({ reverseCharge, ...i }: Ca3Item) => ({
  ...i,
  base: cents(i.base),
  tax: cents(i.tax),
  reverse_charge: reverseCharge,
});
