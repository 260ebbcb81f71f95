import { EU_COUNTRIES } from './eu-countries';
import { supplierVatCountry } from './foreign-vat';
import { abs, add, round, sub, ZERO, type Money, type MoneyInput } from './money';
import { vatRowBases, type PurchaseNature, type VatRow } from './vat-return/purchases';

/**
 * Flux 10.1 on the buyer's side: the purchases from suppliers established outside France (intra-community
 * acquisitions of goods and services, services bought from outside the EU), reported invoice by invoice with the
 * organisation as the buyer. Pure: the server reads the expenses and writes the file from this.
 */

/** UNTDID 5305, from the buyer's side: K goods acquired from another member state, AE VAT self-assessed (services), O VAT of another country (outside the scope of French VAT). */
export type PurchaseTaxCategory = 'K' | 'AE' | 'O';

/** An expense as the report reads it: amounts in the base currency, as stored (a supplier's credit note negative). */
export interface PurchaseRecord {
  id: number;
  kind: 'expense' | 'credit_note';
  /** YYYY-MM-DD: the supplier's invoice date. */
  date: string;
  supplier: string;
  invoiceNumber: string;
  supplierCountry: string;
  supplierVatNumber: string;
  currency: string;
  /** Received through the platform: already e-invoiced, so never e-reported. */
  viaPlatform: boolean;
  nature: PurchaseNature;
  reverseCharge: '' | 'goods' | 'services';
  /** TTC (HT when the VAT is self-assessed). */
  amount: MoneyInput;
  vat: readonly VatRow[];
  /** A credit note: the number of the invoice it corrects as written, and that invoice's date when it is among the expenses. */
  precedingNumber: string;
  precedingDate: string | null;
}

export interface InternationalPurchase {
  id: number;
  number: string;
  date: string;
  /** UNTDID 1001: 380 invoice, 381 credit note. */
  typeCode: '380' | '381';
  /** Cadre de facturation: B1 goods, S1 services. */
  process: 'B1' | 'S1';
  supplier: {
    /** 0223 a business of another member state (its VAT number); 0227 outside the EU (its own tax id). */
    scheme: '0223' | '0227';
    id: string;
    vatNumber: string | null;
    country: string;
  };
  referenced: { number: string; date: string } | null;
  /** HT and VAT in euros, to the cent: the sums of `subtotals` exactly; positive on a credit note, as it is issued. */
  base: Money;
  tax: Money;
  subtotals: { category: PurchaseTaxCategory; rate: number; base: Money; tax: Money }[];
}

/** Monaco is French VAT territory: its suppliers invoice French VAT. */
const FRENCH_TERRITORY = new Set(['FR', 'MC']);
const EU_CODES = new Set(EU_COUNTRIES.map((c) => c.code).filter((c) => c !== 'FR'));
/** The rates the PPF accepts (G1.24): self-assessed VAT is French VAT, at one of them. */
const PPF_RATES = new Set([0, 0.9, 1.05, 1.75, 2.1, 5.5, 7, 8.5, 9.2, 9.6, 10, 13, 19.6, 20, 20.6]);
/** The PPF's limits and characters of an identifier (G2.19) and of an invoice number (G1.05). */
const MAX_ID = 18;
const MAX_NUMBER = 35;
const NUMBER_CHARACTERS = /^[a-zA-Z0-9 \-+_/]+$/;
const compact = (id: string) => id.replace(/[\s.\-/]/g, '').toUpperCase();

type Scope = { reported: false } | { reported: true; zone: 'eu' | 'outside_eu'; country: string } | { reported: 'unknown' };

/**
 * Whether a purchase is e-reported: bought from a supplier established outside France, and not received through the
 * platform (an e-invoice is already known to the administration). Goods bought outside the EU are imports, declared to
 * customs and not e-reported. A self-assessed purchase whose supplier's country nothing says cannot be placed.
 */
