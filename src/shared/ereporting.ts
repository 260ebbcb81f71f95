import { add, money, neg, round, ZERO, type Money } from './money';
import { saleParts, type SaleDocument } from './vat-return/sales';

/**
 * The reform's e-reporting (Flux 10): what is reported, for which period. Pure, shared by the server (which writes
 * the reports) and the screen (which names the periods).
 */

export const EREPORTING_KINDS = ['transactions', 'payments', 'international', 'purchases'] as const;
export type EreportingKind = (typeof EREPORTING_KINDS)[number];

export const EREPORTING_KIND_LABELS: Record<EreportingKind, string> = {
  transactions: 'Ventes aux particuliers (10.3)',
  payments: 'Encaissements de services (10.2, 10.4)',
  international: 'Ventes internationales B2B (10.1)',
  purchases: 'Achats internationaux B2B (10.1)',
};

/**
 * How often transactions are reported, which follows the VAT regime: every ten days (réel normal, monthly returns),
 * monthly (réel normal with quarterly returns, réel simplifié), every two months (franchise en base). The product
 * knows two regimes: normal reports monthly, the franchise every two months.
 */
export type ReportingFrequency = 'ten_days' | 'monthly' | 'bimonthly';

export const frequencyOfRegime = (regime: 'normal' | 'franchise'): ReportingFrequency => (regime === 'franchise' ? 'bimonthly' : 'monthly');

export interface ReportingPeriod {
  /** 'YYYY-MM' (a month, or two months named by the first), 'YYYY-MM-D1', '-D2', '-D3' (tenths of a month). */
  period: string;
  from: string;
  to: string;
}

/**
 * The first day e-reporting covers: the reform starts on 1 September 2026 (issuing and reporting for large and mid-size
 * businesses, receiving for all; smaller ones follow a year later and may report from the start). Nothing before is
 * ever to be reported, so no period before it is offered. Every frequency's periods begin on a 1 September, so none
 * straddles it.
 */
export const EREPORTING_FIRST_DAY = '2026-09-01';

/** Whether a period falls under e-reporting (it begins on or after the reform's first day). */
export const reportablePeriod = (period: Pick<ReportingPeriod, 'from'>): boolean => period.from >= EREPORTING_FIRST_DAY;

/** The reform's first day as the French messages name it. */
export const EREPORTING_FIRST_DAY_LABEL = '1er septembre 2026';

/** What the e-reporting screen says of a year before the reform. */
export const EREPORTING_START_NOTICE = `L’e-reporting commence avec les opérations du ${EREPORTING_FIRST_DAY_LABEL}`;

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The periods of a year, in order. */
export function periodsOfYear(year: number, frequency: ReportingFrequency): ReportingPeriod[] {
  const periods: ReportingPeriod[] = [];
  for (let month = 1; month <= 12; month += frequency === 'bimonthly' ? 2 : 1) {
    const ym = `${year}-${pad(month)}`;
    if (frequency === 'ten_days') {
      periods.push({ period: `${ym}-D1`, from: `${ym}-01`, to: `${ym}-10` });
      periods.push({ period: `${ym}-D2`, from: `${ym}-11`, to: `${ym}-20` });
      periods.push({ period: `${ym}-D3`, from: `${ym}-21`, to: `${ym}-${pad(lastDay(year, month))}` });
    } else {
      const end = frequency === 'bimonthly' ? month + 1 : month;
      periods.push({ period: ym, from: `${ym}-01`, to: `${year}-${pad(end)}-${pad(lastDay(year, end))}` });
    }
  }
  return periods;
}

/** A period's dates, or null when the name is not one of that frequency's periods. */
export function periodRange(period: string, frequency: ReportingFrequency): ReportingPeriod | null {
  const match = /^(\d{4})-(\d{2})(-D[123])?$/.exec(period);
  if (!match) return null;
  const year = Number(match[1]);
  if (year < 2000 || year > 2099) return null;
  return periodsOfYear(year, frequency).find((p) => p.period === period) ?? null;
}

/** Flux 10.3 categories: goods (TLB1), services (TPS1), operations not taxable in France (TNT1). */
export type TransactionCategory = 'TLB1' | 'TPS1' | 'TNT1';

export interface DailyTransactions {
  /** YYYY-MM-DD. */
  date: string;
  category: TransactionCategory;
  /** How many invoices and credit notes make the day's amounts. */
  count: number;
  /** HT and VAT in euros, to the cent: the sums of `subtotals` exactly. */
  base: Money;
  tax: Money;
  subtotals: { rate: number; base: Money; tax: Money }[];
}

/**
 * Flux 10.3: B2C sales of the period aggregated per day, category and VAT rate, in euros, credit notes deducted.
 * A sale counts on its date of issue; each document's part of a rate is rounded to the cent before it is added, so
 * a day's total is exactly the sum of its rates (the PPF checks it). `documents` may hold more than the period's
 * sales (the deposits a final invoice deducts): only individuals' invoices dated in the period are reported.
 */
export function b2cDailyTransactions(documents: readonly SaleDocument[], period: { from: string; to: string }): DailyTransactions[] {
  const byId = new Map(documents.map((d) => [d.id, d]));
  const days = new Map<
    string,
    { date: string; category: TransactionCategory; ids: Set<number>; rates: Map<number, { base: Money; tax: Money }> }
  >();
  for (const doc of documents) {
    if (!doc.individual || doc.date < period.from || doc.date > period.to) continue;
    const deposits = documents.filter((d) => d.deductedById === doc.id && d.kind === 'deposit' && byId.has(d.id));
    const sign = doc.type === 'credit' ? -1 : 1;
    for (const part of saleParts(doc, deposits)) {
      const base = round(part.base, 2);
      const tax = round(part.tax, 2);
      if (base.eq(0) && tax.eq(0)) continue;
      // An untaxed sale to a private person abroad is supplied outside France; at home it is goods or services at 0 %.
      const category: TransactionCategory = part.rate === 0 && doc.zone !== 'france' ? 'TNT1' : part.nature === 'goods' ? 'TLB1' : 'TPS1';
      const key = `${doc.date} ${category}`;
      const day = days.get(key) ?? { date: doc.date, category, ids: new Set<number>(), rates: new Map() };
      day.ids.add(doc.id);
      const rate = day.rates.get(part.rate) ?? { base: ZERO, tax: ZERO };
      day.rates.set(part.rate, {
        base: add(rate.base, sign < 0 ? neg(base) : base),
        tax: add(rate.tax, sign < 0 ? neg(tax) : tax),
      });
      days.set(key, day);
    }
  }
  return [...days.values()]
    .sort((a, b) => (a.date === b.date ? a.category.localeCompare(b.category) : a.date.localeCompare(b.date)))
    .map((day) => {
      const subtotals = [...day.rates].sort(([a], [b]) => b - a).map(([rate, v]) => ({ rate, base: v.base, tax: v.tax }));
      return {
        date: day.date,
        category: day.category,
        count: day.ids.size,
        base: subtotals.reduce<Money>((s, v) => add(s, v.base), ZERO),
        tax: subtotals.reduce<Money>((s, v) => add(s, v.tax), ZERO),
        subtotals,
      };
    });
}

/** The amount a report shows in the list: the period's HT (TTC would count the VAT of a franchise at zero anyway). */
export const reportedAmount = (days: readonly DailyTransactions[]): Money => days.reduce<Money>((s, d) => add(s, d.base), money(0));
