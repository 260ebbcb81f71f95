/**
 * Document totals (SPEC §5/§9, EN 16931 where SPEC is silent). Rules, in order:
 *
 * | step | HT mode (prices typed excluding tax)                         | TTC mode (typed prices are what the customer pays) |
 * |------|---------------------------------------------------------------|----------------------------------------------------|
 * | line | subtotal = round(qty × unit price)                            | same, on TTC prices                                 |
 * | line | discount: percent of subtotal, or a fixed amount capped at    | same                                                |
 * |      | the subtotal; only when price and quantity are present       |                                                     |
 * | line | gross_total (line net, BT-131) = subtotal − discount          | line TTC = subtotal − discount                      |
 * | doc  | subtotal = Σ line nets                                        | lines grouped by their set of taxes ("bucket")      |
 * | doc  | discount: percent of subtotal or amount, capped at it, zero   | same rule on the TTC total, spread over buckets by  |
 * |      | unless both type and value; spread over buckets by their base | their TTC (largest remainder: shares add up exactly)|
 * |      | (largest remainder), so taxes are "adjusted by the discount"  |                                                     |
 * | tax  | per rate: taxable = Σ adjusted bases; amount = round(taxable  | per bucket: HT = round(TTC ÷ (1 + Σrates/100)),     |
 * |      | × rate / 100) — VAT on the sum of bases, not line by line     | VAT = TTC − HT (split by rate, largest remainder)   |
 * | doc  | total = subtotal − discount + tax + shipping (shipping untaxed, SPEC §9)                                            |
 * | doc  | amount due = total − Σ deposits − paid                                                                                |
 *
 * Every rounding is half away from zero to the currency's precision. Groups are keyed by title and rate, sorted
 * by rate ascending. In TTC mode each bucket's HT + VAT equals the typed TTC exactly, so 500 € typed is 500 € due.
 * A line's `tax` and `total` are informative; the document's tax is the sum of the rate groups.
 */
import { allocate, div, max, min, money, mul, percentOf, round, sum, toNumber, ZERO, type Money, type MoneyInput } from './money';

export interface TotalsLineInput {
  quantity?: MoneyInput | null;
  unit_price?: MoneyInput | null;
  discount_type?: 'percent' | 'amount' | null;
  discount_value?: MoneyInput | null;
  taxes?: ReadonlyArray<{ title: string; rate: MoneyInput }> | null;
}

export interface TotalsInput {
  items: ReadonlyArray<TotalsLineInput>;
  discount_type?: 'percent' | 'amount' | null;
  discount_value?: MoneyInput | null;
  shipping?: MoneyInput | null;
  price_mode?: 'ht' | 'ttc';
  /** Deposit invoices already issued (TTC), deducted from the amount due. */
  deposits?: ReadonlyArray<MoneyInput>;
  /** Payments received. */
  paid?: MoneyInput | null;
  /** The currency's decimal_digits (2 for EUR). */
  precision?: number;
}

export interface LineTotals {
  /** Unit price excluding tax (derived from the typed TTC price in TTC mode). */
  price: number;
  /** Unit price after the line discount, excluding tax. */
  net_price: number;
  subtotal: number;
  discount: number;
  /** Line net amount excluding tax (EN 16931 BT-131). */
  gross_total: number;
  tax: number;
  total: number;
}

export interface TaxGroup {
  title: string;
  rate: number;
  /** Sum of the bases carrying this tax, after the document discount. */
  taxable_amount: number;
  amount: number;
}

export interface DocumentTotals {
  lines: LineTotals[];
  subtotal: number;
  discount: number;
  taxes: TaxGroup[];
  tax: number;
  shipping: number;
  total: number;
  deposits: number;
  paid: number;
  amount_due: number;
}

const isPresent = (v: MoneyInput | null | undefined) => v !== null && v !== undefined && v !== '';

