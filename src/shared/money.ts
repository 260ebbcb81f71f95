import BigConstructor, { type Big as BigValue } from 'big.js';
import { allocateUnits } from './fixed';

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
const HUNDREDTH = new Big('0.01');
/** value × rate %: a multiplication by 0.01, exact and much cheaper than a division by 100. */
export const percentOf = (value: MoneyInput, rate: MoneyInput): Money => money(value).times(money(rate)).times(HUNDREDTH);

export const abs = (value: MoneyInput): Money => money(value).abs();
export const neg = (value: MoneyInput): Money => money(value).times(-1);
export const min = (a: MoneyInput, b: MoneyInput): Money => (money(a).lt(money(b)) ? money(a) : money(b));
export const max = (a: MoneyInput, b: MoneyInput): Money => (money(a).gt(money(b)) ? money(a) : money(b));
// Read off big.js's own fields (digits `c`, sign `s`): comparing to a literal would build a new Big every time.
export const isZero = (value: MoneyInput): boolean => money(value).c[0] === 0;
export const isNegative = (value: MoneyInput): boolean => {
  const v = money(value);
  return v.s < 0 && v.c[0] !== 0;
};
export const sign = (value: MoneyInput): -1 | 0 | 1 => (isZero(value) ? 0 : isNegative(value) ? -1 : 1);

/** To a JSON number at the edge, after rounding; exact for every amount a currency can hold. */
export const toNumber = (value: MoneyInput, precision?: number): number =>
  Number((precision === undefined ? money(value) : round(value, precision)).toString());

/**
 * Splits `total` (rounded to `precision`) across `weights` so the shares add up to it exactly (largest remainder,
 * in integer units of the currency: see fixed.ts).
 */
export function allocate(total: MoneyInput, weights: MoneyInput[], precision: number): Money[] {
  const scale = Math.max(precision, ...weights.map((w) => decimalPlaces(money(w))));
  const units = (v: Money, p: number) => BigInt(v.times(new Big(10).pow(p)).round(0, Big.roundHalfUp).toFixed(0));
  const shares = allocateUnits(
    units(round(total, precision), precision),
    weights.map((w) => units(money(w), scale)),
  );
  const unit = new Big(10).pow(-precision);
  return shares.map((x) => new Big(x.toString()).times(unit));
}

/** Decimal places of a Big value, read off its digits. */
export const decimalPlaces = (v: Money): number => Math.max(0, v.c.length - v.e - 1);
