import { add, round, sub, ZERO, type Money } from './money';
import { saleParts, type Nature, type SaleDocument } from './vat-return/sales';

/**
 * Flux 10.1: the sales to businesses established outside France (another member state, or outside the EU), reported
 * invoice by invoice rather than e-invoiced through the platform. Pure: the server writes the file from it.
 */

/** UNTDID 5305 categories the PPF accepts: S taxed in France; K intra-community supply; AE reverse charge; G export; O outside the scope. */
export type TaxCategory = 'S' | 'K' | 'AE' | 'G' | 'O';

export interface InternationalInvoice {
  id: number;
  number: string;
  /** YYYY-MM-DD. */
  date: string;
  /** UNTDID 1001: 380 invoice, 386 deposit invoice, 381 credit note. */
  typeCode: '380' | '381' | '386';
  /** Cadre de facturation: B1 goods, S1 services, M1 both. */
  process: 'B1' | 'S1' | 'M1';
  buyer: {
    /** 0223 a business of another member state (its VAT number); 0227 outside the EU (its own tax id). */
    scheme: '0223' | '0227';
    id: string;
    vatNumber: string | null;
    country: string | null;
  };
  /** A credit note: the invoice it credits. */
  referenced: { number: string; date: string } | null;
  /** HT and VAT in euros, to the cent: the sums of `subtotals` exactly. Positive on a credit note, as it is issued. */
  base: Money;
  tax: Money;
  subtotals: { category: TaxCategory; rate: number; base: Money; tax: Money }[];
}

/** Identifiers as the PPF reads them: no spaces, dots or dashes, upper case. */
const compact = (id: string) => id.replace(/[\s.\-/]/g, '').toUpperCase();
/** The PPF's limit of a foreign buyer's identifier (G2.19). */
const MAX_ID = 18;

function categoryOf(rate: number, nature: Nature, zone: 'eu' | 'outside_eu'): TaxCategory {
  if (rate > 0) return 'S';
  if (zone === 'eu') return nature === 'goods' ? 'K' : 'AE';
  return nature === 'goods' ? 'G' : 'O';
}

/** Whether a sale is reported in 10.1: issued to a business established outside France. */
export const isInternationalB2b = (doc: SaleDocument) => doc.individual === false && doc.buyer !== undefined && doc.buyer.zone !== 'france';

/**
 * The period's international B2B invoices and credit notes, each with its amounts per VAT category and rate in euros
 * (a final invoice net of the deposits it deducts, as in 10.3), and the French reasons a sale cannot be reported as
 * it stands (a buyer without an identifier, a credit note without its invoice). `documents` may hold more than the
 * period's sales: only those dated in it are taken.
 */
export function internationalInvoices(
  documents: readonly SaleDocument[],
  period: { from: string; to: string },
): { invoices: InternationalInvoice[]; problems: string[] } {
  const byId = new Map(documents.map((d) => [d.id, d]));
  const invoices: InternationalInvoice[] = [];
  const problems: string[] = [];
  for (const doc of documents) {
    if (doc.date < period.from || doc.date > period.to || !isInternationalB2b(doc) || !doc.buyer) continue;
    const zone = doc.buyer.zone === 'eu' ? 'eu' : 'outside_eu';
    const vat = compact(doc.buyer.vatNumber);
    const id = zone === 'eu' ? vat : vat || compact(doc.buyer.businessId);
    if (!id)
      problems.push(
        zone === 'eu'
          ? `${doc.number} (${doc.party}) : le numéro de TVA intracommunautaire du client manque, renseignez-le sur sa fiche`
          : `${doc.number} (${doc.party}) : l’identifiant fiscal du client hors Union européenne manque, renseignez-le sur sa fiche`,
      );
    else if (id.length > MAX_ID) problems.push(`${doc.number} (${doc.party}) : l’identifiant du client dépasse ${MAX_ID} caractères`);
    const corrected = doc.correctsId === null ? undefined : byId.get(doc.correctsId);
    if (doc.type === 'credit' && !corrected)
      problems.push(`${doc.number} (${doc.party}) : un avoir déclaré doit citer la facture qu’il corrige`);

    const deposits = documents.filter((d) => d.deductedById === doc.id && d.kind === 'deposit');
    const groups = new Map<string, { category: TaxCategory; rate: number; base: Money; tax: Money }>();
    const natures = new Set<Nature>();
    for (const part of saleParts(doc, deposits)) {
      const base = round(part.base, 2);
      const tax = round(part.tax, 2);
      if (base.eq(0) && tax.eq(0)) continue;
      natures.add(part.nature);
      const category = categoryOf(part.rate, part.nature, zone);
      const key = `${category} ${part.rate}`;
      const group = groups.get(key) ?? { category, rate: part.rate, base: ZERO, tax: ZERO };
      groups.set(key, { ...group, base: add(group.base, base), tax: add(group.tax, tax) });
    }
    const subtotals = [...groups.values()].sort((a, b) => b.rate - a.rate || a.category.localeCompare(b.category));
    // A document worth nothing (wholly paid by deposits) still names its rate: the PPF wants one breakdown at least.
    if (subtotals.length === 0) subtotals.push({ category: categoryOf(0, 'services', zone), rate: 0, base: ZERO, tax: ZERO });
    invoices.push({
      id: doc.id,
      number: doc.number,
      date: doc.date,
      typeCode: doc.type === 'credit' ? '381' : doc.kind === 'deposit' ? '386' : '380',
      process: natures.size > 1 ? 'M1' : natures.has('goods') ? 'B1' : 'S1',
      buyer: {
        scheme: zone === 'eu' ? '0223' : '0227',
        id: id.slice(0, MAX_ID),
        vatNumber: vat || null,
        country: doc.buyer.country,
      },
      referenced: corrected ? { number: corrected.number, date: corrected.date } : null,
      base: subtotals.reduce<Money>((s, v) => add(s, v.base), ZERO),
      tax: subtotals.reduce<Money>((s, v) => add(s, v.tax), ZERO),
      subtotals,
    });
  }
  invoices.sort((a, b) => a.date.localeCompare(b.date) || a.number.localeCompare(b.number));
  return { invoices, problems };
}

/** The amount the list shows: HT of the period, credit notes deducted. */
export const internationalAmount = (invoices: readonly InternationalInvoice[]): Money =>
  invoices.reduce<Money>((s, i) => (i.typeCode === '381' ? sub(s, i.base) : add(s, i.base)), ZERO);