interface Line {
  subtotal: Money;
  discount: Money;
  net: Money; // HT net in HT mode, TTC in TTC mode
  quantity: Money;
  taxes: { title: string; rate: Money }[];
  rateSum: Money;
  bucket: string;
}

/** Percent of the base, or a fixed amount; never more than the base in magnitude, and of the base's sign. */
function discountOf(base: Money, type: 'percent' | 'amount' | null | undefined, value: MoneyInput | null | undefined, precision: number): Money {
  if (!type || !isPresent(value) || base.eq(0)) return ZERO;
  const v = money(value).abs();
  const magnitude = type === 'percent' ? round(percentOf(base.abs(), min(v, 100)), precision) : round(v, precision);
  return min(magnitude, base.abs()).times(base.lt(0) ? -1 : 1);
}

function readLine(input: TotalsLineInput, precision: number): Line {
  const hasPriceAndQuantity = isPresent(input.quantity) && isPresent(input.unit_price);
  const quantity = money(input.quantity ?? 0);
  const subtotal = round(mul(quantity, input.unit_price ?? 0), precision);
  // SPEC §5: a line discount applies only when both price and quantity are present.
  const discount = hasPriceAndQuantity ? discountOf(subtotal, input.discount_type, input.discount_value, precision) : ZERO;
  const taxes = (input.taxes ?? []).map((t) => ({ title: t.title, rate: money(t.rate) }));
  const bucket = taxes
    .map((t) => `${t.title}\u0000${t.rate.toString()}`)
    .sort()
    .join('\u0001');
  return { subtotal, discount, net: subtotal.minus(discount), quantity, taxes, rateSum: sum(taxes.map((t) => t.rate)), bucket };
}

interface Bucket {
  lines: number[];
  taxes: { title: string; rate: Money }[];
  rateSum: Money;
  amount: Money;
}

function bucketsOf(lines: Line[]): Bucket[] {
  const byKey = new Map<string, Bucket>();
  lines.forEach((line, i) => {
    let bucket = byKey.get(line.bucket);
    if (!bucket) {
      bucket = { lines: [], taxes: line.taxes, rateSum: line.rateSum, amount: ZERO };
      byKey.set(line.bucket, bucket);
    }
    bucket.lines.push(i);
    bucket.amount = bucket.amount.plus(line.net);
  });
  return [...byKey.values()];
}

function addToGroup(groups: Map<string, { title: string; rate: Money; taxable: Money; amount: Money }>, title: string, rate: Money, taxable: Money, amount: Money) {
  const key = `${title}\u0000${rate.toString()}`;
  const group = groups.get(key) ?? { title, rate, taxable: ZERO, amount: ZERO };
  group.taxable = group.taxable.plus(taxable);
  group.amount = group.amount.plus(amount);
  groups.set(key, group);
}

