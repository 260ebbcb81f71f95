/**
 * The organisation's VAT rules, one source for the editor, the catalogue, the renderer and the server:
 * - under the franchise en base (CGI art. 293 B) nothing carries VAT and documents say so instead of offering a rate;
 * - one tax per line and per catalogue item, unless the organisation opts in to several (Paramètres → TVA);
 * - shipping is part of the taxable base (CGI art. 267): by default it follows the main rate of the lines.
 */

export interface TaxRate {
  title: string;
  rate: number;
}

/** The mention that replaces every rate under the franchise en base (CGI art. 242 nonies A, 293 B). */
export const FRANCHISE_MENTION = 'TVA non applicable, art. 293 B du CGI';

/** Whether the organisation charges VAT: not under the franchise en base. A missing regime is the normal one. */
export const offersVat = (org: { vat_regime?: 'normal' | 'franchise' | null } | null | undefined): boolean =>
  org?.vat_regime !== 'franchise';

/** The rate a new line or catalogue item starts with: the normal rate (20 %) where VAT is charged, none otherwise. */
export function defaultRate<T extends TaxRate>(rates: readonly T[], vat: boolean): T | null {
  return vat ? (rates.find((t) => t.rate === 20) ?? null) : null;
}

/** Two rates are the same choice when both title and rate match. */
export const sameRate = (a: TaxRate, b: TaxRate) => a.title === b.title && a.rate === b.rate;

/** Whether shipping follows the main rate: asked for, or no rate given at all. */
export const followsMainRate = (form: { shipping_tax?: object | null; shipping_tax_auto?: boolean | null }): boolean =>
  form.shipping_tax_auto ?? form.shipping_tax === undefined;

/**
 * The shipping rate as the totals engine takes it (shared/totals.ts `shipping_tax`): none under the franchise,
 * undefined (the main rate) when following it, else the rate chosen, or none.
 */
export function shippingTaxInput(form: { shipping_tax?: TaxRate | null; shipping_tax_auto?: boolean | null }, vat: boolean) {
  if (!vat) return null;
  return followsMainRate(form) ? undefined : (form.shipping_tax ?? null);
}

export interface TaxRules {
  /** False under the franchise en base. */
  vat: boolean;
  /** The organisation allows several taxes on one line or item (off by default). */
  multiple: boolean;
}

/** A line's name in a message: its number, and its designation when it has one. */
export const lineName = (index: number, item: string | null | undefined) =>
  `Ligne ${index + 1}${item?.trim() ? ` (« ${item.trim()} »)` : ''}`;

/** What is wrong with the taxes of one line or item (`who` names it, `per` says "ligne" or "article"), in French; null when nothing. */
export function taxProblem(who: string, taxes: readonly TaxRate[], rules: TaxRules, per: 'ligne' | 'article' = 'ligne'): string | null {
  const charged = taxes.filter((t) => t.rate > 0);
  if (!rules.vat && charged.length > 0)
    return `${who} : TVA non applicable sous la franchise en base (art. 293 B du CGI), retirez ${charged.map((t) => `« ${t.title} »`).join(', ')}`;
  if (!rules.multiple && taxes.length > 1)
    return `${who} : une seule TVA par ${per} (${taxes.map((t) => t.title).join(', ')}) ; choisissez-en une, ou autorisez plusieurs taxes par ligne dans Paramètres → TVA`;
  return null;
}

/** Every problem of a document's lines and shipping rate, one French message each (empty when it may be saved). */
export function documentTaxProblems(
  form: {
    items: readonly { item?: string | null; taxes?: readonly TaxRate[] | null }[];
    shipping_tax?: TaxRate | null;
    shipping_tax_auto?: boolean | null;
  },
  rules: TaxRules,
): string[] {
  const problems = form.items.map((line, i) => taxProblem(lineName(i, line.item), line.taxes ?? [], rules));
  if (!rules.vat && !followsMainRate(form) && form.shipping_tax && form.shipping_tax.rate > 0)
    problems.push('Frais de port : TVA non applicable sous la franchise en base (art. 293 B du CGI), choisissez « Aucune »');
  return problems.filter((p): p is string => p !== null);
}
