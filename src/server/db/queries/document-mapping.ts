import type { Insertable, Selectable, Updateable } from 'kysely';
import { z } from 'zod';
import type { DocumentItemsTable, DocumentsTable } from '../schema';
import { fromStoredUnits, toStoredUnits } from '../../../shared/money';
import { isStoredStatus, type StoredStatus } from '../../../shared/document-status';
import { customerPartySchema, sellerPartySchema, type CustomerParty, type SellerParty } from '../../../shared/schemas/document-parties';
import { depositRequestSchema, keyValueSchema, taxLineSchema } from '../../../shared/schemas/document';
import { addressSchema } from '../../../shared/schemas/customer';
import { documentTemplateSchema, type DocumentTemplate } from '../../../shared/schemas/template';
import type { DocumentSave } from '../../../shared/document-save';
import {
  lineAmountsSchema,
  taxGroupSchema,
  type DocumentLine,
  type StoredDocument,
  type StoredTotals,
} from '../../../shared/schemas/document-model';

/**
 * The one place a document crosses between its rows and its domain shape (shared/schemas/document-model.ts):
 * amounts stored as INTEGER ten-thousandths (migration 0007) come back as JSON numbers in major units, JSON columns
 * are parsed with their schemas, decimal inputs stored as text come back as numbers. Services never see a row.
 */
export type DocumentRow = Selectable<DocumentsTable>;
export type DocumentItemRow = Selectable<DocumentItemsTable>;
type DocumentColumns = Updateable<Omit<DocumentsTable, 'id' | 'organization_id' | 'uuid' | 'created_at'>>;
type NewDocumentItemRow = Omit<Insertable<DocumentItemsTable>, 'id' | 'document_id' | 'position'>;

/** A line as written: what was typed and its amounts; the id only once stored. */
export type NewDocumentLine = Omit<DocumentLine, 'id'> & { id?: number };

/**
 * What a save writes: the form's fields, its lines with their amounts and every total (shared/document-save.ts), in
 * the stored document's own shape: a field added to the save and not to the model fails to compile here.
 */
export type DocumentContent = Pick<StoredDocument, Exclude<keyof DocumentSave, 'items'>> & { items: NewDocumentLine[] };

/** The document's own fields a service may change beside its content. */
export type DocumentChanges = Partial<
  Pick<
    StoredDocument,
    | 'status'
    | 'number'
    | 'counter'
    | 'customer_name'
    | 'seller'
    | 'customer'
    | 'legal_mentions'
    | 'template'
    | 'issued_at'
    | 'sent_at'
    | 'viewed_at'
    | 'updated_at'
    | 'deducted_by_id'
    | 'exchange_rate'
  >
> & {
  content?: DocumentContent;
  /** An invoice's balance, from its payments and credit notes. */
  balance?: { paid: number; amount_due: number };
};

export type NewDocument = Omit<StoredDocument, 'id' | 'template' | keyof DocumentContent> & { content: DocumentContent };

export const json = <T extends z.ZodType>(schema: T, text: string): z.output<T> => schema.parse(JSON.parse(text));
const jsonOrNull = <T extends z.ZodType>(schema: T, text: string | null): z.output<T> | null => (text === null ? null : json(schema, text));

function lineOfRow(r: DocumentItemRow): DocumentLine {
  return {
    id: r.id,
    code: r.code || null,
    sku: r.sku || null,
    item: r.item,
    description: r.description,
    quantity: Number(r.quantity),
    unit: r.unit,
    unit_price: Number(r.unit_price),
    discount_type: r.discount_type === 'amount' ? 'amount' : 'percent',
    discount_value: Number(r.discount_value),
    taxes: json(z.array(taxLineSchema), r.taxes),
    kind: r.kind === 'goods' ? 'goods' : 'service',
    ...(r.amounts === null ? ZERO_AMOUNTS : json(lineAmountsSchema, r.amounts)),
  };
}
/**
 * The template kept at issue, re-validated like the stored settings: a field added later gets its default. One that
 * no longer validates is answered as none (the current template then), rather than breaking the document.
 */
function templateOfRow(text: string | null): DocumentTemplate | null {
  if (text === null) return null;
  const parsed = documentTemplateSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}
const ZERO_AMOUNTS = { price: 0, net_price: 0, subtotal: 0, discount: 0, gross_total: 0, tax: 0, total: 0 };

export function lineColumns(line: NewDocumentLine): NewDocumentItemRow {
  return {
    code: line.code ?? '',
    sku: line.sku ?? '',
    item: line.item,
    description: line.description,
    quantity: String(line.quantity),
    unit: line.unit,
    unit_price: String(line.unit_price),
    discount_type: line.discount_type,
    discount_value: String(line.discount_value),
    taxes: JSON.stringify(line.taxes),
    kind: line.kind,
    amounts: JSON.stringify({
      price: line.price,
      net_price: line.net_price,
      subtotal: line.subtotal,
      discount: line.discount,
      gross_total: line.gross_total,
      tax: line.tax,
      total: line.total,
    }),
    // Summed per designation by the by-item report (reports.ts) without reading the JSON above.
    net: toStoredUnits(line.gross_total),
  };
}

function totalsOfRow(row: DocumentRow): StoredTotals {
  return {
    subtotal: fromStoredUnits(row.subtotal),
    discount: fromStoredUnits(row.discount),
    taxes: json(z.array(taxGroupSchema), row.tax_groups),
    tax: fromStoredUnits(row.tax),
    shipping: fromStoredUnits(row.shipping),
    total: fromStoredUnits(row.total),
    deposits: fromStoredUnits(row.deposits),
    paid: fromStoredUnits(row.paid),
    amount_due: fromStoredUnits(row.amount_due),
  };
}

