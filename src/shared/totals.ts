/**
 * Document totals (EN 16931 where the product's rules are silent). Rules, in order:
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
 * | ship | shipping is typed excluding tax in both modes (an EN 16931 document-level charge, BT-99, is an amount     |
 * |      | without VAT), never discounted; its rate is `shipping_tax` when one is chosen; when left out it is       |
 * |      | apportioned to the bases of the lines, per set of taxes, pro rata of their bases after the discount      |
 * |      | (largest remainder: the parts add up to the shipping exactly; the part of untaxed lines carries no VAT)  |
 * | tax  | per rate: taxable = Σ adjusted bases + shipping at that rate; | per bucket: HT = round(TTC ÷ (1 + Σrates/100)),     |
 * |      | amount = round(taxable × rate / 100) — VAT on the sum of      | VAT = TTC − HT (split by rate, largest remainder);  |
 * |      | bases (shipping included, CGI art. 267), not line by line     | shipping at a rate adds round(shipping × rate / 100)|
 * |      |                                                               | to that rate's group, and its amount to taxable     |
 * | doc  | total = subtotal − discount + shipping + tax (tax includes the VAT on shipping: CGI art. 267)        |
 * | doc  | amount due = total − Σ deposits − paid                                                                                |
 *
 * Every rounding is half away from zero to the currency's precision, on exact values: the arithmetic runs on
 * integer units (money.ts's BigInt units), as a 1 000-line document must total in a few milliseconds (`npm run bench`).
 * Groups are keyed by title and rate, sorted by rate ascending. In TTC mode each bucket's HT + VAT equals the typed
 * TTC exactly, so 500 € typed is 500 € due (plus shipping and its VAT). A line's `tax` and `total` are informative;
 * the document's tax is the sum of the rate groups. Unit prices (price, net_price) are shown with 4 decimals. The
 * rate applied to shipping is answered as `shipping_tax` (null: none), so the document can keep it.
 */
import {
  absUnits,
  allocateUnits,
  INPUT_SCALE,
  type MoneyInput,
  pow10,
  rescale,
  roundDiv,
  toUnits4,
  unitsToDecimalText,
  unitsToNumber,
} from './money';
import { defined } from './defined';
import { percentText } from './french';

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
  /** Excluding tax, in both price modes. */
  shipping?: MoneyInput | null;
  /** The VAT rate of shipping: a rate, null for none, left out for the document's main rate. */
  shipping_tax?: { title: string; rate: MoneyInput } | null;
  price_mode?: 'ht' | 'ttc';
  /** Deposit invoices already issued (TTC), deducted from the amount due. */
  deposits?: ReadonlyArray<MoneyInput>;
  /** Payments received. */
  paid?: MoneyInput | null;
  /** The currency's decimal_digits (2 for EUR), 0 to 4. */
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
  /** The part of shipping inside `taxable_amount` (left out when none): what an e-invoice charges at this rate. */
  shipping?: number;
}

export interface DocumentTotals {
  lines: LineTotals[];
  subtotal: number;
  discount: number;
  taxes: TaxGroup[];
  tax: number;
  /** Shipping excluding tax; its VAT is in the group of `shipping_tax`. */
  shipping: number;
  /**
   * The rate chosen for shipping, null when it carries no VAT; when it is apportioned to the bases, the main rate (the
   * rate of the largest base), for the editor to name. The parts themselves are in `taxes[].shipping`.
   */
  shipping_tax: { title: string; rate: number } | null;
  total: number;
  deposits: number;
  paid: number;
  amount_due: number;
}

/** 100 % at INPUT_SCALE, and the factor that turns "amount × rate (scale 4) / 100" back into the amount's scale. */
const HUNDRED_PERCENT = 100n * pow10(INPUT_SCALE);
const PERCENT_DIVISOR = HUNDRED_PERCENT; // x × rate4 / (100 × 10^4)

const isPresent = (v: MoneyInput | null | undefined) => v !== null && v !== undefined && v !== '';
const sumUnits = (values: Iterable<bigint>) => {
  let total = 0n;
  for (const v of values) total += v;
  return total;
};
const minUnits = (a: bigint, b: bigint) => (a < b ? a : b);

interface Line {
  quantity: bigint; // scale 4
  unitPrice: bigint; // scale 4
  percent: bigint | null; // scale 4, when a percent discount applies
  subtotal: bigint; // scale p
  discount: bigint; // scale p
  net: bigint; // scale p: HT in HT mode, TTC in TTC mode
  taxes: { title: string; rate: bigint }[];
  rateSum: bigint; // scale 4
  bucket: string;
}

