import type { CurrencyFormat } from './schemas/settings';
import { decimalPlaces, isMoneyLike, money, round, toDecimalString, type MoneyInput } from './money';
import { groupThousands, MINUS, NARROW_NBSP, NBSP, signed } from './typography';
import { findCurrency } from './currencies';
import { frenchDateFormat } from './french-date-format';

/**
 * An organisation's currency format until it sets its own (EUR, after the amount with a space, ',' decimal, no
 * thousands separator, 2 places): the settings schema's defaults, readable by the screens without the schemas.
 */
// Typed by its values, not as CurrencyFormat: that type is inferred from the schema, whose defaults are these.
export const DEFAULT_CURRENCY_FORMAT = Object.freeze({
  currency: 'EUR',
  currency_position: 'after' as 'before' | 'after',
  use_space: true,
  decimal: ',',
  thousand: '',
  precision: 2,
});

export { MINUS } from './typography';

/**
 * Money as the organisation's currency_format says: position, space, separators, precision, and the
 * currency's native symbol. Default: '1234,50 €'.
 */
export function formatMoney(amount: MoneyInput, format: CurrencyFormat, currencyCode?: string): string {
  const code = currencyCode ?? format.currency;
  const symbol = findCurrency(code)?.symbol_native ?? code;
  const value = round(amount, format.precision);
  const negative = value.lt(0);
  const [intPart = '0', decPart] = toDecimalString(value.abs(), format.precision).split('.');
  const grouped = groupThousands(intPart, format.thousand);
  const number = decPart ? `${grouped}${format.decimal}${decPart}` : grouped;
  const space = format.use_space ? NBSP : '';
  const body = format.currency_position === 'before' ? `${symbol}${space}${number}` : `${number}${space}${symbol}`;
  // The typographic minus, as the totals print their deductions: one sign for every negative amount.
  return signed(negative, body);
}

const compactFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount shortened for a chart's axis or bar ('2,3 k€' as French writes it: « 2,3 k€ » with its no-break spaces),
 * its sign the typographic minus like every other amount.
 */
export function formatCompactMoney(amount: number, currency: string): string {
  let format = compactFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('fr-FR', {
      notation: 'compact',
      style: 'currency',
      currency,
      minimumFractionDigits: 0,
      maximumFractionDigits: 1,
    });
    compactFormats.set(currency, format);
  }
  return format.format(amount).replace('-', MINUS);
}

/**
 * A unit price with its real decimals (CGI art. 242 nonies A: the unit price as agreed): at least the currency
 * format's precision, up to 4 when the price has them — 12,3456 € stays 12,3456 €, 12,5 € prints 12,50 €.
 */
export function formatUnitPrice(amount: MoneyInput, format: CurrencyFormat, currencyCode?: string): string {
  const decimals = Math.min(4, Math.max(format.precision, decimalPlaces(round(amount, 4))));
  return formatMoney(amount, { ...format, precision: decimals }, currencyCode);
}

/** A plain decimal with the organisation's separators (quantities, rates). */
export function formatDecimal(value: MoneyInput, decimals: number, decimalSeparator = ','): string {
  return toDecimalString(value, decimals).replace('.', decimalSeparator);
}

const longDate = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric' });

function parseIsoDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]) ? date : null;
}

/** '2026-11-22' → '22 novembre 2026'; an invalid date gives ''. Business dates carry no time zone. */
export const formatDateLong = (value: string): string => {
  const date = parseIsoDate(value);
  return date ? longDate.format(date) : '';
};

/** '2026-11-22' → '22/11/2026': French numeric order, written without Intl (what fr-FR's 2-digit day and month give). */
export const formatDateShort = (value: string): string => {
  const date = parseIsoDate(value);
  if (!date) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())}/${two(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
};

export interface AddressParts {
  line1?: string | null;
  line2?: string | null;
  postal_code?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
}

/** Fills the address template ({line1} {line2} {postal_code} {city} {state} {country}), dropping empty lines. */
export function formatAddress(template: string, address: AddressParts | null | undefined): string[] {
  if (!address) return [];
  return template
    .split('\n')
    .map((line) =>
      line
        .replace(/\{(line1|line2|postal_code|city|state|country)\}/g, (_, key: keyof AddressParts) => (address[key] ?? '').trim())
        .replace(/\s{2,}/g, ' ')
        .trim(),
    )
    .filter((line) => line !== '');
}

/** 'cette facture' → 'Cette facture', at the start of a message. */
export const capitalize = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * A typed amount tidied when its field loses focus, the French way: '1200.5' → '1 200,50' (narrow no-break space
 * between thousands, at least `minDecimals`, never fewer decimals than typed). What does not read as an amount stays
 * as typed, so the field's own error can name it.
 */
export function formatAmountInput(text: string, minDecimals = 2): string {
  if (text.trim() === '' || !isMoneyLike(text)) return text;
  const value = money(text);
  const decimals = Math.max(minDecimals, decimalPlaces(value));
  const [intPart = '0', decPart] = toDecimalString(value.abs(), decimals).split('.');
  const grouped = groupThousands(intPart, NARROW_NBSP);
  return `${value.lt(0) ? '-' : ''}${grouped}${decPart ? `,${decPart}` : ''}`;
}