export function documentOfRow(row: DocumentRow, items: DocumentItemRow[]): StoredDocument {
  return {
    id: row.id,
    organization_id: row.organization_id,
    type: row.type,
    kind: row.kind,
    status: storedStatus(row.status),
    number: row.number,
    counter: row.counter,
    uuid: row.uuid,
    date: row.date,
    maturity: row.maturity,
    sale_date: row.sale_date,
    condition: row.condition,
    header: row.header,
    footer: row.footer,
    terms: row.terms,
    note: row.note,
    discount_type: row.discount_type === 'amount' || row.discount_type === 'percent' ? row.discount_type : null,
    discount_value: row.discount_value === null ? null : Number(row.discount_value),
    shipping: Number(row.shipping_fee),
    shipping_tax: jsonOrNull(taxLineSchema, row.shipping_tax),
    shipping_tax_auto: row.shipping_tax_auto === 1,
    shipping_details: row.shipping_details,
    vat_exemption: row.vat_exemption,
    additional_info: json(z.array(keyValueSchema), row.additional_info),
    deposit_request: json(z.array(depositRequestSchema), row.deposit_request),
    customer_id: row.customer_id,
    order_id: row.order_id,
    purchase_order: row.purchase_order,
    delivery_address: jsonOrNull(addressSchema, row.delivery_address),
    currency: row.currency,
    price_mode: row.price_mode === 'ttc' ? 'ttc' : 'ht',
    items: items.map(lineOfRow),
    totals: totalsOfRow(row),
    customer_name: row.customer_name,
    origin_id: row.origin_id,
    corrects_id: row.corrects_id,
    deducted_by_id: row.deducted_by_id,
    seller: jsonOrNull(sellerPartySchema, row.seller_snapshot),
    customer: jsonOrNull(customerPartySchema, row.customer_snapshot),
    legal_mentions: json(z.array(z.string()), row.legal_mentions),
    template: templateOfRow(row.template_snapshot),
    exchange_rate: row.exchange_rate,
    issued_at: row.issued_at,
    sent_at: row.sent_at,
    viewed_at: row.viewed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const storedStatus = (s: string): StoredStatus => {
  if (!isStoredStatus(s)) throw new Error(`Statut inconnu en base : ${s}`);
  return s;
};

export function contentColumns(c: DocumentContent) {
  const t = c.totals;
  return {
    type: c.type,
    date: c.date,
    maturity: c.maturity,
    sale_date: c.sale_date,
    condition: c.condition,
    header: c.header,
    footer: c.footer,
    terms: c.terms,
    note: c.note,
    discount_type: c.discount_type,
    discount_value: c.discount_value === null ? null : String(c.discount_value),
    shipping_fee: String(c.shipping),
    shipping_tax: c.shipping_tax === null ? null : JSON.stringify({ title: c.shipping_tax.title, rate: c.shipping_tax.rate }),
    shipping_tax_auto: c.shipping_tax_auto ? 1 : 0,
    shipping_details: c.shipping_details,
    vat_exemption: c.vat_exemption,
    additional_info: JSON.stringify(c.additional_info),
    deposit_request: JSON.stringify(c.deposit_request),
    customer_id: c.customer_id,
    order_id: c.order_id,
    purchase_order: c.purchase_order,
    delivery_address: c.delivery_address === null ? null : JSON.stringify(c.delivery_address),
    currency: c.currency,
    price_mode: c.price_mode,
    tax_groups: JSON.stringify(t.taxes),
    subtotal: toStoredUnits(t.subtotal),
    discount: toStoredUnits(t.discount),
    tax: toStoredUnits(t.tax),
    shipping: toStoredUnits(t.shipping),
    total: toStoredUnits(t.total),
    deposits: toStoredUnits(t.deposits),
    paid: toStoredUnits(t.paid),
    amount_due: toStoredUnits(t.amount_due),
    // Read by the reports per payment (URSSAF split, VAT on receipts): kept here rather than summed from the lines.
    goods_net: c.items.reduce((sum, l) => sum + (l.kind === 'goods' ? toStoredUnits(l.gross_total) : 0), 0),
    lines_net: c.items.reduce((sum, l) => sum + toStoredUnits(l.gross_total), 0),
    has_services: c.items.some((l) => l.kind === 'service') ? 1 : 0,
  };
}

export function changeColumns(changes: DocumentChanges): DocumentColumns {
  const { content, balance, seller, customer, legal_mentions, template, ...own } = changes;
  return {
    ...own,
    ...(content ? contentColumns(content) : {}),
    ...(balance ? { paid: toStoredUnits(balance.paid), amount_due: toStoredUnits(balance.amount_due) } : {}),
    ...(seller !== undefined ? { seller_snapshot: partyJson(seller) } : {}),
    ...(customer !== undefined ? { customer_snapshot: partyJson(customer) } : {}),
    ...(legal_mentions !== undefined ? { legal_mentions: JSON.stringify(legal_mentions) } : {}),
    ...(template !== undefined ? { template_snapshot: template === null ? null : JSON.stringify(template) } : {}),
  };
}
export const partyJson = (party: SellerParty | CustomerParty | null) => (party === null ? null : JSON.stringify(party));