/** Percent of the base, or a fixed amount; never more than the base in magnitude, and of the base's sign. */
function discountOf(base: bigint, type: 'percent' | 'amount' | null | undefined, value: MoneyInput | null | undefined, p: number): bigint {
  if (!type || !isPresent(value) || base === 0n) return 0n;
  const v = absUnits(toUnits4(value));
  const magnitudeBase = absUnits(base);
  const raw = type === 'percent' ? roundDiv(magnitudeBase * minUnits(v, HUNDRED_PERCENT), PERCENT_DIVISOR) : rescale(v, INPUT_SCALE, p);
  const magnitude = minUnits(raw, magnitudeBase);
  return base < 0n ? -magnitude : magnitude;
}

function readLine(input: TotalsLineInput, p: number): Line {
  const quantity = toUnits4(input.quantity);
  const unitPrice = toUnits4(input.unit_price);
  const subtotal = roundDiv(quantity * unitPrice, pow10(2 * INPUT_SCALE - p));
  // A line discount applies only when both price and quantity are present.
  const applies = isPresent(input.quantity) && isPresent(input.unit_price);
  const discount = applies ? discountOf(subtotal, input.discount_type, input.discount_value, p) : 0n;
  const percent =
    discount !== 0n && input.discount_type === 'percent' ? minUnits(absUnits(toUnits4(input.discount_value)), HUNDRED_PERCENT) : null;
  const taxes = (input.taxes ?? []).map((t) => ({ title: t.title, rate: toUnits4(t.rate) }));
  const bucket = taxes
    .map((t) => `${t.title}\u0000${t.rate}`)
    .sort()
    .join('\u0001');
  return {
    quantity,
    unitPrice,
    percent,
    subtotal,
    discount,
    net: subtotal - discount,
    taxes,
    rateSum: sumUnits(taxes.map((t) => t.rate)),
    bucket,
  };
}

interface Bucket {
  lines: number[];
  taxes: { title: string; rate: bigint }[];
  rateSum: bigint;
  amount: bigint;
}

function bucketsOf(lines: Line[]): Bucket[] {
  const byKey = new Map<string, Bucket>();
  lines.forEach((line, i) => {
    let bucket = byKey.get(line.bucket);
    if (!bucket) {
      bucket = { lines: [], taxes: line.taxes, rateSum: line.rateSum, amount: 0n };
      byKey.set(line.bucket, bucket);
    }
    bucket.lines.push(i);
    bucket.amount += line.net;
  });
  return [...byKey.values()];
}

/** TTC → HT: amount ÷ (1 + rate/100), exactly rounded. */
const excludingTax = (ttc: bigint, rateSum: bigint) => roundDiv(ttc * HUNDRED_PERCENT, HUNDRED_PERCENT + rateSum);

type Group = { title: string; rate: bigint; taxable: bigint; amount: bigint; shipping: bigint };
function addToGroup(groups: Map<string, Group>, title: string, rate: bigint, taxable: bigint, amount: bigint, shipping = 0n) {
  const key = `${title}\u0000${rate}`;
  const group = groups.get(key) ?? { title, rate, taxable: 0n, amount: 0n, shipping: 0n };
  group.taxable += taxable;
  group.amount += amount;
  group.shipping += shipping;
  groups.set(key, group);
}

type Rate = { title: string; rate: bigint };

/**
 * The document's main rate: the rate whose lines carry the largest base (a line with several taxes counts for each),
 * untaxed lines counting as "none". Ties go to the higher rate. Shipping follows it, as an accessory follows the
 * principal supply (CGI art. 267).
 */
function mainRate(lines: Line[]): Rate | null {
  const bases = new Map<string, { tax: Rate | null; base: bigint }>();
  for (const line of lines) {
    for (const tax of line.taxes.length > 0 ? line.taxes : [null]) {
      const key = tax ? `${tax.title}\u0000${tax.rate}` : '';
      const entry = bases.get(key) ?? { tax, base: 0n };
      entry.base += line.net;
      bases.set(key, entry);
    }
  }
  let best: { tax: Rate | null; base: bigint } | null = null;
  for (const entry of bases.values()) {
    const base = absUnits(entry.base);
    const rate = entry.tax?.rate ?? -1n;
    const bestBase = best ? absUnits(best.base) : -1n;
    if (!best || base > bestBase || (base === bestBase && rate > (best.tax?.rate ?? -1n))) best = entry;
  }
  return best?.tax ?? null;
}

