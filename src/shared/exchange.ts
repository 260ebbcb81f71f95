import { money, pow10, roundDiv, toDecimalString, type Money, type MoneyInput } from './money';
import { currencyPrecision } from './currencies';

/** Exchange rates are typed by hand from a bank or ECB quote: 6 decimals are more than any quote gives. */
export const RATE_DECIMALS = 6;
export const RATE_MAX = 1_000_000_000;

/** An enabled currency as far as conversion goes: its code and how many of its units make 1 unit of the base. */
export interface RatedCurrency {
  code: string;
  rate: MoneyInput;
}

/**
 * A rate as typed ('1,085', ' 1.0850 ', 1.085) to its exact decimal string ('1.085'), or the French message
 * saying what is wrong. Numbers are read through their shortest decimal text, so 1.085 stays 1.085.
 */
export function parseRate(value: unknown): { rate: string } | { error: string } {
  const notNumber = { error: 'Le taux de change doit être un nombre (ex. 1,085)' };
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return notNumber;
    text = toDecimalString(value);
  } else if (typeof value === 'string') {
    text = value.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  } else return notNumber;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) return notNumber;
  const rate = money(text);
  if (rate.lte(0)) return { error: 'Le taux de change doit être supérieur à 0' };
  if (rate.gt(RATE_MAX)) return { error: 'Le taux de change ne peut dépasser 1 000 000 000' };
  const normalized = toDecimalString(rate); // big.js drops trailing zeros: '1.0850' → '1.085'
  if ((normalized.split('.')[1] ?? '').length > RATE_DECIMALS) return { error: `Taux de change : ${RATE_DECIMALS} décimales au plus` };
  return { rate: normalized };
}

/** Exact integer units of a decimal at `scale` decimals (scale ≥ its own decimals). */
function toUnits(value: Money, scale: number): bigint {
  return BigInt(toDecimalString(value.times(money(pow10(scale).toString())), 0));
}

/**
 * Converts an amount from one enabled currency to another through the base (amount × to.rate / from.rate), rounded
 * half away from zero to the target currency's decimal_digits. The quotient is rounded once, on the exact
 * rational, so no intermediate rounding can tip a half the wrong way.
 */
export function convertAmount(amount: MoneyInput, from: RatedCurrency, to: RatedCurrency): Money {
  const numerator = money(amount).times(money(to.rate));
  const denominator = money(from.rate);
  if (denominator.lte(0)) throw new RangeError(`Taux de change invalide : ${from.code}`);
  const precision = currencyPrecision(to.code);
  const decimals = (v: Money) => Math.max(0, v.c.length - v.e - 1);
  const scale = Math.max(decimals(numerator), decimals(denominator));
  const units = roundDiv(toUnits(numerator, scale) * pow10(precision), toUnits(denominator, scale));
  return money(units.toString()).div(money(pow10(precision).toString()));
}

/** '1.085' → '1,0850': at least 4 decimals, as banks quote, and every stored decimal beyond. */
export function formatRate(rate: MoneyInput): string {
  const text = toDecimalString(rate);
  const decimals = Math.max(4, (text.split('.')[1] ?? '').length);
  return toDecimalString(rate, decimals).replace('.', ',');
}

/** '1 EUR = 1,0850 USD'. */
export const formatExchangeRate = (base: string, code: string, rate: MoneyInput): string => `1 ${base} = ${formatRate(rate)} ${code}`;
