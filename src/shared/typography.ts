/**
 * French typography in one place, for the screens, the document pages (and so the PDFs) and the e-mails: the signs,
 * the spaces that never break, percentages and thousands as the organisation's currency format writes them, and the
 * typographic apostrophe. Pure text in, text out.
 */
import { decimalPlaces, round, toDecimalString, type MoneyInput } from './money';
import { MINUS, NARROW_NBSP } from './typography-text';

// The text rules (spaces, signs, apostrophes) live apart from the numbers: a screen that only spaces its messages
// (every field and notice, the login page's among them) does not download the decimal arithmetic.
export * from './typography-text';

/** The separators of a number, as the organisation's currency format gives them (defaults: « , » and none). */
export interface NumberSeparators {
  decimal?: string;
  thousand?: string;
}

/** '1234567' → '1 234 567' with the given separator (by default the narrow no-break space); '' groups nothing. */
export function groupThousands(digits: string, separator: string = NARROW_NBSP): string {
  return separator ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator) : digits;
}

/** A negative number's sign: the typographic minus before what follows. */
export const signed = (negative: boolean, body: string): string => (negative ? `${MINUS}${body}` : body);

/**
 * A number with a fixed count of decimals and the organisation's separators: formatNumber(1234.5, 2) = '1234,50',
 * with thousand ' ' = '1 234,50' (narrow no-break). Negative numbers take the minus sign.
 */
export function formatNumber(value: MoneyInput, decimals: number, separators: NumberSeparators = {}): string {
  const text = toDecimalString(value, decimals);
  const negative = text.startsWith('-') && /[1-9]/.test(text);
  const [intPart = '0', decPart] = text.replace(/^-/, '').split('.');
  const grouped = groupThousands(intPart, separators.thousand ?? '');
  return signed(negative, decPart ? `${grouped}${separators.decimal || ','}${decPart}` : grouped);
}

/** A number with the decimals it has, at most `max`: formatNumberUpTo(5.5) = '5,5', formatNumberUpTo(20) = '20'. */
export function formatNumberUpTo(value: MoneyInput, max = 2, separators: NumberSeparators = {}): string {
  const rounded = round(value, max);
  return formatNumber(rounded, decimalPlaces(rounded), separators);
}

/** A count of things, its thousands apart: formatCount(12345) = '12 345' (narrow no-break space). */
export const formatCount = (value: MoneyInput): string => formatNumber(value, 0, { thousand: NARROW_NBSP });

/** A percentage already written as text: '10,00' → '10,00 %' (narrow no-break space, never split from its number). */
export const percentText = (value: string): string => `${value}${NARROW_NBSP}%`;

/** A percentage: formatPercent(10) = '10,00 %'; `decimals` 0 when whole numbers read better (« 45 % du facturé »). */
export const formatPercent = (value: MoneyInput, decimals = 2, separators: NumberSeparators = {}): string =>
  percentText(formatNumber(value, decimals, separators));

/** A rate with the decimals it has (a VAT rate, a share): formatRate(5.5) = '5,5 %', formatRate(20) = '20 %'. */
export const formatRate = (value: MoneyInput, max = 2, separators: NumberSeparators = {}): string =>
  percentText(formatNumberUpTo(value, max, separators));
