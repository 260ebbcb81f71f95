import type { Db } from '../db/connection';
import {
  billedTtc,
  firstInvoiceDate,
  receiptsByNature,
  receiptsOfPeriod,
  receiptsTotals,
  overdueByCustomer,
  overdueCustomerDetails,
  receivablesByBucket,
  turnoverByCustomer,
  turnoverByItem,
  turnoverByPeriod,
  turnoverByTag,
  type RatedSum,
} from '../db/queries/reports';
import { expenseFigures } from '../db/queries/expense-figures';
import { add, money, roundDiv, sub, toNumber, unitsToNumber, ZERO, type Money } from '../../shared/money';
import { RECEIPTS_PER_PAGE, type ReportGroup } from '../../shared/schemas/reports';
import { PAYMENT_METHODS, type PaymentMethod } from '../../shared/status';
import { dsoPeriod, FRANCHISE_THRESHOLDS } from '../../shared/reports';
import { converter } from './report-currency';
import { todayIso } from './document-record';
import { addDays } from '../../shared/payment-terms';

type Period = { from: string; to: string };

const cents = (m: Money) => toNumber(m, 2);

export async function turnoverReport(db: Db, organizationId: number, params: Period & { group: ReportGroup }) {
  const { base, toBase } = await converter(db, organizationId);
  const rows = await turnoverByPeriod(db, { organizationId, ...params });
  const periods = new Map<string, { count: number; net: Money; tax: Money; total: Money }>();
  for (const r of rows) {
    const p = periods.get(r.period) ?? { count: 0, net: ZERO, tax: ZERO, total: ZERO };
    periods.set(r.period, {
      count: p.count + Number(r.count),
      net: add(p.net, await toBase(r.net, r)),
      tax: add(p.tax, await toBase(r.tax, r)),
      total: add(p.total, await toBase(r.total, r)),
    });
  }
  return {
    currency: base,
    data: [...periods].map(([period, p]) => ({ period, count: p.count, net: cents(p.net), tax: cents(p.tax), total: cents(p.total) })),
  };
}

/**
 * The ten largest by turnover HT, the others summed in `rest`: rows of one key in several currencies and rates of
 * issue are merged once converted.
 */
async function ranking(
  toBase: Awaited<ReturnType<typeof converter>>['toBase'],
  rows: (RatedSum & { key: string; id: number | null; name: string; count: number; net: number })[],
) {
  const byKey = new Map<string, { id: number | null; name: string; count: number; net: Money }>();
  for (const r of rows) {
    const c = byKey.get(r.key) ?? { id: r.id, name: r.name, count: 0, net: ZERO };
    byKey.set(r.key, { ...c, count: c.count + Number(r.count), net: add(c.net, await toBase(r.net, r)) });
  }
  const ranked = [...byKey.values()].sort((a, b) => b.net.cmp(a.net) || a.name.localeCompare(b.name, 'fr'));
  const others = ranked.slice(10);
  return {
    data: ranked.slice(0, 10).map((c) => ({ ...c, net: cents(c.net) })),
    rest: { count: others.reduce((n, c) => n + c.count, 0), net: cents(others.reduce<Money>((s, c) => add(s, c.net), ZERO)) },
  };
}

export async function customersReport(db: Db, organizationId: number, params: Period) {
  const { base, toBase } = await converter(db, organizationId);
  const rows = (await turnoverByCustomer(db, { organizationId, ...params })).map((r) => ({
    ...r,
    key: String(r.customer_id ?? `: ${r.name}`),
    id: r.customer_id,
    name: r.name || 'Client divers',
  }));
  return { currency: base, ...(await ranking(toBase, rows)) };
}

/** Turnover HT per line designation (queries/reports.ts says what a line counts). */
export async function itemsReport(db: Db, organizationId: number, params: Period) {
  const { base, toBase } = await converter(db, organizationId);
  const rows = (await turnoverByItem(db, { organizationId, ...params })).map((r) => ({
    ...r,
    key: r.name.toLocaleLowerCase('fr'),
    id: null,
    name: r.name || 'Sans désignation',
  }));
  return { currency: base, ...(await ranking(toBase, rows)) };
}

/** Turnover HT per customer tag; a customer with several tags counts under each, so the rows may add up to more. */
export async function tagsReport(db: Db, organizationId: number, params: Period) {
  const { base, toBase } = await converter(db, organizationId);
  const rows = (await turnoverByTag(db, { organizationId, ...params })).map((r) => ({
    ...r,
    key: String(r.tag_id),
    id: r.tag_id,
    name: r.name ?? 'Sans étiquette',
  }));
  return { currency: base, ...(await ranking(toBase, rows)) };
}

