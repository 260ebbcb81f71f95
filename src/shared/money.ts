import BigConstructor, { type Big as BigValue } from 'big.js';

/**
 * Decimal money. Every amount of business code is a `Money` (big.js); JS numbers only at the edges (JSON in and
 * out). A private Big constructor keeps our settings from leaking into other users of big.js.
 */
const Big = BigConstructor();
Big.DP = 20; // division precision, far beyond any currency
Big.RM = Big.roundHalfUp; // half away from zero, as EN 16931 and French practice round

export type Money = BigValue;
export type MoneyInput = Money | number | string;

export const ZERO: Money = new Big(0);

/** Accepts numbers, Big values and strings as people type them: '1 234,5', '1234.50', '-3'. */
export function money(value: MoneyInput | null | undefined): Money {
  if (value === null || value === undefined || value === '') return ZERO;
  if (value instanceof Big) return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Montant invalide : ${value}`);
    return new Big(value);
  }
  if (typeof value === 'object') return new Big(value as Money);
  const cleaned = value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) throw new RangeError(`Montant invalide : ${value}`);
  return new Big(cleaned);
}

export function isMoneyLike(value: unknown): boolean {
  try {
    money(value as MoneyInput);
    return true;
  } catch {
    return false;
  }
}

/** Rounds half away from zero to `precision` decimals (the currency's decimal_digits). */
export const round = (value: MoneyInput, precision: number): Money => money(value).round(precision, Big.roundHalfUp);

export const add = (...values: MoneyInput[]): Money => values.reduce<Money>((acc, v) => acc.plus(money(v)), ZERO);
export const sub = (a: MoneyInput, b: MoneyInput): Money => money(a).minus(money(b));
export const mul = (a: MoneyInput, b: MoneyInput): Money => money(a).times(money(b));
export const div = (a: MoneyInput, b: MoneyInput): Money => money(a).div(money(b));
export const sum = (values: Iterable<MoneyInput>): Money => {
  let total = ZERO;
  for (const v of values) total = total.plus(money(v));
  return total;
};
export const percentOf = (value: MoneyInput, rate: MoneyInput): Money => money(value).times(money(rate)).div(100);
export const abs = (value: MoneyInput): Money => money(value).abs();
export const neg = (value: MoneyInput): Money => money(value).times(-1);
export const min = (a: MoneyInput, b: MoneyInput): Money => (money(a).lt(money(b)) ? money(a) : money(b));
export const max = (a: MoneyInput, b: MoneyInput): Money => (money(a).gt(money(b)) ? money(a) : money(b));
export const sign = (value: MoneyInput): -1 | 0 | 1 => {
  const v = money(value);
  return v.gt(0) ? 1 : v.lt(0) ? -1 : 0;
};
export const isZero = (value: MoneyInput): boolean => money(value).eq(0);

/** To a JSON number at the edge, after rounding; exact for every amount a currency can hold. */
export const toNumber = (value: MoneyInput, precision?: number): number =>
  Number((precision === undefined ? money(value) : round(value, precision)).toString());

/**
 * Splits `total` (already at `precision`) across `weights` so the shares add up to it exactly: each share is
 * rounded down, then the leftover smallest units go to the largest remainders (ties: first in order).
 */
export function allocate(total: MoneyInput, weights: MoneyInput[], precision: number): Money[] {
  const amount = round(total, precision);
  const ws = weights.map((w) => money(w).abs());
  const weightSum = sum(ws);
  if (ws.length === 0) return [];
  if (weightSum.eq(0)) return ws.map((_, i) => (i === 0 ? amount : ZERO));
  const unit = new Big(1).div(new Big(10).pow(precision));
  const direction = amount.lt(0) ? -1 : 1;
  const magnitude = amount.abs();
  const exact = ws.map((w) => magnitude.times(w).div(weightSum));
  const shares = exact.map((e) => e.round(precision, Big.roundDown));
  let leftover = magnitude.minus(sum(shares));
  const order = exact
    .map((e, i) => ({ i, remainder: e.minus(shares[i]!) }))
    .sort((a, b) => b.remainder.cmp(a.remainder) || a.i - b.i);
  for (let k = 0; leftover.gt(0); k = (k + 1) % order.length) {
    const idx = order[k]!.i;
    shares[idx] = shares[idx]!.plus(unit);
    leftover = leftover.minus(unit);
  }
  return shares.map((s) => s.times(direction));
}
