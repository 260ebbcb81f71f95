import {
  formatAddress,
  formatDateLong,
  formatDateShort,
  formatDecimal,
  formatMoney,
  formatUnitPrice,
  type AddressParts,
} from '../../shared/format';
import { formatTaxRate } from '../../shared/totals';
import { money } from '../../shared/money';
import type { AppSettings } from '../../shared/schemas/settings';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import type { RenderDocument } from './types';

/** What a draft shows where its number will be: the number is taken at issue (CGI art. 242 nonies A, no gaps). */
export const DRAFT_NUMBER = 'Brouillon (numéroté à l’émission)';

/** The document_name element: the type's French name; a deposit invoice says so (CGI art. 289). */
export const documentTitle = (doc: Pick<RenderDocument, 'type' | 'kind'>): string =>
  doc.kind === 'deposit' ? 'Facture d’acompte' : DOCUMENT_TYPE_TABLE[doc.type].title;

export const documentNumber = (doc: Pick<RenderDocument, 'number'>): string => doc.number ?? DRAFT_NUMBER;

/** Money, dates, quantities and addresses as the organisation's settings say. */
export interface Formatters {
  money(amount: number): string;
  /** An amount in another currency than the document's (its VAT in the accounting currency). */
  moneyIn(amount: number, currency: string): string;
  /** A unit price, with its real decimals up to 4 (never rounded to the currency's two). */
  unitPrice(amount: number): string;
  date(iso: string | null | undefined): string;
  shortDate(iso: string | null | undefined): string;
  quantity(value: number): string;
  rate(rate: number): string;
  address(address: AddressParts | null | undefined): string[];
}

export function formattersOf(settings: AppSettings, currency: string): Formatters {
  const decimal = settings.currency_format.decimal || ',';
  return {
    money: (amount) => formatMoney(amount, settings.currency_format, currency),
    moneyIn: (amount, other) => formatMoney(amount, settings.currency_format, other),
    unitPrice: (amount) => formatUnitPrice(amount, settings.currency_format, currency),
    date: (iso) => (iso ? formatDateLong(iso) : ''),
    shortDate: (iso) => (iso ? formatDateShort(iso) : ''),
    // Up to 4 decimals, without trailing zeros: 2 → '2', 1.5 → '1,5'.
    quantity: (value) => formatDecimal(money(value).round(4), 4, decimal).replace(new RegExp(`\\${decimal}?0+$`), ''),
    rate: (rate) => formatTaxRate(rate, decimal),
    // A French business writes no 'France' under a French address; a foreign one keeps its country.
    address: (address) =>
      formatAddress(
        settings.address_format,
        address && /^\s*(france|fr)\s*$/i.test(address.country ?? '') ? { ...address, country: '' } : address,
      ),
  };
}
