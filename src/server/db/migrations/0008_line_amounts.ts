import Big from 'big.js';
import type { Kysely } from 'kysely';

/**
 * Each line keeps its computed amounts (price, net_price, subtotal, discount, gross_total, tax, total: JSON in major
 * units), written with the document's totals at each save: a document is read back, never recomputed, and an issued
 * one shows exactly what was issued. Lines saved before this migration get their amounts computed once, here, from
 * their stored inputs with the totals core of that day, copied below as it was (only what a line's amounts need):
 * today's shared/totals.ts may change without changing what this migration wrote.
 */
/** The columns this migration reads, as migration 0007 made them (never today's table types). */
interface TablesAt0007 {
  documents: {
    id: number;
    discount_type: 'percent' | 'amount' | null;
    discount_value: string | null;
    shipping_fee: string;
    price_mode: 'ht' | 'ttc';
    currency: string;
  };
  document_items: {
    id: number;
    document_id: number;
    position: number;
    quantity: string;
    unit_price: string;
    discount_type: 'percent' | 'amount';
    discount_value: string;
    taxes: string;
    amounts: string | null;
  };
}

export async function up(db: Kysely<TablesAt0007>): Promise<void> {
  await db.schema.alterTable('document_items').addColumn('amounts', 'text').execute();
  const documents = await db
    .selectFrom('documents')
    .select(['id', 'discount_type', 'discount_value', 'shipping_fee', 'price_mode', 'currency'])
    .execute();
  for (const doc of documents) {
    const items = await db
      .selectFrom('document_items')
      .select(['id', 'quantity', 'unit_price', 'discount_type', 'discount_value', 'taxes'])
      .where('document_id', '=', doc.id)
      .orderBy('position')
      .execute();
    if (items.length === 0) continue;
    const lines = lineAmounts(
      items.map((i) => ({
        quantity: i.quantity,
        unit_price: i.unit_price,
        discount_type: i.discount_type,
        discount_value: i.discount_value,
        taxes: JSON.parse(i.taxes),
      })),
      doc.price_mode === 'ttc',
      precisionOf(doc.currency),
    );
    for (const [k, item] of items.entries()) {
      await db
        .updateTable('document_items')
        .set({ amounts: JSON.stringify(lines[k]) })
        .where('id', '=', item.id)
        .execute();
    }
  }
}

// The totals core as this migration ran with it: a line's amounts in exact integer units (scale 4 for inputs, the
// currency's precision for amounts), half away from zero. A line's amounts depend on its own inputs and, in TTC mode,
// on the other lines of its tax set; never on the document's discount or shipping.

/** The currencies whose amounts were not rounded to 2 decimals (the catalogue of that day); any other code: 2. */
const PRECISION: Record<string, number> = Object.fromEntries([
  ...'BHD JOD KWD LYD OMR TND'.split(' ').map((code) => [code, 3]),
  ...'AFN ALL BIF CLP COP DJF GNF HUF IDR IQD IRR ISK JPY KMF KPW KRW LAK LBP MGA MMK PKR PYG RWF SOS SYP UGX VND VUV XAF XOF XPF YER'
    .split(' ')
    .map((code) => [code, 0]),
]);
export const precisionOf = (code: string): number => PRECISION[code.toUpperCase()] ?? 2;

type Input = string | number | null | undefined;
interface LineInput {
  quantity: Input;
  unit_price: Input;
  discount_type: 'percent' | 'amount' | null;
  discount_value: Input;
  taxes: ReadonlyArray<{ title: string; rate: Input }> | null;
}

const SCALE = 4;
const pow10 = (n: number): bigint => 10n ** BigInt(n);
const HUNDRED_PERCENT = 100n * pow10(SCALE);
const isPresent = (v: Input) => v !== null && v !== undefined && v !== '';
const abs = (v: bigint): bigint => (v < 0n ? -v : v);
const min = (a: bigint, b: bigint) => (a < b ? a : b);
const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);

/** n / d rounded half away from zero (d > 0). */
function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  if ((r < 0n ? -r : r) * 2n >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** A typed value as units of 10^-4, rounded half away from zero past the 4th decimal. */
function toUnits4(value: Input): bigint {
  if (value === null || value === undefined || value === '') return 0n;
  const text =
    typeof value === 'number' ? new Big(value).toFixed() : new Big(value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.')).toFixed();
  const negative = text.startsWith('-');
  const [int = '0', frac = ''] = (negative ? text.slice(1) : text).split('.');
  const kept = BigInt(int + frac.slice(0, SCALE).padEnd(SCALE, '0'));
  const rest = frac.slice(SCALE);
  const rounded = rest !== '' && (rest[0] ?? '0') >= '5' ? kept + 1n : kept;
  return negative ? -rounded : rounded;
}

const rescale = (value: bigint, from: number, to: number): bigint =>
  to >= from ? value * pow10(to - from) : roundDiv(value, pow10(from - to));
const toJson = (value: bigint, scale: number): number => Number(value) / Number(pow10(scale));

/** Splits `total` across `weights` so that the shares add up to it exactly (largest remainders, ties in order). */
function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  if (weights.length === 0) return [];
  const ws = weights.map(abs);
  const weightSum = sum(ws);
  const magnitude = abs(total);
  const shares = weightSum === 0n ? ws.map((_, i) => (i === 0 ? magnitude : 0n)) : ws.map((w) => (magnitude * w) / weightSum);
  if (weightSum !== 0n) {
    let leftover = magnitude - sum(shares);
    if (leftover > 0n) {
      const order = ws
        .map((w, i) => ({ i, remainder: (magnitude * w) % weightSum }))
        .sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.i - b.i));
      for (let k = 0; leftover > 0n; k = (k + 1) % order.length, leftover -= 1n) {
        const at = order[k]?.i ?? 0;
        shares[at] = (shares[at] ?? 0n) + 1n;
      }
    }
  }
  return total < 0n ? shares.map((x) => -x) : shares;
}

