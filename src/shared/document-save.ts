import { z } from 'zod';
import { computeTotals, type LineTotals } from './totals';
import { currencyPrecision } from './currencies';
import type { MoneyInput } from './money';
import { followsMainRate, shippingTaxInput } from './vat';
import type { Address } from './schemas/customer';
import {
  documentInputSchema,
  type DocumentForm,
  type DocumentInput,
  type DocumentItem,
  type DocumentType,
  type TaxLine,
} from './schemas/document';
import type { StoredTotals } from './schemas/document-model';

/**
 * What a document save writes, computed in one place for every reader of a form: the server's save stores it, both
 * editors show its totals as they are typed, and the unsaved preview draws it. Whatever the form says, they agree.
 */

/** A line as saved: what was typed (without the editor's panel key) and its amounts. */
export type SavedLine = Omit<DocumentItem, 'key'> & LineTotals;

/** The form's fields as saved: normalised (nulls where nothing is set), its lines with their amounts, every total. */
export type DocumentSave = Omit<
  DocumentForm,
  | 'items'
  | 'exchange_rate'
  | 'maturity'
  | 'sale_date'
  | 'customer_id'
  | 'order_id'
  | 'delivery_address'
  | 'shipping_tax'
  | 'shipping_tax_auto'
> & {
  maturity: string | null;
  /** Kept only when it differs from the issue date (CGI art. 242 nonies A, 7°). */
  sale_date: string | null;
  customer_id: number | null;
  order_id: number | null;
  delivery_address: Address | null;
  /** The rate applied to shipping (null: none): the one chosen, else the main rate of the lines. */
  shipping_tax: TaxLine | null;
  shipping_tax_auto: boolean;
  items: SavedLine[];
  totals: StoredTotals;
};

/** Beside the form, what its totals depend on: the VAT regime, the deposits it deducts and what was paid on it. */
export interface SaveAmounts {
  /** False under the franchise en base (CGI art. 293 B): shipping then carries no VAT. */
  vat: boolean;
  deposits?: readonly MoneyInput[];
  paid?: MoneyInput;
}

const NO_AMOUNTS: LineTotals = { price: 0, net_price: 0, subtotal: 0, discount: 0, gross_total: 0, tax: 0, total: 0 };

/**
 * The save of a parsed form: the schema has dropped its blank rows and read its amounts; here the unset fields become
 * null, a sale date equal to the date goes, and the shared core computes every amount. A total sent by a client is
 * never used.
 */
export function documentSave(form: DocumentForm, amounts: SaveAmounts): DocumentSave {
  const { lines, shipping_tax, ...totals } = computeTotals({
    items: form.items,
    discount_type: form.discount_type,
    discount_value: form.discount_value,
    shipping: form.shipping,
    shipping_tax: shippingTaxInput(form, amounts.vat),
    price_mode: form.price_mode,
    deposits: amounts.deposits ?? [],
    paid: amounts.paid ?? 0,
    precision: currencyPrecision(form.currency),
  });
  // The rate is no content of the form: the server keeps or refuses it according to the document's state.
  const { items, exchange_rate: _rate, ...fields } = form;
  return {
    ...fields,
    maturity: fields.maturity ?? null,
    sale_date: fields.sale_date && fields.sale_date !== fields.date ? fields.sale_date : null,
    customer_id: fields.customer_id ?? null,
    order_id: fields.order_id ?? null,
    delivery_address: fields.delivery_address ?? null,
    // EN 16931: shipping is a charge with its VAT category, kept with the document.
    shipping_tax,
    shipping_tax_auto: followsMainRate(fields),
    items: items.map(({ key: _key, ...item }, i) => ({ ...item, ...(lines[i] ?? NO_AMOUNTS) })),
    totals,
  };
}

/** While a form is typed its date may be empty or half typed: no amount depends on it, the preview shows it as it is. */
const typingSchema = documentInputSchema.extend({ date: z.string().catch('') });

/**
 * The save a form being typed would make, whatever is not right in it yet: each value the schema refuses counts as
 * nothing typed (an amount as 0, a text as empty), then as left out (the schema's default), then its row or block
 * goes, until the form parses. What the preview and the live totals show is then exactly what a save of the
 * corrected form writes.
 */
export function typingSave(input: DocumentInput, amounts: SaveAmounts): DocumentSave {
  let form: unknown = input;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const parsed = typingSchema.safeParse(form);
    if (parsed.success) return documentSave(parsed.data, amounts);
    if (!isContainer(form)) break;
    // Last refused first: a row that goes does not move the rows still to be mended.
    form = parsed.error.issues.reduceRight<unknown>((draft, issue) => withoutRefused(draft, issue.path), form);
  }
  return documentSave(typingSchema.parse({ type: typeOf(input.type) }), amounts);
}

/** A value refused at every level of a line's tax (text, left out, the tax, the taxes): a few rounds at most. */
const MAX_ROUNDS = 6;
const typeOf = (type: unknown): DocumentType | undefined =>
  documentInputSchema.shape.type.safeParse(type).success ? (type as DocumentType) : undefined;

type Container = Record<PropertyKey, unknown> | unknown[];
const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** Said by a value that cannot be mended alone: the row or block holding it goes. */
const REMOVE = Symbol('remove');

/** The form with the value at `path` made nothing: emptied, else left out, else its enclosing row or block. */
function withoutRefused(form: unknown, path: readonly PropertyKey[]): unknown {
  if (path.length === 0 || !isContainer(form)) return form;
  const [head, ...rest] = path as [PropertyKey, ...PropertyKey[]];
  const child = (form as Record<PropertyKey, unknown>)[head];
  if (rest.length > 0) {
    // Gone already with the row or block of an issue mended before this one.
    if (!isContainer(child)) return form;
    const inner = withoutRefused(child, rest);
    return inner === REMOVE ? without(form, head) : replaced(form, head, inner);
  }
  if ((typeof child === 'string' && child !== '') || typeof child === 'number') return replaced(form, head, '');
  if (child !== undefined || Array.isArray(form)) return without(form, head);
  // Already left out and still refused: the row or block holding it goes.
  return REMOVE;
}

function replaced(container: Container, key: PropertyKey, value: unknown): Container {
  if (Array.isArray(container)) return container.map((v, i) => (String(i) === String(key) ? value : v));
  return { ...container, [key]: value };
}

function without(container: Container, key: PropertyKey): Container {
  if (Array.isArray(container)) return container.filter((_, i) => String(i) !== String(key));
  const { [key]: _gone, ...rest } = container as Record<PropertyKey, unknown>;
  return rest;
}
