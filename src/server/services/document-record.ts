import { computeTotals, type DocumentTotals } from '../../shared/totals';
import { currencyPrecision } from '../../shared/currencies';
import type { DocumentForm } from '../../shared/schemas/document';
import { shippingTaxInput } from '../../shared/vat';
import { nowIso } from '../clock';
import { parisToday } from '../../shared/paris-date';

/** Today in Paris: business dates are French (shared/paris-date.ts). */
export const todayIso = parisToday;

/**
 * Every total of a document, from its lines, with the shared core: a total sent by a client is never used. `vat` is
 * false under the franchise en base: shipping then carries no VAT.
 */
export function totalsOf(
  form: Pick<
    DocumentForm,
    'items' | 'discount_type' | 'discount_value' | 'shipping' | 'shipping_tax' | 'shipping_tax_auto' | 'price_mode' | 'currency'
  >,
  deposits: number[],
  paid: number,
  vat = true,
): DocumentTotals {
  return computeTotals({
    items: form.items,
    discount_type: form.discount_type,
    discount_value: form.discount_value,
    shipping: form.shipping,
    shipping_tax: shippingTaxInput(form, vat),
    price_mode: form.price_mode,
    deposits,
    paid,
    precision: currencyPrecision(form.currency),
  });
}

/** Now, or just after `previous` when the clock has not moved past it: a document's `updated_at` is its version. */
export function laterThan(previous: string): string {
  const now = nowIso();
  const after = Date.parse(previous) + 1;
  return now > previous || Number.isNaN(after) ? now : new Date(after).toISOString();
}
