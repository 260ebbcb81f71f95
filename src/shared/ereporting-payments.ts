import { add, allocate, div, max, money, round, ZERO, type Money } from './money';
import { isInternationalB2b } from './ereporting-international';
import { saleParts, type SaleDocument, type VatBasis } from './vat-return/sales';

/**
 * Flux 10.2 and 10.4: the payments received for services whose VAT is due on receipt (CGI art. 269-2-c, the seller
 * did not opt for the débits). 10.2 names each international B2B invoice paid; 10.4 aggregates the payments of
 * private persons per day and rate. Domestic B2B payments are not here: their « Encaissée » status goes through the
 * platform as a lifecycle message. Pure: the server writes the file from it.
 */

export interface RateAmount {
  rate: number;
  /** What was received for that rate, VAT included, in euros to the cent. */
  amount: Money;
}

export interface InvoicePayments {
  id: number;
  number: string;
  /** The invoice's date, YYYY-MM-DD. */
  date: string;
  payments: { date: string; subtotals: RateAmount[] }[];
}

export interface DailyPayments {
  date: string;
  subtotals: RateAmount[];
}

export interface ServicePayments {
  /** 10.2: international B2B invoices. */
  invoices: InvoicePayments[];
  /** 10.4: private persons, per day. */
  days: DailyPayments[];
}

const byRateDesc = (a: RateAmount, b: RateAmount) => b.rate - a.rate;

/**
 * One day's payments of an invoice split over the rates of its taxed services, in proportion of what each part of the
 * invoice is worth VAT included (a payment pays the whole invoice pro rata: goods, untaxed lines and services alike);
 * to the cent, the shares adding up to the payment exactly. Only the parts of services taxed on receipt are kept.
 */
function servicesShare(parts: ReturnType<typeof saleParts>, paid: Money): RateAmount[] {
  const weights = parts.map((p) => max(add(p.base, p.tax), ZERO));
  if (weights.every((w) => w.eq(0))) return [];
  const shares = allocate(paid, weights, 2);
  const rates = new Map<number, Money>();
  parts.forEach((p, k) => {
    if (p.nature !== 'services' || p.rate <= 0) return;
    rates.set(p.rate, add(rates.get(p.rate) ?? ZERO, shares[k] ?? ZERO));
  });
  return [...rates]
    .filter(([, amount]) => amount.gt(0))
    .map(([rate, amount]) => ({ rate, amount }))
    .sort(byRateDesc);
}

/**
 * The payments of the period [from, to] to report. A payment counts on its date; a cancelled payment's counter-entry
 * takes the same date, so a day nets to what was really kept (a day that nets to nothing, or less, is not reported:
 * the PPF takes no negative amount). Amounts are converted to euros at the invoice's rate.
 */
export function servicePayments(
  documents: readonly SaleDocument[],
  period: { from: string; to: string; basis: VatBasis },
): ServicePayments {
  const result: ServicePayments = { invoices: [], days: [] };
  // Under the débits, the VAT of services is due when invoiced: no payment data is owed.
  if (period.basis === 'debits') return result;
  const days = new Map<string, Map<number, Money>>();
  for (const doc of documents) {
    if (doc.type !== 'invoice') continue;
    const b2c = doc.individual === true;
    if (!b2c && !isInternationalB2b(doc)) continue;
    const received = new Map<string, Money>();
    for (const p of doc.payments) {
      if (p.date < period.from || p.date > period.to) continue;
      received.set(p.date, add(received.get(p.date) ?? ZERO, p.amount));
    }
    if (received.size === 0) continue;
    const deposits = documents.filter((d) => d.deductedById === doc.id && d.kind === 'deposit');
    const parts = saleParts(doc, deposits);
    if (!parts.some((p) => p.nature === 'services' && p.rate > 0)) continue;
    const payments: InvoicePayments['payments'] = [];
    for (const [date, amount] of [...received].sort(([a], [b]) => a.localeCompare(b))) {
      const euros = round(div(amount, doc.exchangeRate), 2);
      if (euros.lte(0)) continue;
      const subtotals = servicesShare(parts, euros);
      if (subtotals.length === 0) continue;
      payments.push({ date, subtotals });
      if (b2c) {
        const day = days.get(date) ?? new Map<number, Money>();
        for (const s of subtotals) day.set(s.rate, add(day.get(s.rate) ?? ZERO, s.amount));
        days.set(date, day);
      }
    }
    if (!b2c && payments.length > 0) result.invoices.push({ id: doc.id, number: doc.number, date: doc.date, payments });
  }
  result.invoices.sort((a, b) => a.date.localeCompare(b.date) || a.number.localeCompare(b.number));
  result.days = [...days]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, rates]) => ({ date, subtotals: [...rates].map(([rate, amount]) => ({ rate, amount })).sort(byRateDesc) }));
  return result;
}

/** The amount the list shows: what was received for services in the period, VAT included. */
export function paymentsAmount(payments: ServicePayments): Money {
  const sum = (subtotals: readonly RateAmount[]) => subtotals.reduce<Money>((s, v) => add(s, v.amount), ZERO);
  return add(
    payments.invoices.reduce<Money>((s, i) => add(s, ...i.payments.map((p) => sum(p.subtotals))), ZERO),
    payments.days.reduce<Money>((s, d) => add(s, sum(d.subtotals)), money(0)),
  );
}