/** Percent of the base, or a fixed amount; never more than the base in magnitude, and of the base's sign. */
function discountOf(base: bigint, type: LineInput['discount_type'], value: Input, p: number): bigint {
  if (!type || !isPresent(value) || base === 0n) return 0n;
  const v = abs(toUnits4(value));
  const raw = type === 'percent' ? roundDiv(abs(base) * min(v, HUNDRED_PERCENT), HUNDRED_PERCENT) : rescale(v, SCALE, p);
  const magnitude = min(raw, abs(base));
  return base < 0n ? -magnitude : magnitude;
}

/** TTC → HT: amount ÷ (1 + rate/100), exactly rounded. */
const excludingTax = (ttc: bigint, rateSum: bigint) => roundDiv(ttc * HUNDRED_PERCENT, HUNDRED_PERCENT + rateSum);

export function lineAmounts(inputs: readonly LineInput[], ttcMode: boolean, p: number) {
  const lines = inputs.map((input) => {
    const quantity = toUnits4(input.quantity);
    const unitPrice = toUnits4(input.unit_price);
    const subtotal = roundDiv(quantity * unitPrice, pow10(2 * SCALE - p));
    // A line discount applies only when both price and quantity are present.
    const applies = isPresent(input.quantity) && isPresent(input.unit_price);
    const discount = applies ? discountOf(subtotal, input.discount_type, input.discount_value, p) : 0n;
    const percent = discount !== 0n && input.discount_type === 'percent' ? min(abs(toUnits4(input.discount_value)), HUNDRED_PERCENT) : null;
    const taxes = (input.taxes ?? []).map((t) => ({ title: t.title, rate: toUnits4(t.rate) }));
    const bucket = taxes
      .map((t) => `${t.title}\u0000${t.rate}`)
      .sort()
      .join('\u0001');
    return { quantity, unitPrice, percent, subtotal, discount, net: subtotal - discount, rateSum: sum(taxes.map((t) => t.rate)), bucket };
  });
  // TTC mode: each tax set's HT before the document discount, spread over its lines so that they add up exactly.
  const lineHt = lines.map((l) => l.net);
  if (ttcMode) {
    const buckets = new Map<string, number[]>();
    lines.forEach((line, i) => {
      buckets.set(line.bucket, [...(buckets.get(line.bucket) ?? []), i]);
    });
    for (const members of buckets.values()) {
      const nets = members.map((i) => lines[i]?.net ?? 0n);
      const shares = allocate(excludingTax(sum(nets), lines[members[0] ?? 0]?.rateSum ?? 0n), nets);
      members.forEach((i, k) => {
        lineHt[i] = shares[k] ?? 0n;
      });
    }
  }
  return lines.map((line, i) => {
    const ht = lineHt[i] ?? 0n;
    const amount = (v: bigint) => toJson(v, p);
    const unit = (v: bigint) => toJson(v, SCALE);
    /** An amount at scale p per unit of quantity, at scale 4. */
    const perUnit = (value: bigint) => (line.quantity === 0n ? 0n : roundDiv(value * pow10(2 * SCALE - p), line.quantity));
    if (ttcMode) {
      const subtotalHt = excludingTax(line.subtotal, line.rateSum);
      const lineDiscount = subtotalHt - ht;
      return {
        price: unit(perUnit(subtotalHt)),
        net_price: unit(perUnit(ht)),
        subtotal: amount(subtotalHt),
        discount: amount(lineDiscount > 0n ? lineDiscount : 0n),
        gross_total: amount(ht),
        tax: amount(line.net - ht),
        total: amount(line.net),
      };
    }
    const tax = roundDiv(line.net * line.rateSum, HUNDRED_PERCENT);
    const netPrice =
      line.discount === 0n
        ? line.unitPrice
        : line.percent !== null
          ? roundDiv(line.unitPrice * (HUNDRED_PERCENT - line.percent), HUNDRED_PERCENT)
          : perUnit(line.net);
    return {
      price: unit(line.unitPrice),
      net_price: unit(netPrice),
      subtotal: amount(line.subtotal),
      discount: amount(line.discount),
      gross_total: amount(line.net),
      tax: amount(tax),
      total: amount(line.net + tax),
    };
  });
}
