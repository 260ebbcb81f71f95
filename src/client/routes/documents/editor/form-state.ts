import { commaToDot } from '../../../../shared/input';
import type { DepositRequest, DiscountType, DocumentForm, DocumentType, KeyValue, TaxLine } from '../../../../shared/schemas/document';

/**
 * The editor's form as typed: amounts stay strings so '12,5' can be typed the French way, and each line has a
 * stable key for its panel. `toDocumentInput` turns it into what the server's schema takes.
 */
export interface LineState {
  key: string;
  id?: number;
  code: string;
  sku: string;
  item: string;
  description: string;
  quantity: string;
  unit: string;
  unit_price: string;
  discount_type: DiscountType;
  discount_value: string;
  taxes: TaxLine[];
  kind: 'goods' | 'service';
}

export interface FormState {
  type: DocumentType;
  customer_id: number | null;
  date: string;
  /** '' until set: the server then takes the customer's payment days. */
  maturity: string;
  /** '' when the sale or service is on the document's date. */
  sale_date: string;
  condition: string;
  header: string;
  footer: string;
  terms: string;
  note: string;
  discount_type: DiscountType;
  discount_value: string;
  shipping: string;
  shipping_details: string;
  vat_exemption: string;
  additional_info: KeyValue[];
  deposit_request: { description: string; amount: string }[];
  currency: string;
  price_mode: 'ht' | 'ttc';
  order_id: number | null;
  items: LineState[];
}

let serial = 0;
export const newKey = () => `line-${Date.now().toString(36)}-${(serial += 1)}`;

/** Today in the user's own time zone (toISOString would give yesterday's date in France just after midnight). */
export const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

export const addDays = (date: string, days: number) => {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time) ? '' : new Date(time + days * 86_400_000).toISOString().slice(0, 10);
};

export const blankLine = (defaults: Partial<LineState> = {}): LineState => ({
  key: newKey(),
  code: '',
  sku: '',
  item: '',
  description: '',
  quantity: '1',
  unit: 'u',
  unit_price: '',
  discount_type: 'percent',
  discount_value: '',
  taxes: [],
  kind: 'service',
  ...defaults,
});

/** SPEC §4: without an id the form resets to these defaults (type, today's dates, percent discount, no lines). */
export const blankForm = (type: DocumentType, defaults: Partial<FormState> = {}): FormState => ({
  type,
  customer_id: null,
  date: today(),
  maturity: '',
  sale_date: '',
  condition: '',
  header: '',
  footer: '',
  terms: '',
  note: '',
  discount_type: 'percent',
  discount_value: '',
  shipping: '',
  shipping_details: '',
  vat_exemption: '',
  additional_info: [],
  deposit_request: [],
  currency: 'EUR',
  price_mode: 'ht',
  order_id: null,
  items: [],
  ...defaults,
});

/** A number typed the French way ('1 234,5'), or undefined when empty; NaN when it is not a number. */
export function parseAmount(text: string): number | undefined {
  const cleaned = commaToDot(text.replace(/[\s\u00a0\u202f]/g, ''));
  if (cleaned === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

const shown = (n: number | null | undefined) => (n === null || n === undefined || n === 0 ? '' : String(n).replace('.', ','));

/** A saved document back into the form (the editor loads it when it has an id). */
export function formOfDocument(doc: DocumentForm & { items: (DocumentForm['items'][number] & { id?: number })[] }): FormState {
  return {
    type: doc.type,
    customer_id: doc.customer_id ?? null,
    date: doc.date,
    maturity: doc.maturity ?? '',
    sale_date: doc.sale_date ?? '',
    condition: doc.condition,
    header: doc.header,
    footer: doc.footer,
    terms: doc.terms,
    note: doc.note,
    discount_type: doc.discount_type ?? 'percent',
    discount_value: shown(doc.discount_value),
    shipping: shown(doc.shipping),
    shipping_details: doc.shipping_details,
    vat_exemption: doc.vat_exemption,
    additional_info: doc.additional_info,
    deposit_request: doc.deposit_request.map((d: DepositRequest) => ({ description: d.description, amount: shown(d.amount) })),
    currency: doc.currency,
    price_mode: doc.price_mode,
    order_id: doc.order_id ?? null,
    items: doc.items.map((i) => ({
      key: newKey(),
      id: i.id,
      code: i.code ?? '',
      sku: i.sku ?? '',
      item: i.item,
      description: i.description,
      quantity: String(i.quantity).replace('.', ','),
      unit: i.unit,
      unit_price: String(i.unit_price).replace('.', ','),
      discount_type: i.discount_type,
      discount_value: shown(i.discount_value),
      taxes: i.taxes,
      kind: i.kind,
    })),
  };
}

/**
 * What the form sends. Typed amounts that are not numbers stay strings, so the shared schema answers with its
 * French message for that field ('Prix unitaire : un nombre est attendu').
 */
export function toDocumentInput(form: FormState): Record<string, unknown> {
  const amount = (text: string, fallback: number) => {
    const n = parseAmount(text);
    return n === undefined ? fallback : Number.isNaN(n) ? text : n;
  };
  return {
    type: form.type,
    customer_id: form.customer_id,
    date: form.date,
    ...(form.maturity ? { maturity: form.maturity } : {}),
    sale_date: form.sale_date || null,
    condition: form.condition,
    header: form.header,
    footer: form.footer,
    terms: form.terms,
    note: form.note,
    discount_type: form.discount_type,
    discount_value: amount(form.discount_value, 0),
    shipping: amount(form.shipping, 0),
    shipping_details: form.shipping_details,
    vat_exemption: form.vat_exemption,
    additional_info: form.additional_info.filter((kv) => kv.key.trim() || kv.value.trim()),
    deposit_request: form.deposit_request
      .filter((d) => d.description.trim() || d.amount.trim())
      .map((d) => ({ description: d.description, amount: amount(d.amount, 0) })),
    currency: form.currency,
    price_mode: form.price_mode,
    order_id: form.order_id,
    items: form.items.map((i) => ({
      ...(i.id ? { id: i.id } : {}),
      code: i.code || null,
      sku: i.sku || null,
      item: i.item,
      description: i.description,
      quantity: amount(i.quantity, 0),
      unit: i.unit,
      unit_price: amount(i.unit_price, 0),
      discount_type: i.discount_type,
      discount_value: amount(i.discount_value, 0),
      taxes: i.taxes,
      kind: i.kind,
    })),
  };
}

/** Numbers for the live totals: whatever does not parse counts as nothing until it is fixed. */
export function totalsInputOf(form: FormState) {
  const n = (text: string) => {
    const v = parseAmount(text);
    return v === undefined || Number.isNaN(v) ? undefined : v;
  };
  return {
    items: form.items.map((i) => ({
      quantity: n(i.quantity),
      unit_price: n(i.unit_price),
      discount_type: i.discount_type,
      discount_value: n(i.discount_value),
      taxes: i.taxes,
    })),
    discount_type: form.discount_type,
    discount_value: n(form.discount_value),
    shipping: n(form.shipping),
    price_mode: form.price_mode,
  };
}

/** Zod issue paths ('items.2.unit_price') to one message per field. */
export function errorsByPath(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return errors;
}
