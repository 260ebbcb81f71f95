import { CURRENCY_CATALOGUE } from './currency-catalogue';
import type { Currency } from './schemas/currency';

export { CURRENCY_CATALOGUE };

const byCode = new Map(CURRENCY_CATALOGUE.map((c) => [c.code, c]));

export const findCurrency = (code: string): Currency | undefined => byCode.get(code.toUpperCase());

/** The number of decimals amounts in this currency are rounded to (2 when the code is unknown). */
export const currencyPrecision = (code: string): number => findCurrency(code)?.decimal_digits ?? 2;
