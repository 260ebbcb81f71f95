import BigConstructor, { type Big as BigValue } from 'big.js';
import { allocateUnits, decimalTextToUnits, INPUT_SCALE, pow10, rescale, unitsToNumber } from './money-units';

/**
 * The money engine's one public module. Two exact representations, no float arithmetic on an amount anywhere:
 * - `Money` (big.js decimals) for business code; JS numbers only at the edges (JSON in and out);
 * - BigInt units of 10^-scale (money-units.ts, re-exported here) for the hot loops of the totals and for the
 *   database, which stores every amount as an integer count of 10^-4 (`toStoredUnits` / `fromStoredUnits`).
 * A private Big constructor keeps our settings from leaking into other users of big.js.
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
 * in integer units of the currency: see allocateUnits).
 */
export function allocate(total: MoneyInput, weights: MoneyInput[], precision: number): Money[] {
  const scale = Math.max(precision, ...weights.map((w) => decimalPlaces(money(w))));
  const units = (v: Money, p: number) => decimalTextToUnits(v.toFixed(), p);
  const shares = allocateUnits(
    units(round(total, precision), precision),
    weights.map((w) => units(money(w), scale)),
  );
  const unit = new Big(10).pow(-precision);
  return shares.map((x) => new Big(x.toString()).times(unit));
}

/** Decimal places of a Big value, read off its digits. */
export const decimalPlaces = (v: Money): number => Math.max(0, v.c.length - v.e - 1);

/** Exact decimal text, no exponent: `decimals` fixed digits (rounded half away from zero) or every digit it has. */
export const toDecimalString = (value: MoneyInput, decimals?: number): string =>
  decimals === undefined ? money(value).toFixed() : money(value).toFixed(decimals, Big.roundHalfUp);

/** A typed value as units of 10^-4, rounded half away from zero past the 4th decimal. */
export function toUnits4(value: MoneyInput | null | undefined): bigint {
  if (value === null || value === undefined || value === '') return 0n;
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e15) {
    if (Number.isInteger(value)) return BigInt(value) * pow10(INPUT_SCALE);
    // Shortest round-trip decimal of the double, then exact decimal rounding: 1.005 stays 1.005.
    const text = String(value);
    return decimalTextToUnits(/e/i.test(text) ? money(value).toFixed() : text, INPUT_SCALE); // 1e-7 prints in exponent form
  }
  return decimalTextToUnits(money(value).toFixed(), INPUT_SCALE);
}

/** An amount (JSON number, typed text or Money) to the integer the database stores: units of 10^-4. */
export const toStoredUnits = (value: MoneyInput | null | undefined): number => Number(toUnits4(value));

/** A stored integer of 10^-4 units back to the JSON number it stands for (null reads as 0). */
export const fromStoredUnits = (stored: number | bigint | null | undefined): number => unitsToNumber(BigInt(stored ?? 0), INPUT_SCALE);

/**
 * An amount as a count of its currency's smallest unit (cents for EUR, yen for JPY: `decimals` from the currency
 * catalogue), as card processors take it. Exact or nothing: an amount finer than the currency's unit answers null
 * (the caller says so) rather than being rounded where nobody sees it.
 */
export function toMinorUnits(value: MoneyInput, decimals: number): bigint | null {
  const units = toUnits4(value);
  const step = pow10(Math.max(0, INPUT_SCALE - decimals));
  return units % step === 0n ? units / step : null;
}

/** A count of the currency's smallest unit (as a card processor answers it) to the integer the database stores. */
export const minorToStoredUnits = (minor: number | bigint, decimals: number): number =>
  Number(rescale(BigInt(minor), decimals, INPUT_SCALE));

/**
 * A number typed the French way ('1 234,5', '-3', '12.50') to a JSON number; undefined when empty, NaN when it is
 * not a number (the schema then says so). The text is checked, then read once: no arithmetic on the double.
 */
export function parseAmount(text: string): number | undefined {
  const cleaned = text.replace(/[\s\u00a0\u202f]/g, '').replace(/,/g, '.');
  if (cleaned === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

/**
 * Whether a JSON number has at most `decimals` decimals. Float noise past the 6th decimal of the last unit is
 * tolerated (a JavaScript client's 0.1 + 0.2 is 0.3), as the schemas always did; the check itself is decimal.
 */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  if (!Number.isFinite(value)) return false;
  const scaled = money(value)
    .times(new Big(pow10(decimals).toString()))
    .round(6, Big.roundHalfUp);
  return scaled.eq(scaled.round(0, Big.roundHalfUp));
}

export {
  absUnits,
  allocateUnits,
  INPUT_SCALE,
  pow10,
  rescale,
  roundDiv,
  unitsToDecimalText,
  unitsToNumber,
} from './money-units';
