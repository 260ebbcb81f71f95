import { computeTotals } from '../../shared/totals';
import { currencyPrecision } from '../../shared/currencies';
import { legalMentionTexts } from '../../shared/legal-mentions';
import type { AppSettings } from '../../shared/schemas/settings';
import { parseAmount, totalsInputOf, type FormState } from '../routes/documents/editor/form-state';
import { customerOf, organizationOf, sellerOf, type CustomerSource, type SellerSource } from './build-parts';
import type { RenderDocument } from './types';

/** A typed amount ('12,5'), or 0 while it is empty or not a number yet. */
const amount = (text: string) => {
  const n = parseAmount(text);
  return n === undefined || Number.isNaN(n) ? 0 : n;
};

/**
 * The editor's unsaved form ({base}/new/view): totals computed live with the shared core, the organisation
 * profile as seller, the chosen customer, and the mentions the document will carry once issued.
 */
export function renderDocumentOfForm(
  form: FormState,
  context: { profile?: SellerSource | null; customer?: CustomerSource | null; settings?: AppSettings | null },
): RenderDocument {
  const totals = computeTotals({ ...totalsInputOf(form), precision: currencyPrecision(form.currency) });
  const customer = customerOf(context.customer);
  const items = form.items.map((line) => ({ item: line.item, kind: line.kind }));
  const legal_mentions =
    context.profile && context.settings
      ? legalMentionTexts({
          type: form.type,
          organization: organizationOf(context.profile),
          settings: context.settings,
          customer,
          date: form.date,
          maturity: form.maturity || null,
          items,
          vat_exemption: form.vat_exemption,
        })
      : [];
  return {
    type: form.type,
    kind: 'standard',
    number: null,
    date: form.date,
    maturity: form.maturity || null,
    sale_date: form.sale_date && form.sale_date !== form.date ? form.sale_date : null,
    currency: form.currency,
    condition: form.condition,
    header: form.header,
    footer: form.footer,
    terms: form.terms,
    note: form.note,
    shipping_details: form.shipping_details,
    additional_info: form.additional_info.filter((kv) => kv.key.trim() || kv.value.trim()),
    deposit_request: form.deposit_request
      .filter((d) => d.description.trim() || d.amount.trim())
      .map((d) => ({ description: d.description, amount: amount(d.amount) })),
    seller: sellerOf(context.profile),
    customer,
    lines: form.items.map((line, i) => ({
      position: i + 1,
      code: line.code,
      sku: line.sku,
      item: line.item,
      description: line.description,
      quantity: amount(line.quantity),
      unit: line.unit,
      price: totals.lines[i]?.price ?? 0,
      discount_type: line.discount_type,
      discount_value: amount(line.discount_value),
      discount: totals.lines[i]?.discount ?? 0,
      taxes: line.taxes.map((t) => ({ title: t.title, rate: t.rate })),
      total: totals.lines[i]?.gross_total ?? 0,
    })),
    totals: {
      subtotal: totals.subtotal,
      discount: totals.discount,
      discount_type: form.discount_type,
      discount_value: amount(form.discount_value),
      taxes: totals.taxes,
      tax: totals.tax,
      shipping: totals.shipping,
      total: totals.total,
      deposit_invoices: [],
      credited: 0,
      paid: 0,
      amount_due: totals.amount_due,
    },
    legal_mentions,
  };
}
