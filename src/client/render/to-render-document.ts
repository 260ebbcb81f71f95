import { sub, sum, toNumber } from '../../shared/money';
import { legalMentionTexts } from '../../shared/legal-mentions';
import { invoiceReference } from '../../shared/creditor-reference';
import { documentRate, vatInBase } from '../../shared/exchange';
import { offersVat } from '../../shared/vat';
import { typingSave } from '../../shared/document-save';
import type { AppSettings } from '../../shared/schemas/settings';
import type { DocumentAnswer, SharedDocumentView } from '../../shared/schemas/document-model';
import type { DocumentDraft } from '../routes/documents/editor/form-state';
import { customerOf, organizationOf, sellerOf, type CustomerSource, type SellerSource } from './build-parts';
import type { RenderDocument } from './types';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import type { DocumentType } from '../../shared/schemas/document';

/**
 * What the renderer draws, from any of the three shapes a document reaches it in (one path for a
 * document): the answered document (documents.get), the issued document of the public page and the PDF
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
  /** Paramètres → Devises: the rate a draft without one of its own will be issued at. */
  rates?: ReadonlyArray<{ code: string; rate: string }>;
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
  const doc = 'form' in source ? viewOfSave(source.form, context.customer ?? null, offersVat(context.profile)) : source.document;
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
    transfer: transferOf(doc.type, reference, sellerSource, context.transferQr ?? null),
    vat_in_base: vatInBaseOf(
      doc,
      offersVat(sellerSource) || doc.tax !== 0,
      context.settings?.currency_format.currency,
      // Not issued yet: the rate it would be issued at when it has none of its own.
      doc.number ? undefined : context.rates?.find((r) => r.code === doc.currency)?.rate,
    ),
  };
}

/**
 * A foreign-currency document's VAT in the accounting currency: at the rate kept at issue, or on a draft at the rate
 * typed for it, else at the settings' rate it would be issued at (`settingsRate`, given for drafts only).
 */
function vatInBaseOf(
  doc: { currency: string; taxes: { rate: number; taxable_amount: number; amount: number }[]; exchange_rate?: string | null },
  vat: boolean,
  base: string | undefined,
  settingsRate?: string,
): RenderDocument['vat_in_base'] {
  if (!vat || !base || doc.currency === base) return null;
  const { rate } = documentRate({ currency: doc.currency, base, own: doc.exchange_rate, settings: settingsRate });
  if (!rate) return null;
  const { taxes, total } = vatInBase(doc.taxes, { code: doc.currency, rate }, base);
  if (taxes.length === 0) return null;
  return {
    currency: base,
    rate,
    taxes: taxes.map((t) => ({ rate: t.rate, amount: toNumber(t.amount) })),
    total: toNumber(total),
  };
}

/**
 * The payment block's transfer part: the account on what asks to be paid, the reference and QR code on an issued
 * invoice. Only an account kept as such is printed here: a snapshot taken before bank accounts existed prints the
 * IBAN its key/values held, among them.
 */
function transferOf(
  type: DocumentType,
  reference: string | null,
  seller: SellerSource | null,
  qr: string | null,
): RenderDocument['transfer'] {
  const account = DOCUMENT_TYPE_TABLE[type].printsPaymentAccount ? (seller?.payment_account ?? null) : null;
  return reference || account ? { account, reference, qr } : null;
}

/**
 * The unsaved form seen as a document: what its save would write (shared/document-save.ts, the server's own
 * computation), nothing issued, deducted or received yet.
 */
function viewOfSave(form: DocumentDraft, customer: CustomerSource | null, vat: boolean): Viewed {
  const { totals, customer_id: _customer, order_id: _order, ...save } = typingSave(form, { vat });
  return {
    ...save,
    ...totals,
    kind: 'standard',
    number: null,
    // As typed: a text that reads as no rate converts nothing (the save refuses it), an empty one is no rate of its own.
    exchange_rate: form.exchange_rate === null || form.exchange_rate === undefined ? null : String(form.exchange_rate),
    organization: null,
    // As the server shows it: the document's own delivery address stands in the customer's shipping address's place.
    customer: customer && { ...customer, shipping: save.delivery_address },
    deposit_invoices: [],
    credited: 0,
    legal_mentions: [],
  };
}