const BUCKETS = ['Non échu', '1 à 30 jours', '31 à 60 jours', '61 à 90 jours', 'Plus de 90 jours'] as const;

/**
 * Unpaid invoices by days past due, the days sales outstanding and the customers late. DSO = receivables ÷ what was
 * invoiced TTC over the period × the period's days (dsoPeriod), when that period's sales are positive; else null.
 * Sums in another currency are converted once per bucket (or customer) and rate of issue, each rounded to the cent.
 */
export async function receivablesReport(db: Db, organizationId: number) {
  const { base, toBase } = await converter(db, organizationId);
  const today = todayIso();
  const period = dsoPeriod(today, await firstInvoiceDate(db, { organizationId }));
  const [ages, overdue, billed] = await Promise.all([
    receivablesByBucket(db, { organizationId, today }),
    overdueByCustomer(db, { organizationId, today }),
    period ? billedTtc(db, { organizationId, from: period.from, to: today }) : Promise.resolve([]),
  ]);
  const buckets = BUCKETS.map((label) => ({ label, count: 0, amount: ZERO }));
  for (const r of ages) {
    const b = buckets[Number(r.bucket)];
    if (!b) continue;
    b.count += Number(r.count);
    b.amount = add(b.amount, await toBase(r.amount, r));
  }
  const customers = new Map<number | null, { customer_id: number | null; count: number; amount: Money }>();
  for (const r of overdue) {
    const c = customers.get(r.customer_id) ?? { customer_id: r.customer_id, count: 0, amount: ZERO };
    customers.set(r.customer_id, { ...c, count: c.count + r.count, amount: add(c.amount, await toBase(r.amount, r)) });
  }
  const late = [...customers.values()].sort((a, b) => b.amount.cmp(a.amount)).slice(0, 10);
  const details = new Map(
    (await overdueCustomerDetails(db, { organizationId, today, customerIds: late.map((c) => c.customer_id) })).map((d) => [
      d.customer_id === null ? null : Number(d.customer_id),
      d,
    ]),
  );
  const total = buckets.reduce<Money>((s, b) => add(s, b.amount), ZERO);
  let sales = ZERO;
  for (const r of billed) sales = add(sales, await toBase(r.amount, r));
  const dsoDays = period && sales.gt(0) ? period.days : null;
  return {
    currency: base,
    buckets: buckets.map((b) => ({ label: b.label, count: b.count, amount: cents(b.amount) })),
    total: cents(total),
    dso: dsoDays === null ? null : Math.round(toNumber(total.times(dsoDays).div(sales))),
    dso_days: dsoDays,
    late_customers: late.map((c) => {
      const d = details.get(c.customer_id);
      return {
        customer_id: c.customer_id,
        name: d?.name || 'Client divers',
        count: c.count,
        amount: cents(c.amount),
        oldest: d?.oldest ?? '',
      };
    }),
  };
}

/** Turnover HT less expenses HT, per month: expenses in the base currency only (expense-figures.ts gives them per currency). */
export async function marginReport(db: Db, organizationId: number, params: Period) {
  const [turnover, expenses] = await Promise.all([
    turnoverReport(db, organizationId, { ...params, group: 'month' }),
    expenseFigures(db, { organizationId, ...params }),
  ]);
  const months = new Map<string, { turnover: Money; expenses: Money }>();
  for (const t of turnover.data) months.set(t.period, { turnover: money(t.net), expenses: ZERO });
  for (const e of expenses.months) {
    if (e.currency !== turnover.currency) continue;
    const m = months.get(e.month) ?? { turnover: ZERO, expenses: ZERO };
    months.set(e.month, { ...m, expenses: add(m.expenses, e.net) });
  }
  return {
    currency: turnover.currency,
    data: [...months]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([period, m]) => ({
        period,
        turnover: cents(m.turnover),
        expenses: cents(m.expenses),
        margin: cents(sub(m.turnover, m.expenses)),
      })),
  };
}

/**
 * The livre des recettes (CGI art. 50-0, micro-entrepreneurs): every payment received, in date order, in the base
 * currency, a page at a time; its count and total are the whole period's. A legal obligation under the franchise
 * only, but a useful cash journal to anyone: not refused to others.
 */