function scopeOf(e: PurchaseRecord): Scope {
  if (e.viaPlatform) return { reported: false };
  const country = supplierVatCountry(e.supplierCountry, e.supplierVatNumber);
  if (country === '') return e.reverseCharge === '' ? { reported: false } : { reported: 'unknown' };
  if (FRENCH_TERRITORY.has(country)) return { reported: false };
  const zone = EU_CODES.has(country) ? 'eu' : 'outside_eu';
  const goods = e.reverseCharge === 'goods' || (e.reverseCharge === '' && e.nature !== 'services');
  if (zone === 'outside_eu' && goods) return { reported: false };
  return { reported: true, zone, country };
}

/** What stops a purchase from being reported as it stands, in French: what to fill in on the expense. */
function problemsOf(e: PurchaseRecord, zone: 'eu' | 'outside_eu', id: string): string[] {
  const what = `${e.kind === 'credit_note' ? 'Avoir' : 'Facture'} ${e.invoiceNumber || 'sans numéro'} du ${e.date} (${e.supplier})`;
  const problems: string[] = [];
  if (!id)
    problems.push(
      zone === 'eu'
        ? `${what} : le numéro de TVA intracommunautaire du fournisseur manque, renseignez-le sur la dépense`
        : `${what} : l’identifiant fiscal du fournisseur établi hors de l’Union européenne manque, renseignez-le sur la dépense (N° TVA du fournisseur)`,
    );
  else if (id.length > MAX_ID) problems.push(`${what} : l’identifiant du fournisseur dépasse ${MAX_ID} caractères`);
  if (!e.invoiceNumber) problems.push(`${what} : le numéro de la facture du fournisseur manque, renseignez-le sur la dépense`);
  else if (e.invoiceNumber.length > MAX_NUMBER || !NUMBER_CHARACTERS.test(e.invoiceNumber))
    problems.push(
      `${what} : la plateforme n’accepte qu’un numéro de ${MAX_NUMBER} caractères au plus, fait de lettres sans accent, chiffres, espaces et - + _ /`,
    );
  if (e.currency !== 'EUR')
    problems.push(
      `${what} : montant en ${e.currency}, la déclaration se fait en euros ; saisissez la dépense en EUR au taux du jour de la facture`,
    );
  if (e.kind === 'credit_note' && (!e.precedingNumber || !e.precedingDate))
    problems.push(`${what} : un avoir déclaré doit citer la facture qu’il corrige, enregistrée dans vos dépenses (numéro et date)`);
  else if (e.kind === 'credit_note' && (e.precedingNumber.length > MAX_NUMBER || !NUMBER_CHARACTERS.test(e.precedingNumber)))
    problems.push(
      `${what} : le numéro de la facture corrigée doit compter ${MAX_NUMBER} caractères au plus, faits de lettres sans accent, chiffres, espaces et - + _ /`,
    );
  if (e.reverseCharge !== '')
    for (const row of e.vat)
      if (!PPF_RATES.has(Number(row.rate)))
        problems.push(`${what} : la TVA autoliquidée l’est à un taux français ; ${row.rate} % n’en est pas un`);
  return problems;
}

/**
 * Each row's part of the HT in euros to the cent, with the VAT the buyer owes: self-assessed VAT at its French rate (K
 * for goods from the EU, AE for services), else one untaxed part outside the scope of French VAT (the VAT another
 * country charged is not French VAT and is not declared here).
 */
