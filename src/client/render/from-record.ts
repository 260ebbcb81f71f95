import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/routers/_app';
import { legalMentionTexts } from '../../shared/legal-mentions';
import type { AppSettings } from '../../shared/schemas/settings';
import { customerOf, organizationOf, sellerOf, type CustomerSource, type SellerSource } from './build-parts';
import type { RenderDocument } from './types';

export type DocumentRecord = inferRouterOutputs<AppRouter>['documents']['get'];

/**
 * A saved document as the documents API answers it. An issued document shows what it was issued with (seller and
 * customer snapshots, the mentions fixed at issue); a draft shows today's organisation profile and the mentions
 * it would get, so its preview is what the customer will receive.
 */
export function renderDocumentOfRecord(
  record: DocumentRecord,
  context: { profile?: SellerSource | null; settings?: AppSettings | null } = {},
): RenderDocument {
  const sellerSource = (record.organization as SellerSource | null) ?? context.profile ?? null;
  const customerSource = record.customer as CustomerSource | null;
  const customer = customerOf(customerSource);
  let legal_mentions = record.legal_mentions;
  if (legal_mentions.length === 0 && !record.number && sellerSource && context.settings) {
    legal_mentions = legalMentionTexts({
      type: record.type,
      organization: organizationOf(sellerSource),
      settings: context.settings,
      customer,
      date: record.date,
      maturity: record.maturity,
      items: record.items,
      corrects_number: record.corrects?.number ?? null,
      vat_exemption: record.vat_exemption,
    });
  }
  return {
    type: record.type,
    kind: record.kind,
    number: record.number,
    date: record.date,
    maturity: record.maturity ?? null,
    sale_date: record.sale_date ?? null,
    currency: record.currency,
    condition: record.condition,
    header: record.header,
    footer: record.footer,
    terms: record.terms,
    note: record.note,
    shipping_details: record.shipping_details,
    additional_info: record.additional_info,
    deposit_request: record.deposit_request,
    seller: sellerOf(sellerSource),
    customer,
    lines: record.items.map((item, i) => ({
      position: i + 1,
      code: item.code ?? '',
      sku: item.sku ?? '',
      item: item.item,
      description: item.description,
      quantity: item.quantity,
      unit: item.unit,
      price: item.price,
      discount_type: item.discount_type,
      discount_value: item.discount_value,
      discount: item.discount,
      taxes: item.taxes,
      total: item.gross_total,
    })),
    totals: {
      subtotal: record.subtotal,
      discount: record.discount,
      discount_type: record.discount_type,
      discount_value: record.discount_value ?? 0,
      taxes: record.taxes,
      tax: record.tax,
      shipping: record.shipping,
      total: record.total,
      deposit_invoices: record.deposit_invoices.map((d) => ({ number: d.number, date: d.date, total: d.total })),
      credited: record.credited,
      paid: record.paid,
      amount_due: record.amount_due,
    },
    legal_mentions,
  };
}
