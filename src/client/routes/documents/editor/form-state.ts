import { isMoneyLike, money, toNumber } from '../../../../shared/money';
import { documentInputSchema, type DocumentInput, type DocumentItemInput, type DocumentType } from '../../../../shared/schemas/document';
import type { DocumentAnswer } from '../../../../shared/schemas/document-model';
import { editor } from '../../../stores/document-editor';
import { shippingTaxInput } from '../../../../shared/vat';

/**
 * The editor's form is the document input schema's own input type (STYLE.md "One path for a document"): amounts
 * stay as typed ('12,5'), the schema reads them on save, and each line carries the schema's client-only `key` for
 * its panel. There is no other shape of a document in the editor.
 */
export type DocumentDraft = DocumentInput;
export type LineDraft = DocumentItemInput;

let serial = 0;
export const newKey = () => {
  serial += 1;
  return `line-${Date.now().toString(36)}-${serial}`;
};

/** Today in the user's own time zone (toISOString would give yesterday's date in France just after midnight). */
export const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

export const addDays = (date: string, days: number) => {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time) ? '' : new Date(time + days * 86_400_000).toISOString().slice(0, 10);
};

export const blankLine = (defaults: Partial<LineDraft> = {}): LineDraft => ({
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
export const blankForm = (type: DocumentType, defaults: Partial<DocumentDraft> = {}): DocumentDraft => ({
  type,
  customer_id: null,
  date: today(),
  sale_date: null,
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
  purchase_order: '',
  delivery_address: null,
  items: [],
  ...defaults,
});

/** The form being edited, in a handler that only runs while one is loaded. */
export function draft(): DocumentDraft {
  if (!editor.form) throw new Error('Aucun document en cours de saisie');
  return editor.form;
}

/** A saved document back into the form: its input fields, picked by the input schema itself, each line given a key. */
export function draftOf(doc: DocumentAnswer): DocumentDraft {
  const form = documentInputSchema.parse(doc);
  return { ...form, items: form.items.map((line) => ({ ...line, key: newKey() })) };
}

/** An amount as the form shows it: what was typed, or a loaded number the French way ('12,5'); 0 as empty where asked. */
export const shownAmount = (value: number | string | null | undefined, zeroAsEmpty = false): string =>
  value === null || value === undefined || (zeroAsEmpty && value === 0)
    ? ''
    : typeof value === 'number'
      ? String(value).replace('.', ',')
      : value;

/** A typed amount the shared decimal parser reads, else nothing (counts as nothing in live totals until it is fixed). */
export const typedAmount = (value: number | string | null | undefined): number | string | undefined =>
  value === null || value === undefined || value === '' || !isMoneyLike(value) ? undefined : value;

/** A typed amount as a number (exact decimal reading), 0 while it is empty or not a number yet. */
export const typedNumber = (value: number | string | null | undefined): number => {
  const typed = typedAmount(value);
  return typed === undefined ? 0 : toNumber(money(typed));
};

/** The live totals' input: whatever does not parse counts as nothing until it is fixed. `vat`: false under the franchise. */
export function totalsInputOf(form: DocumentDraft, vat: boolean) {
  return {
    items: (form.items ?? []).map((i) => ({
      quantity: typedAmount(i.quantity),
      unit_price: typedAmount(i.unit_price),
      discount_type: i.discount_type,
      discount_value: typedAmount(i.discount_value),
      taxes: i.taxes,
    })),
    discount_type: form.discount_type,
    discount_value: typedAmount(form.discount_value),
    shipping: typedAmount(form.shipping),
    shipping_tax: shippingTaxInput(
      {
        shipping_tax: form.shipping_tax ? { title: form.shipping_tax.title, rate: typedNumber(form.shipping_tax.rate) } : form.shipping_tax,
        shipping_tax_auto: form.shipping_tax_auto,
      },
      vat,
    ),
    price_mode: form.price_mode,
  };
}

/** Zod issue paths ('items.2.unit_price') to one message per field. */
export function errorsByPath(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return errors;
}
