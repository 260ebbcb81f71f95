import { useMemo } from 'react';
import { today } from '../../../lib/local-today';
import { isMoneyLike, money, toNumber } from '../../../../shared/money';
import {
  documentInputSchema,
  documentItemInputSchema,
  type DocumentInput,
  type DocumentItemInput,
  type DocumentType,
} from '../../../../shared/schemas/document';
import { typingSave, type DocumentSave } from '../../../../shared/document-save';
import type { DocumentAnswer } from '../../../../shared/schemas/document-model';
import { editor } from '../../../stores/document-editor';
import { formatRate } from '../../../../shared/exchange';

/**
 * The editor's form is the document input schema's own input type: amounts
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

export { today } from '../../../lib/local-today';

export const addDays = (date: string, days: number) => {
  const time = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(time) ? '' : new Date(time + days * 86_400_000).toISOString().slice(0, 10);
};

export const blankLine = (defaults: Partial<LineDraft> = {}): LineDraft => ({
  ...documentItemInputSchema.parse({}),
  key: newKey(),
  // The price is the user's to type: an empty field under its placeholder, not a 0 to erase first.
  unit_price: '',
  ...defaults,
});

/**
 * Without an id the form starts from the schema's defaults, dated today. What is not chosen yet is said outright (no
 * customer, no order, no rate of its own, the billing address): left out, the server would pick them itself.
 */
export const blankForm = (type: DocumentType, defaults: Partial<DocumentDraft> = {}): DocumentDraft => ({
  ...documentInputSchema.parse({ type, date: today() }),
  customer_id: null,
  sale_date: null,
  order_id: null,
  exchange_rate: null,
  delivery_address: null,
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
  return {
    ...form,
    // Shown as banks quote it ('1,0850'), as Paramètres → Devises does.
    exchange_rate: form.exchange_rate ? formatRate(form.exchange_rate) : null,
    items: form.items.map((line) => ({ ...line, key: newKey() })),
  };
}

/** Another currency: a rate typed for the previous one means nothing for it, the settings' rate applies again. */
export function setCurrency(code: string) {
  const f = draft();
  if (f.currency === code) return;
  f.currency = code;
  f.exchange_rate = null;
  if (editor.errors.exchange_rate) delete editor.errors.exchange_rate;
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

/**
 * What a save of the form being typed would write (lines with their amounts, every total): the server's own
 * computation, what does not parse yet counting as nothing. `vat`: false under the franchise; `deposits` and `paid`:
 * what a saved invoice already deducts.
 */
export function useTypingSave(form: DocumentDraft | null, vat: boolean, deposits = 0, paid = 0): DocumentSave | null {
  return useMemo(() => (form ? typingSave(form, { vat, deposits: deposits ? [deposits] : [], paid }) : null), [form, vat, deposits, paid]);
}

/** Zod issue paths ('items.2.unit_price') to one message per field. */
export function errorsByPath(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return errors;
}