export async function receiptsBook(db: Db, organizationId: number, params: Period & { page: number }) {
  const { base, toBase } = await converter(db, organizationId);
  const period = { organizationId, from: params.from, to: params.to };
  const [rows, sums] = await Promise.all([
    receiptsOfPeriod(db, { ...period, limit: RECEIPTS_PER_PAGE, offset: (params.page - 1) * RECEIPTS_PER_PAGE }),
    receiptsTotals(db, period),
  ]);
  let total = ZERO;
  let count = 0;
  for (const s of sums) [total, count] = [add(total, await toBase(s.amount, s)), count + Number(s.count)];
  const data = [];
  for (const r of rows) {
    // Most receipts are in the base currency: their cents come from the integer units without a decimal object.
    const amount = r.currency === base ? unitsToNumber(roundDiv(BigInt(r.amount), 100n), 2) : cents(await toBase(r.amount, r));
    data.push({
      date: r.date,
      customer: r.customer_name,
      document: r.number ?? '',
      amount,
      method: PAYMENT_METHODS[r.method as PaymentMethod] ?? r.method,
      currency: base,
    });
  }
  const pages = Math.max(1, Math.ceil(count / RECEIPTS_PER_PAGE));
  return { currency: base, count, page: params.page, pages, data, total: cents(total) };
}

/**
 * What a micro-entrepreneur declares to the URSSAF: receipts per month or quarter, each payment split between sales
 * of goods and services in proportion of its document's lines; and the year so far against the franchise thresholds.
 */
export async function urssafReport(db: Db, organizationId: number, params: Period & { group: 'month' | 'quarter' }) {
  const { base, toBase } = await converter(db, organizationId);
  const year = Number(params.to.slice(0, 4));
  const yearStart = `${year}-01-01`;
  const from = params.from < yearStart ? params.from : yearStart;
  const periodOf = (date: string) =>
    params.group === 'month' ? date.slice(0, 7) : `${date.slice(0, 4)}-T${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
  // Exact integer units per period, currency and rate; converted once per group.
  const sums = new Map<
    string,
    { period: string; inYear: boolean; inPeriod: boolean; currency: string; rate: string | null; goods: bigint; all: bigint }
  >();
  // The receipts before the period (the year so far) apart from the period's own: a row of the summaries stands for
  // its whole month, so that a period beginning within a month is never read in the same month's row as the days before.
  const ranges =
    from < params.from
      ? [
          { from, to: addDays(params.from, -1) },
          { from: params.from, to: params.to },
        ]
      : [{ from, to: params.to }];
  const receipts = (await Promise.all(ranges.map((range) => receiptsByNature(db, { organizationId, ...range })))).flatMap((rows, i) =>
    rows.map((r) => ({ ...r, inPeriod: i === ranges.length - 1 })),
  );
  for (const r of receipts) {
    const goods = r.lines > 0 ? (BigInt(r.amount) * BigInt(r.goods)) / BigInt(r.lines) : 0n;
    const period = periodOf(r.date);
    const key = `${period} ${r.date >= yearStart} ${r.inPeriod} ${r.currency} ${r.rate}`;
    const e = sums.get(key) ?? {
      period,
      inYear: r.date >= yearStart,
      inPeriod: r.inPeriod,
      currency: r.currency,
      rate: r.rate,
      goods: 0n,
      all: 0n,
    };
    sums.set(key, { ...e, goods: e.goods + goods, all: e.all + BigInt(r.amount) });
  }
  const periods = new Map<string, { goods: Money; total: Money }>();
  let yearGoods = ZERO;
  let yearTotal = ZERO;
  for (const e of sums.values()) {
    const goods = await toBase(e.goods, e);
    const total = await toBase(e.all, e);
    if (e.inYear) [yearGoods, yearTotal] = [add(yearGoods, goods), add(yearTotal, total)];
    if (!e.inPeriod) continue;
    const p = periods.get(e.period) ?? { goods: ZERO, total: ZERO };
    periods.set(e.period, { goods: add(p.goods, goods), total: add(p.total, total) });
  }
  const yearServices = sub(yearTotal, yearGoods);
  const percent = (value: Money, threshold: number) => Math.round(toNumber(value.times(1000).div(threshold))) / 10;
  return {
    currency: base,
    data: [...periods]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([period, p]) => ({ period, goods: cents(p.goods), services: cents(sub(p.total, p.goods)), total: cents(p.total) })),
    year: {
      year,
      goods: cents(yearGoods),
      services: cents(yearServices),
      total: cents(yearTotal),
      thresholds: { ...FRANCHISE_THRESHOLDS },
      reached: { goods: percent(yearGoods, FRANCHISE_THRESHOLDS.goods), services: percent(yearServices, FRANCHISE_THRESHOLDS.services) },
    },
  };
}
