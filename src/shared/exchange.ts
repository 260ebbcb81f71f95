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

/** A VAT group converted to the accounting currency: its base and its VAT, each rounded to that currency's cents. */
export interface ConvertedVat {
  rate: number;
  base: Money;
  amount: Money;
}

/**
 * The VAT of a document in a foreign currency, in the accounting currency (directive 2006/112/CE art. 230): each rate's
 * base and VAT converted at the one rate kept at issue and rounded on its own, the total being the sum of the rounded
 * amounts — the figures the PDF prints, the e-invoice declares (BT-111) and the FEC books per rate.
 */
export function vatInBase(
  taxes: ReadonlyArray<{ rate: number; taxable_amount: number; amount: number }>,
  from: RatedCurrency,
  base: string,
): { taxes: ConvertedVat[]; total: Money } {
  const to = { code: base, rate: '1' };
  const byRate = new Map<number, { base: Money; amount: Money }>();
  for (const t of taxes) {
    if (t.rate <= 0) continue;
    const e = byRate.get(t.rate) ?? { base: money(0), amount: money(0) };
    byRate.set(t.rate, { base: e.base.plus(money(t.taxable_amount)), amount: e.amount.plus(money(t.amount)) });
  }
  const converted = [...byRate.entries()]
    .sort(([a], [b]) => a - b)
    .map(([rate, e]) => ({ rate, base: convertAmount(e.base, from, to), amount: convertAmount(e.amount, from, to) }));
  return { taxes: converted, total: converted.reduce((s, t) => s.plus(t.amount), money(0)) };
}

/** Where the rate a document is converted at comes from. */
export type DocumentRateSource = 'base' | 'own' | 'settings' | 'none';

/**
 * The rate a document is converted at: 1 in the accounting currency; else its own (typed on the draft, kept at issue,
 * a credit note's invoice's) when it has one, else the rate of Paramètres → Devises, as issue takes it. A typed text
 * that is no rate gives no rate and says why, so that nothing is shown converted at a rate the save would refuse.
 */
export function documentRate(params: { currency: string; base: string; own: unknown; settings?: string | null }): {
  rate: string | null;
  source: DocumentRateSource;
  error?: string;
} {
  if (params.currency === params.base) return { rate: '1', source: 'base' };
  const own = params.own;
  if (own !== null && own !== undefined && !(typeof own === 'string' && own.trim() === '')) {
    const parsed = parseRate(own);
    return 'rate' in parsed ? { rate: parsed.rate, source: 'own' } : { rate: null, source: 'own', error: parsed.error };
  }
  return params.settings ? { rate: params.settings, source: 'settings' } : { rate: null, source: 'none' };
}

/** Two rates as exact decimals ('1.0850' and '1,085' are the same rate). */
export const sameRate = (a: MoneyInput, b: MoneyInput): boolean => money(a).eq(money(b));
