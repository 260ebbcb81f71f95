import { computeTotals, type DocumentTotals } from '../../shared/totals';
import { currencyPrecision } from '../../shared/currencies';
import { toUnits4, unitsToNumber } from '../../shared/money';
import { effectiveStatus, type StoredStatus } from '../../shared/document-status';
import type { DocumentForm, DocumentItem, DocumentType, KeyValue, DepositRequest, TaxLine } from '../../shared/schemas/document';
import type { DocumentItemRow, DocumentListRow, DocumentRow, NewDocumentItemRow } from '../db/queries/documents';

/** Stored amounts are INTEGER ten-thousandths (migration 0007); the API speaks JSON numbers in major units. */
export const fromUnits4 = (n: number | null | undefined): number => unitsToNumber(BigInt(n ?? 0), 4);
export const toStoredUnits = (n: number): number => Number(toUnits4(n));

// Business dates are French: 'today' turns at midnight in Paris, not in UTC (sv-SE formats as YYYY-MM-DD).
const parisDate = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
export const todayIso = (now = new Date()): string => parisDate.format(now);

/** The lines as the form has them, read back from their rows. */
export function itemsOfRows(rows: DocumentItemRow[]): DocumentItem[] {
  return rows.map((r) => ({
    id: r.id,
    code: r.code || null,
    sku: r.sku || null,
    item: r.item,
    description: r.description,
    quantity: Number(r.quantity),
    unit: r.unit,
    unit_price: Number(r.unit_price),
    discount_type: r.discount_type as DocumentItem['discount_type'],
    discount_value: Number(r.discount_value),
    taxes: JSON.parse(r.taxes) as TaxLine[],
    kind: r.kind as DocumentItem['kind'],
  }));
}

export function rowsOfItems(items: DocumentItem[]): NewDocumentItemRow[] {
  return items.map((i) => ({
    code: i.code ?? '',
    sku: i.sku ?? '',
    item: i.item,
    description: i.description,
    quantity: String(i.quantity),
    unit: i.unit,
    unit_price: String(i.unit_price),
    discount_type: i.discount_type,
    discount_value: String(i.discount_value),
    taxes: JSON.stringify(i.taxes),
    kind: i.kind,
  }));
}

/** Every total of a document, from its lines, with the shared core: a total sent by a client is never used. */
export function totalsOf(
  form: Pick<DocumentForm, 'items' | 'discount_type' | 'discount_value' | 'shipping' | 'price_mode' | 'currency'>,
  deposits: number[],
  paid: number,
): DocumentTotals {
  return computeTotals({
    items: form.items,
    discount_type: form.discount_type,
    discount_value: form.discount_value,
    shipping: form.shipping,
    price_mode: form.price_mode,
    deposits,
    paid,
    precision: currencyPrecision(form.currency),
  });
}

/** The stored columns of a set of totals. */
export function totalColumns(t: DocumentTotals) {
  return {
    tax_groups: JSON.stringify(t.taxes),
    subtotal: toStoredUnits(t.subtotal),
    discount: toStoredUnits(t.discount),
    tax: toStoredUnits(t.tax),
    shipping: toStoredUnits(t.shipping),
    total: toStoredUnits(t.total),
    deposits: toStoredUnits(t.deposits),
    paid: toStoredUnits(t.paid),
    amount_due: toStoredUnits(t.amount_due),
  };
}

/** The form's own fields as stored columns (items and totals apart). */
export function formColumns(form: DocumentForm) {
  return {
    type: form.type,
    date: form.date,
    maturity: form.maturity ?? null,
    sale_date: form.sale_date && form.sale_date !== form.date ? form.sale_date : null,
    condition: form.condition,
    header: form.header,
    footer: form.footer,
    terms: form.terms,
    note: form.note,
    discount_type: form.discount_type,
    discount_value: form.discount_value === null ? null : String(form.discount_value),
    shipping_fee: String(form.shipping),
    shipping_details: form.shipping_details,
    vat_exemption: form.vat_exemption,
    additional_info: JSON.stringify(form.additional_info),
    deposit_request: JSON.stringify(form.deposit_request),
    customer_id: form.customer_id ?? null,
    order_id: form.order_id ?? null,
    currency: form.currency,
    price_mode: form.price_mode,
  };
}

/** The form a stored document was saved from: what the editor loads and what conversions copy. */
export function formOfRow(row: DocumentRow, items: DocumentItemRow[]): DocumentForm {
  return {
    type: row.type,
    date: row.date,
    maturity: row.maturity,
    sale_date: row.sale_date,
    condition: row.condition,
    header: row.header,
    footer: row.footer,
    terms: row.terms,
    note: row.note,
    discount_type: row.discount_type as DocumentForm['discount_type'],
    discount_value: row.discount_value === null ? null : Number(row.discount_value),
    shipping: Number(row.shipping_fee),
    shipping_details: row.shipping_details,
    vat_exemption: row.vat_exemption,
    additional_info: JSON.parse(row.additional_info) as KeyValue[],
    deposit_request: JSON.parse(row.deposit_request) as DepositRequest[],
    customer_id: row.customer_id,
    order_id: row.order_id,
    currency: row.currency,
    price_mode: row.price_mode as DocumentForm['price_mode'],
    items: itemsOfRows(items),
  };
}

/** A list row as answered: amounts in major units and the displayed status (overdue derived). */
export function listEntry(row: DocumentListRow, today: string) {
  return {
    ...row,
    status: effectiveStatus({ type: row.type, status: row.status as StoredStatus, maturity: row.maturity }, today),
    subtotal: fromUnits4(row.subtotal),
    tax: fromUnits4(row.tax),
    total: fromUnits4(row.total),
    deposits: fromUnits4(row.deposits),
    paid: fromUnits4(row.paid),
    amount_due: fromUnits4(row.amount_due),
  };
}

export interface LinkedDocument {
  id: number;
  type: DocumentType;
  kind: 'standard' | 'deposit';
  status: string;
  number: string | null;
  date: string;
  total: number;
}

export const linkedOf = (row: {
  id: number;
  type: DocumentType;
  kind: 'standard' | 'deposit';
  status: string;
  number: string | null;
  date: string;
  total: number;
}): LinkedDocument => ({
  ...row,
  total: fromUnits4(row.total),
});