export function computeTotals(input: TotalsInput): DocumentTotals {
  const precision = input.precision ?? 2;
  const lines = input.items.map((item) => readLine(item, precision));
  const buckets = bucketsOf(lines);
  const gross = sum(lines.map((l) => l.net)); // HT in HT mode, TTC in TTC mode
  const docDiscount = discountOf(gross, input.discount_type, input.discount_value, precision);
  const bucketDiscounts = allocate(docDiscount, buckets.map((b) => b.amount), precision);
  const groups = new Map<string, { title: string; rate: Money; taxable: Money; amount: Money }>();
  const lineHt: Money[] = lines.map((l) => l.net);
  let subtotal: Money;
  let discount: Money;

  if (input.price_mode === 'ttc') {
    let baseSum = ZERO;
    let baseBeforeDiscount = ZERO;
    buckets.forEach((bucket, b) => {
      const divisor = money(1).plus(div(bucket.rateSum, 100));
      // HT of the bucket before the document discount, spread over its lines so that they add up exactly.
      const htBefore = round(div(bucket.amount, divisor), precision);
      const shares = allocate(htBefore, bucket.lines.map((i) => lines[i]!.net), precision);
      bucket.lines.forEach((i, k) => (lineHt[i] = shares[k]!));
      baseBeforeDiscount = baseBeforeDiscount.plus(htBefore);

      const ttc = bucket.amount.minus(bucketDiscounts[b]!);
      const base = round(div(ttc, divisor), precision);
      baseSum = baseSum.plus(base);
      const vat = ttc.minus(base);
      const split = allocate(vat, bucket.taxes.map((t) => t.rate), precision);
      bucket.taxes.forEach((t, k) => addToGroup(groups, t.title, t.rate, base, split[k]!));
    });
    subtotal = baseBeforeDiscount;
    discount = baseBeforeDiscount.minus(baseSum);
  } else {
    buckets.forEach((bucket, b) => {
      const base = bucket.amount.minus(bucketDiscounts[b]!);
      for (const t of bucket.taxes) addToGroup(groups, t.title, t.rate, base, ZERO);
    });
    for (const group of groups.values()) group.amount = round(percentOf(group.taxable, group.rate), precision);
    subtotal = gross;
    discount = docDiscount;
  }

  const taxes: TaxGroup[] = [...groups.values()]
    .sort((a, b) => a.rate.cmp(b.rate) || a.title.localeCompare(b.title))
    .map((g) => ({ title: g.title, rate: toNumber(g.rate), taxable_amount: toNumber(g.taxable, precision), amount: toNumber(g.amount, precision) }));
  const tax = sum([...groups.values()].map((g) => g.amount));
  const shipping = round(input.shipping ?? 0, precision);
  const total = subtotal.minus(discount).plus(tax).plus(shipping);
  const deposits = sum((input.deposits ?? []).map((d) => round(d, precision)));
  const paid = round(input.paid ?? 0, precision);

  return {
    lines: lines.map((line, i) => lineTotals(line, lineHt[i]!, input.price_mode === 'ttc', precision)),
    subtotal: toNumber(subtotal, precision),
    discount: toNumber(discount, precision),
    taxes,
    tax: toNumber(tax, precision),
    shipping: toNumber(shipping, precision),
    total: toNumber(total, precision),
    deposits: toNumber(deposits, precision),
    paid: toNumber(paid, precision),
    amount_due: toNumber(total.minus(deposits).minus(paid), precision),
  };
}

function lineTotals(line: Line, ht: Money, ttcMode: boolean, precision: number): LineTotals {
  const unitPrecision = Math.max(precision + 2, 4);
  const q = line.quantity;
  const perUnit = (value: Money) => (q.eq(0) ? ZERO : round(div(value, q), unitPrecision));
  if (ttcMode) {
    // Typed amounts include tax: derive the HT view of the line from its share of the bucket's HT.
    const divisor = money(1).plus(div(line.rateSum, 100));
    const subtotalHt = round(div(line.subtotal, divisor), precision);
    return {
      price: toNumber(perUnit(subtotalHt)),
      net_price: toNumber(perUnit(ht)),
      subtotal: toNumber(subtotalHt),
      discount: toNumber(max(subtotalHt.minus(ht), ZERO)),
      gross_total: toNumber(ht),
      tax: toNumber(line.net.minus(ht)),
      total: toNumber(line.net),
    };
  }
  const tax = round(percentOf(line.net, line.rateSum), precision);
  return {
    price: toNumber(perUnit(line.subtotal)),
    net_price: toNumber(perUnit(line.net)),
    subtotal: toNumber(line.subtotal),
    discount: toNumber(line.discount),
    gross_total: toNumber(line.net),
    tax: toNumber(tax),
    total: toNumber(line.net.plus(tax)),
  };
}

/** SPEC §9: a tax rate with two decimals and '%', with the organisation's decimal separator. */
export function formatTaxRate(rate: MoneyInput, decimalSeparator = ','): string {
  return `${round(rate, 2).toFixed(2).replace('.', decimalSeparator)}%`;
}