/** The document's main rate (the rate carrying the largest base), for the editor to name what shipping follows. */
export function documentMainRate(items: ReadonlyArray<TotalsLineInput>, precision = 2): { title: string; rate: number } | null {
  const p = Math.min(Math.max(precision, 0), INPUT_SCALE);
  const main = mainRate(items.map((item) => readLine(item, p)));
  return main ? { title: main.title, rate: unitsToNumber(main.rate, INPUT_SCALE) } : null;
}

function shippingRate(input: TotalsInput['shipping_tax'], lines: Line[]): Rate | null {
  if (input === undefined) return mainRate(lines);
  return input === null ? null : { title: input.title, rate: toUnits4(input.rate) };
}

/**
 * Shipping apportioned to the bases, when no rate was chosen for it. Transport the seller bills with a delivery is
 * part of the delivery's price (CGI art. 267, I-2°; BOI-TVA-BASE-10-10-10 § 1 on the costs charged to the customer,
 * BOI-TVA-BASE-10-20-10 on transport costs, unless the sale is « départ » and the transport billed apart), and an
 * accessory follows the VAT of its principal (CGI art. 257 ter; CJUE 25 February 1999, C-349/96, CPP). No BOFiP
 * paragraph says how one charge is split over supplies at several rates: the rule this app follows is that each
 * principal takes its accessory, so the charge is split pro rata of each rate's base (what accounting practice
 * applies), never taxed at the rate of the largest base. Each set of taxes gets its share of its base after the
 * document discount, the largest remainders taking the last cents, so that the parts add up to the shipping exactly.
 */
function shippingParts(shipping: bigint, bases: bigint[]): bigint[] {
  return allocateUnits(shipping, bases);
}

export function computeTotals(input: TotalsInput): DocumentTotals {
  const p = Math.min(Math.max(input.precision ?? 2, 0), INPUT_SCALE);
  const ttcMode = input.price_mode === 'ttc';
  const lines = input.items.map((item) => readLine(item, p));
  const buckets = bucketsOf(lines);
  const gross = sumUnits(lines.map((l) => l.net)); // HT in HT mode, TTC in TTC mode
  const docDiscount = discountOf(gross, input.discount_type, input.discount_value, p);
  const bucketDiscounts = allocateUnits(
    docDiscount,
    buckets.map((b) => b.amount),
  );
  const shipping = rescale(toUnits4(input.shipping), INPUT_SCALE, p);
  const shippingTax = shippingRate(input.shipping_tax, lines);
  const groups = new Map<string, Group>();
  const lineHt: bigint[] = lines.map((l) => l.net);
  let subtotal: bigint;
  let discount: bigint;

  // Apportioned when no rate was chosen for shipping (and there are lines to apportion it to).
  const apportioned = input.shipping_tax === undefined && shipping !== 0n && buckets.length > 0;
  const bucketBases: bigint[] = [];
  if (ttcMode) {
    let baseSum = 0n;
    let baseBeforeDiscount = 0n;
    buckets.forEach((bucket, b) => {
      // HT of the bucket before the document discount, spread over its lines so that they add up exactly.
      const htBefore = excludingTax(bucket.amount, bucket.rateSum);
      const shares = allocateUnits(
        htBefore,
        bucket.lines.map((i) => defined(lines[i], 'lines[i]').net),
      );
      bucket.lines.forEach((i, k) => {
        lineHt[i] = defined(shares[k], 'shares[k]');
      });
      baseBeforeDiscount += htBefore;

      const ttc = bucket.amount - defined(bucketDiscounts[b], 'bucketDiscounts[b]');
      const base = excludingTax(ttc, bucket.rateSum);
      bucketBases.push(base);
      baseSum += base;
      const split = allocateUnits(
        ttc - base,
        bucket.taxes.map((t) => t.rate),
      );
      bucket.taxes.forEach((t, k) => {
        addToGroup(groups, t.title, t.rate, base, defined(split[k], 'split[k]'));
      });
    });
    // Shipping is typed excluding tax in both modes: its VAT joins its rate's group (or each part its bucket's groups).
    if (apportioned) {
      // The parts are summed per rate first: one rounding of their VAT per rate, as for the lines.
      const parts = shippingParts(shipping, bucketBases);
      const perRate = new Map<string, Group>();
      buckets.forEach((bucket, b) => {
        const part = defined(parts[b], 'parts[b]');
        if (part !== 0n) for (const t of bucket.taxes) addToGroup(perRate, t.title, t.rate, part, 0n, part);
      });
      for (const g of perRate.values())
        addToGroup(groups, g.title, g.rate, g.shipping, roundDiv(g.shipping * g.rate, PERCENT_DIVISOR), g.shipping);
    } else if (shippingTax && shipping !== 0n)
      addToGroup(groups, shippingTax.title, shippingTax.rate, shipping, roundDiv(shipping * shippingTax.rate, PERCENT_DIVISOR), shipping);
    subtotal = baseBeforeDiscount;
    discount = baseBeforeDiscount - baseSum;
  } else {
    buckets.forEach((bucket, b) => {
      const base = bucket.amount - defined(bucketDiscounts[b], 'bucketDiscounts[b]');
      bucketBases.push(base);
      for (const t of bucket.taxes) addToGroup(groups, t.title, t.rate, base, 0n);
    });
    if (apportioned) {
      const parts = shippingParts(shipping, bucketBases);
      buckets.forEach((bucket, b) => {
        const part = defined(parts[b], 'parts[b]');
        if (part === 0n) return;
        for (const t of bucket.taxes) addToGroup(groups, t.title, t.rate, part, 0n, part);
      });
    } else if (shippingTax && shipping !== 0n) addToGroup(groups, shippingTax.title, shippingTax.rate, shipping, 0n, shipping);
    for (const group of groups.values()) group.amount = roundDiv(group.taxable * group.rate, PERCENT_DIVISOR);
    subtotal = gross;
    discount = docDiscount;
  }

  const num = (v: bigint) => unitsToNumber(v, p);
  const sorted = [...groups.values()].sort((a, b) => (a.rate < b.rate ? -1 : a.rate > b.rate ? 1 : a.title.localeCompare(b.title)));
  const tax = sumUnits(sorted.map((g) => g.amount));
  const total = subtotal - discount + tax + shipping;
  const deposits = sumUnits((input.deposits ?? []).map((d) => rescale(toUnits4(d), INPUT_SCALE, p)));
  const paid = rescale(toUnits4(input.paid), INPUT_SCALE, p);

  return {
    lines: lines.map((line, i) => lineTotals(line, defined(lineHt[i], 'lineHt[i]'), ttcMode, p)),
    subtotal: num(subtotal),
    discount: num(discount),
    taxes: sorted.map((g) => ({
      title: g.title,
      rate: unitsToNumber(g.rate, INPUT_SCALE),
      taxable_amount: num(g.taxable),
      amount: num(g.amount),
      ...(g.shipping !== 0n ? { shipping: num(g.shipping) } : {}),
    })),
    tax: num(tax),
    shipping: num(shipping),
    shipping_tax: shippingTax ? { title: shippingTax.title, rate: unitsToNumber(shippingTax.rate, INPUT_SCALE) } : null,
    total: num(total),
    deposits: num(deposits),
    paid: num(paid),
    amount_due: num(total - deposits - paid),
  };
}