function subtotalsOf(e: PurchaseRecord): InternationalPurchase['subtotals'] {
  // A supplier's credit note is stored negative and reported as issued, positive.
  const positive = (m: MoneyInput) => abs(m);
  if (e.reverseCharge === '') {
    const paid = e.vat.reduce<Money>((s, r) => add(s, r.amount), ZERO);
    return [{ category: 'O', rate: 0, base: round(positive(sub(e.amount, paid)), 2), tax: ZERO }];
  }
  const category: PurchaseTaxCategory = e.reverseCharge === 'goods' ? 'K' : 'AE';
  const bases = vatRowBases(e.amount, e.vat, { selfAssessed: true });
  const groups = new Map<number, { base: Money; tax: Money }>();
  e.vat.forEach((row, k) => {
    const rate = Number(row.rate);
    const group = groups.get(rate) ?? { base: ZERO, tax: ZERO };
    groups.set(rate, { base: add(group.base, round(positive(bases[k] ?? ZERO), 2)), tax: add(group.tax, round(positive(row.amount), 2)) });
  });
  // What no taxed row covers (an untaxed row, or none at all) is still acquired: at 0 %.
  const covered = [...groups.values()].reduce<Money>((s, g) => add(s, g.base), ZERO);
  const rest = sub(round(positive(e.amount), 2), covered);
  if (!rest.eq(0) || groups.size === 0) {
    const zero = groups.get(0) ?? { base: ZERO, tax: ZERO };
    groups.set(0, { base: add(zero.base, rest), tax: zero.tax });
  }
  return [...groups]
    .filter(([rate, g]) => rate === 0 || !g.base.eq(0) || !g.tax.eq(0))
    .sort(([a], [b]) => b - a)
    .map(([rate, g]) => ({ category, rate, base: g.base, tax: g.tax }));
}

/**
 * The period's international purchases, each with its amounts per VAT category and rate in euros, and the French
 * reasons a purchase cannot be reported as it stands. A purchase with a problem is left out of the invoices (never
 * sent half-filled) and named in the problems. `expenses` may hold more than the period's: only those dated in it count.
 */
export function internationalPurchases(
  expenses: readonly PurchaseRecord[],
  period: { from: string; to: string },
): { purchases: InternationalPurchase[]; problems: string[] } {
  const purchases: InternationalPurchase[] = [];
  const problems: string[] = [];
  for (const e of expenses) {
    if (e.date < period.from || e.date > period.to) continue;
    const scope = scopeOf(e);
    if (scope.reported === false) continue;
    if (scope.reported === 'unknown') {
      problems.push(
        `${e.kind === 'credit_note' ? 'Avoir' : 'Facture'} ${e.invoiceNumber || 'sans numéro'} du ${e.date} (${e.supplier}) : TVA autoliquidée sans pays du fournisseur, renseignez le pays du fournisseur sur la dépense`,
      );
      continue;
    }
    const vat = compact(e.supplierVatNumber);
    const mine = problemsOf(e, scope.zone, vat);
    if (mine.length > 0) {
      problems.push(...mine);
      continue;
    }
    const subtotals = subtotalsOf(e);
    purchases.push({
      id: e.id,
      number: e.invoiceNumber,
      date: e.date,
      typeCode: e.kind === 'credit_note' ? '381' : '380',
      process: e.reverseCharge === 'goods' || (e.reverseCharge === '' && e.nature !== 'services') ? 'B1' : 'S1',
      supplier: { scheme: scope.zone === 'eu' ? '0223' : '0227', id: vat, vatNumber: vat, country: scope.country },
      referenced: e.kind === 'credit_note' && e.precedingDate ? { number: e.precedingNumber, date: e.precedingDate } : null,
      base: subtotals.reduce<Money>((s, v) => add(s, v.base), ZERO),
      tax: subtotals.reduce<Money>((s, v) => add(s, v.tax), ZERO),
      subtotals,
    });
  }
  purchases.sort((a, b) => a.date.localeCompare(b.date) || a.number.localeCompare(b.number) || a.id - b.id);
  return { purchases, problems };
}

/** The amount the list shows: HT of the period's purchases, credit notes deducted. */
export const purchasesAmount = (purchases: readonly InternationalPurchase[]): Money =>
  purchases.reduce<Money>((s, p) => (p.typeCode === '381' ? sub(s, p.base) : add(s, p.base)), ZERO);
