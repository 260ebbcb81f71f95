import { computeTotals } from '../../shared/totals';
import { currencyPrecision } from '../../shared/currencies';
import { sub, sum, toNumber } from '../../shared/money';
import { legalMentionTexts } from '../../shared/legal-mentions';
import { invoiceReference } from '../../shared/creditor-reference';
import { followsMainRate, offersVat } from '../../shared/vat';
import type { AppSettings } from '../../shared/schemas/settings';
import { addressSchema } from '../../shared/schemas/customer';
import type { DocumentAnswer, SharedDocumentView } from '../../shared/schemas/document-model';
import { totalsInputOf, typedNumber as amountOf, type DocumentDraft } from '../routes/documents/editor/form-state';
import { customerOf, organizationOf, sellerOf, type CustomerSource, type SellerSource } from './build-parts';
import type { RenderDocument } from './types';

/**
 * What the renderer draws, from any of the three shapes a document reaches it in (STYLE.md "One path for a
 * document"): the answered document (documents.get), the issued document of the public page and the PDF
 * (share.get), or the editor's unsaved form for its live preview.
 */
export type RenderSource = { document: DocumentAnswer | SharedDocumentView } | { form: DocumentDraft };

export interface RenderContext {
  /** Today's organisation profile: the seller of a draft (an issued document shows its own snapshot). */
  profile?: SellerSource | null;
  settings?: AppSettings | null;
  /** The customer the unsaved form names. */
  customer?: CustomerSource | null;
  /** The public page's QR code to pay by transfer (share.get). */
  transferQr?: string | null;
}

/** A document as stored or issued, or the form seen the same way: the one shape the render model is built from. */
type Viewed = Omit<SharedDocumentView, 'customer' | 'organization' | 'items'> & {
  /** The typed unit price is not drawn (the table shows the computed `price`): the form's lines go without it. */
  items: Omit<SharedDocumentView['items'][number], 'unit_price'>[];
  customer: CustomerSource | null;
  organization: SellerSource | null;
  corrects?: { number: string | null } | null;
};

/**
 * The render model, built here only. Amounts are read as stored — an issued document shows what it was issued
 * with, never recomputed, and nothing received after issue (payments, credit notes) enters it; the unsaved form is the one source computed here, with the shared core. A document not
 * issued yet shows today's profile and the mentions it would get, so its preview is what the customer will receive.
 */
export function toRenderDocument(source: RenderSource, context: RenderContext = {}): RenderDocument {
  const doc = 'form' in source ? viewOfForm(source.form, context.customer ?? null, offersVat(context.profile)) : source.document;
  const sellerSource = doc.organization ?? context.profile ?? null;
  const customer = customerOf(doc.customer);
  let legal_mentions = doc.legal_mentions;
  if (legal_mentions.length === 0 && !doc.number && sellerSource && context.settings) {
    legal_mentions = legalMentionTexts({
      type: doc.type,
      organization: organizationOf(sellerSource),
      settings: context.settings,
      customer,
      date: doc.date,
      maturity: doc.maturity,
      items: doc.items,
      corrects_number: ('corrects' in doc && doc.corrects?.number) || null,
      vat_exemption: doc.vat_exemption,
      // A deposit invoice's nature is its origin's, which the server answers (its own lines only say "Acompte").
      nature: 'document' in source && 'operation_nature' in source.document ? source.document.operation_nature : undefined,
    });
  }
  const reference = invoiceReference(doc);
  return {
    type: doc.type,
    kind: doc.kind,
    number: doc.number,
    date: doc.date,
    maturity: doc.maturity ?? null,
    sale_date: doc.sale_date ?? null,
    currency: doc.currency,
    condition: doc.condition,
    header: doc.header,
    footer: doc.footer,
    terms: doc.terms,
    note: doc.note,
    shipping_details: doc.shipping_details,
    purchase_order: doc.purchase_order,
    additional_info: doc.additional_info,
    deposit_request: doc.deposit_request,
    seller: sellerOf(sellerSource),
    customer,
    lines: doc.items.map((item, i) => ({
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
      subtotal: doc.subtotal,
      discount: doc.discount,
      discount_type: doc.discount_type,
      discount_value: doc.discount_value ?? 0,
      taxes: doc.taxes,
      tax: doc.tax,
      shipping: doc.shipping,
      total: doc.total,
      deposit_invoices: doc.deposit_invoices.map((d) => ({ number: d.number, date: d.date, total: d.total })),
      // CGI art. 242 nonies A: a document is what was issued. Payments and credit notes received after issue are
      // shown beside it (balance card), never inside it; only the deposits deducted at issue lower its net.
      credited: 0,
      paid: 0,
      amount_due: toNumber(sub(doc.total, sum(doc.deposit_invoices.map((d) => d.total)))),
    },
    legal_mentions,
    // Under the franchise nothing speaks of VAT; an amount of VAT that is there (a draft saved before) is never hidden.
    vat: offersVat(sellerSource) || doc.tax !== 0,
    transfer: reference ? { reference, qr: context.transferQr ?? null } : null,
  };
}

/** The unsaved form seen as a document: its totals computed live with the shared core, as the server will on save. */
function viewOfForm(form: DocumentDraft, customer: CustomerSource | null, vat: boolean): Viewed {
  const { lines, shipping_tax, ...totals } = computeTotals({
    ...totalsInputOf(form, vat),
    precision: currencyPrecision(form.currency ?? 'EUR'),
  });
  const date = form.date;
  const maturity = form.maturity || null;
  return {
    type: form.type ?? 'invoice',
    kind: 'standard',
    number: null,
    date,
    maturity,
    sale_date: form.sale_date && form.sale_date !== date ? form.sale_date : null,
    currency: form.currency ?? 'EUR',
    price_mode: form.price_mode ?? 'ht',
    condition: form.condition ?? '',
    header: form.header ?? '',
    footer: form.footer ?? '',
    terms: form.terms ?? '',
    note: form.note ?? '',
    discount_type: form.discount_type ?? null,
    discount_value: amountOf(form.discount_value),
    shipping_tax,
    shipping_tax_auto: followsMainRate(form),
    shipping_details: form.shipping_details ?? '',
    purchase_order: (form.purchase_order ?? '').trim(),
    delivery_address: form.delivery_address ? addressSchema.parse(form.delivery_address) : null,
    vat_exemption: form.vat_exemption ?? '',
    additional_info: (form.additional_info ?? []).filter((kv) => kv.key.trim() || kv.value.trim()),
    deposit_request: (form.deposit_request ?? [])
      .filter((d) => (d.description ?? '').trim() || String(d.amount).trim())
      .map((d) => ({ description: d.description ?? '', amount: amountOf(d.amount) })),
    organization: null,
    // As the server shows it: the document's own delivery address stands in the customer's shipping address's place.
    customer: customer && { ...customer, shipping: form.delivery_address ?? null },
    items: (form.items ?? []).map((line, i) => ({
      code: line.code ?? '',
      sku: line.sku ?? '',
      item: line.item ?? '',
      description: line.description ?? '',
      quantity: amountOf(line.quantity),
      unit: line.unit ?? 'u',
      discount_type: line.discount_type ?? 'percent',
      discount_value: amountOf(line.discount_value),
      taxes: (line.taxes ?? []).map((t) => ({ title: t.title, rate: amountOf(t.rate) })),
      kind: line.kind ?? 'service',
      ...(lines[i] ?? { price: 0, net_price: 0, subtotal: 0, discount: 0, gross_total: 0, tax: 0, total: 0 }),
    })),
    ...totals,
    deposit_invoices: [],
    credited: 0,
    legal_mentions: [],
  };
}