function lineTotals(line: Line, ht: bigint, ttcMode: boolean, p: number): LineTotals {
  const num = (v: bigint) => unitsToNumber(v, p);
  const unit = (v: bigint) => unitsToNumber(v, INPUT_SCALE);
  /** An amount at scale p per unit of quantity, at scale 4. */
  const perUnit = (amount: bigint) => (line.quantity === 0n ? 0n : roundDiv(amount * pow10(2 * INPUT_SCALE - p), line.quantity));
  if (ttcMode) {
    // Typed amounts include tax: derive the HT view of the line from its share of the bucket's HT.
    const subtotalHt = excludingTax(line.subtotal, line.rateSum);
    const lineDiscount = subtotalHt - ht;
    return {
      price: unit(perUnit(subtotalHt)),
      net_price: unit(perUnit(ht)),
      subtotal: num(subtotalHt),
      discount: num(lineDiscount > 0n ? lineDiscount : 0n),
      gross_total: num(ht),
      tax: num(line.net - ht),
      total: num(line.net),
    };
  }
  const tax = roundDiv(line.net * line.rateSum, PERCENT_DIVISOR);
  const netPrice =
    line.discount === 0n
      ? line.unitPrice
      : line.percent !== null
        ? roundDiv(line.unitPrice * (HUNDRED_PERCENT - line.percent), HUNDRED_PERCENT)
        : perUnit(line.net);
  return {
    price: unit(line.unitPrice),
    net_price: unit(netPrice),
    subtotal: num(line.subtotal),
    discount: num(line.discount),
    gross_total: num(line.net),
    tax: num(tax),
    total: num(line.net + tax),
  };
}

/** A tax rate with two decimals and '%' (after a narrow no-break space), with the organisation's decimal separator. */
export function formatTaxRate(rate: MoneyInput, decimalSeparator = ','): string {
  return percentText(unitsToDecimalText(rescale(toUnits4(rate), INPUT_SCALE, 2), 2).replace('.', decimalSeparator));
}
