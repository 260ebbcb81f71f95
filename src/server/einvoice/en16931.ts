import type { OperationNature, StoredDocument } from '../../shared/schemas/document-model';
import { paymentAccountOf } from '../../shared/payment-account';
import { hasEinvoice } from '../../shared/document-status';
import { isValidBic, isValidIban } from '../../shared/iban';
import type { Address } from '../../shared/schemas/customer';
import { countryCode } from '../../shared/countries';
import { euVatCountry } from '../../shared/eu-countries';
import { crossBorderExemption, customerZone, hasDistinctShipping, mentionSubject } from '../../shared/legal-mentions';
import { exemptionChoice, exemptionText } from '../../shared/vat-exemptions';
import { FRANCHISE_MENTION } from '../../shared/vat';
import { allocateUnits, INPUT_SCALE, rescale, toUnits4 } from '../../shared/money';
import { formatDateShort } from '../../shared/format';
import { electronicAddressProblem, routingCodeForEinvoice } from '../../shared/einvoice-directory';

/**
 * An issued invoice or credit note as EN 16931 sees it (the semantic model, business terms BT-/BG-), neutral of the
 * syntax: cii.ts and ubl.ts only write it out. Built from what was stored at issue (the parties' snapshots, the lines'
 * amounts, the tax groups, the mentions), never recomputed: the XML says what the PDF says. Amounts are integer units
 * of the currency (10^-precision); rates and quantities integer units of 10^-4.
 */

export type VatCategory = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O';

export interface VatTreatment {
  category: VatCategory;
  /** Units of 10^-4 percent (20 % = 200000n). */
  rate: bigint;
  /** BT-121 (VATEX code list), for the exempt categories. */
  exemptionCode?: string;
  /** BT-120. */
  exemptionReason?: string;
}

export interface EnAddress {
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  subdivision: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface EnParty {
  name: string;
  tradingName?: string;
  /** BT-46: the buyer's routing code in the directory, under scheme 0224 (the French CIUS's private identifier). */
  routingId?: { id: string; scheme: '0224' };
  /** BT-30 / BT-47: the SIREN under scheme 0002, or a foreign registration number without scheme. */
  legalId?: { id: string; scheme?: '0002' };
  /** BT-31 / BT-48. */
  vatNumber?: string;
  /** BT-32: the seller's tax registration (the SIREN of a business under the franchise, which has no VAT number). */
  taxRegistration?: string;
  address: EnAddress;
  /**
   * BT-34 / BT-49, the electronic address invoices are routed to, under scheme 0225 (the directory of the reform) for
   * a French business: the address the directory listed at issue, else the SIREN; else the e-mail address (scheme
   * EM), else the VAT number under its country's scheme.
   */
  endpoint?: { id: string; scheme: string };
  /** BT-43 / BT-58: the contact's e-mail. */
  email?: string;
}

export interface EnLine {
  id: string;
  name: string;
  description?: string;
  sellerId?: string;
  /** Units of 10^-4. Negative for a line that takes something off (its price stays positive: BR-27). */
  quantity: bigint;
  /** UN/ECE recommendation 20. */
  unitCode: string;
  /** BT-146, units of 10^-4, before the line discount. */
  price: bigint;
  /** BG-27 line allowance (the line discount), currency units. */
  allowance: bigint;
  /** BT-131, currency units: the stored excluding-tax amount of the line. */
  net: bigint;
  vat: VatTreatment;
}

export interface EnAllowanceCharge {
  charge: boolean;
  amount: bigint;
  reason: string;
  /** UNTDID 5189 (allowances) or 7161 (charges). */
  reasonCode: string;
  vat: VatTreatment;
}

export interface EnVatBreakdown {
  vat: VatTreatment;
  taxable: bigint;
  amount: bigint;
}

export interface EnNote {
  /**
   * UNTDID 4451 as the French CIUS reads it: PMD late-payment penalties, PMT recovery indemnity, AAB escompte, BAR the
   * processing of the invoice, REG legal identity, TXD tax, AAI general.
   */
  subject?: string;
  text: string;
}

/**
 * BT-23, the « cadre de facturation » of the French CIUS (BR-FR-08): B goods, S services, M both; 1 an ordinary
 * invoice or credit note, 4 a final invoice that deducts deposits (BR-FR-CO-08: never on a deposit invoice itself).
 * The series 2 (already paid at issue: BR-FR-CO-09 then wants the whole amount as prepaid and nothing due) does not
 * arise: payments are recorded on issued invoices only.
 */
export type BillingFrame = `${'B' | 'S' | 'M'}${'1' | '4'}`;

/**
 * The processing the French CIUS names in a BAR note (BR-FR-20): a French business, one abroad, a consumer. A
 * consumer abroad is B2C too: the UBL release of the rules refuses B2CINT, which its CII twin accepts.
 */
export type Processing = 'B2B' | 'B2BINT' | 'B2C';

export interface EnInvoice {
  billingFrame: BillingFrame;
  /** 380 invoice, 381 credit note, 386 deposit invoice. */
  typeCode: '380' | '381' | '386';
  number: string;
  issueDate: string;
  dueDate?: string;
  currency: string;
  /** The currency's decimals: amounts are units of 10^-precision. */
  precision: number;
  notes: EnNote[];
  purchaseOrder?: string;
  /**
   * BG-3, BT-25/BT-26: the invoice a credit note corrects, or the deposit invoices a final invoice deducts (CII
   * holds one reference: the latest deposit; UBL all of them).
   */
  preceding: { number: string; date: string }[];
  seller: EnParty;
  buyer: EnParty;
  /** BG-13: where the goods or services go, when it is not the billing address (and always for an intra-EU supply). */
  delivery?: { name?: string; address?: EnAddress; date?: string };
  /** BG-16: a credit transfer to the seller's IBAN, when the organisation gave one. */
  payment?: { iban: string; bic?: string; reference: string };
  paymentTerms?: string;
  lines: EnLine[];
  allowancesCharges: EnAllowanceCharge[];
  breakdown: EnVatBreakdown[];
  totals: {
    lines: bigint;
    allowances: bigint;
    charges: bigint;
    taxExclusive: bigint;
    tax: bigint;
    taxInclusive: bigint;
    /** BT-113: the deposit invoices a final invoice deducts (their VAT was invoiced by them). */
    prepaid: bigint;
    payable: bigint;
  };
  /** BT-6 / BT-111: the VAT total in the accounting currency, for an invoice in a foreign currency (directive art. 230). */
  taxCurrency?: { code: string; taxTotal: bigint; precision: number };
}

/** What the document alone does not hold: read by services/einvoice-xml.ts, passed in so that this stays pure. */
export interface EnContext {
  nature: OperationNature;
  precision: number;
  /** The invoice a credit note corrects. */
  corrects?: { number: string; date: string } | null;
  /** The deposit invoices a final invoice deducts (TTC). */
  deposits?: readonly { number: string | null; date: string; total: number }[];
  /** The VAT total converted to the accounting currency, when the document is in another one. */
  taxCurrency?: { code: string; taxTotal: bigint; precision: number } | null;
}

/** A stored amount (JSON number, major units) as integer units of the currency. */
const unitsOf = (value: number, precision: number) => rescale(toUnits4(value), INPUT_SCALE, precision);
const sum = (values: Iterable<bigint>) => {
  let total = 0n;
  for (const v of values) total += v;
  return total;
};

/** UN/ECE recommendation 20 codes for the units people type; anything else is a unit (C62). */
const UNIT_CODES: Record<string, string> = {
  u: 'C62',
  unite: 'C62',
  pce: 'C62',
  piece: 'C62',
  h: 'HUR',
  heure: 'HUR',
  heures: 'HUR',
  j: 'DAY',
  jour: 'DAY',
  jours: 'DAY',
  semaine: 'WEE',
  mois: 'MON',
  an: 'ANN',
  forfait: 'LS',
  kg: 'KGM',
  g: 'GRM',
  t: 'TNE',
  m: 'MTR',
  km: 'KMT',
  m2: 'MTK',
  'm²': 'MTK',
  m3: 'MTQ',
  'm³': 'MTQ',
  l: 'LTR',
};
export const unitCode = (unit: string) =>
  UNIT_CODES[
    unit
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .trim()
      .toLowerCase()
  ] ?? 'C62';

function enAddress(a: Address): EnAddress {
  return {
    line1: a.line1.trim(),
    line2: a.line2.trim(),
    postalCode: a.postal_code.trim(),
    city: a.city.trim(),
    subdivision: a.state.trim(),
    // missingMentions refuses to issue with a country it cannot name: 'FR' is the empty country's.
    country: countryCode(a.country) ?? 'FR',
  };
}

const digits = (text: string) => text.replace(/\D/g, '');

/** The electronic address schemes (EAS code list) of the EU member states' VAT numbers, by VAT prefix. */
const VAT_SCHEMES: Record<string, string> = {
  AT: '9914',
  BE: '9925',
  BG: '9926',
  CY: '9928',
  CH: '9927',
  CZ: '9929',
  DE: '9930',
  EE: '9931',
  EL: '9933',
  GB: '9932',
  ES: '9920',
  HR: '9934',
  HU: '9910',
  IE: '9935',
  IT: '9906',
  LT: '9937',
  LU: '9938',
  LV: '9939',
  MT: '9943',
  NL: '9944',
  PL: '9945',
  PT: '9946',
  RO: '9947',
  SE: '9955',
  SI: '9949',
  SK: '9950',
};

/** A business abroad with neither SIREN nor e-mail is reached by its VAT number (BT-49 is required by BR-FR-12). */
function vatEndpoint(vat: string): { id: string; scheme: string } | undefined {
  // A Swiss number is written CHE-123.456.789 (MWST/TVA/IVA): the scheme wants the bare CHE123456789.
  const id = vat.startsWith('CHE') ? vat.replace(/^(CHE[\d.-]*\d)\D*$/, '$1').replace(/[.-]/g, '') : vat;
  const scheme = VAT_SCHEMES[vat.slice(0, 2)];
  return scheme ? { id, scheme } : undefined;
}
const compact = (text: string) => text.replace(/\s+/g, '').toUpperCase();

/** BG-17: the account the seller is paid on (shared/payment-account.ts), when its IBAN and BIC are well-formed. */
export function bankAccount(seller: Parameters<typeof paymentAccountOf>[0]): { iban: string; bic?: string } | undefined {
  const account = paymentAccountOf(seller);
  if (!account || !isValidIban(account.iban)) return undefined;
  return { iban: account.iban, ...(isValidBic(account.bic) ? { bic: account.bic } : {}) };
}

/**
 * The VAT treatment of the lines without VAT, by the same rules as the printed mentions (legal-mentions.ts): the
 * franchise, the cross-border exemptions (intra-EU supply K, reverse charge AE, export G), or the basis the user gave.
 */
function untaxedTreatment(doc: StoredDocument, nature: OperationNature): (kind: 'goods' | 'service') => VatTreatment {
  const franchise = doc.seller?.vat_regime === 'franchise';
  if (franchise) return () => ({ category: 'E', rate: 0n, exemptionCode: 'VATEX-FR-FRANCHISE', exemptionReason: FRANCHISE_MENTION });
  const customer = doc.customer;
  const crossBorder = customer ? crossBorderExemption({ customer, items: doc.items, nature }) : null;
  if (customer && crossBorder) {
    const zone = customerZone(customer);
    // A deposit's lines say "Acompte": its origin's nature decides, unless both kinds are sold.
    const kindOf = (kind: 'goods' | 'service') => (nature === 'mixed' ? kind : nature === 'goods' ? 'goods' : 'service');
    return (kind) => {
      const goods = kindOf(kind) === 'goods';
      if (zone === 'eu')
        return goods
          ? { category: 'K', rate: 0n, exemptionCode: 'VATEX-EU-IC', exemptionReason: exemptionText('intra_eu_goods') }
          : { category: 'AE', rate: 0n, exemptionCode: 'VATEX-EU-AE', exemptionReason: exemptionText('services_eu') };
      return goods
        ? { category: 'G', rate: 0n, exemptionCode: 'VATEX-EU-G', exemptionReason: exemptionText('export') }
        : { category: 'AE', rate: 0n, exemptionCode: 'VATEX-EU-AE', exemptionReason: exemptionText('services_outside_france') };
    };
  }
  const text = doc.vat_exemption.trim();
  // A deposit invoice may be issued without a basis (its final invoice states it): the exemption still needs a reason.
  const reason = text || 'Exonération de TVA';
  const code = exemptionChoice(text) === 'training' ? 'VATEX-FR-CGI261-4' : undefined;
  return () => ({ category: 'E', rate: 0n, exemptionReason: reason, ...(code ? { exemptionCode: code } : {}) });
}

const vatKey = (v: VatTreatment) => `${v.category}:${v.rate}`;

/**
 * What the French CIUS wants said under PMD, PMT and AAB (BR-FR-05) when the document prints no such mention: a
 * credit note owes no payment, a consumer owes no recovery indemnity (C. com. D441-5).
 */
function lateTermsNotes(doc: StoredDocument, present: Set<string>): EnNote[] {
  const credit = doc.type === 'credit';
  const notes: EnNote[] = [];
  if (!present.has('PMD')) notes.push({ subject: 'PMD', text: 'Pénalités de retard : sans objet pour un avoir' });
  if (!present.has('PMT'))
    notes.push({
      subject: 'PMT',
      text: credit
        ? 'Indemnité forfaitaire pour frais de recouvrement : sans objet pour un avoir'
        : 'Indemnité forfaitaire pour frais de recouvrement : non applicable, le client n’est pas un professionnel (C. com. D441-5)',
    });
  if (!present.has('AAB')) notes.push({ subject: 'AAB', text: 'Escompte : sans objet pour un avoir' });
  return notes;
}

export function processingOf(doc: StoredDocument): Processing {
  const c = doc.customer;
  if (c?.type !== 'company') return 'B2C';
  return customerZone(c) === 'france' ? 'B2B' : 'B2BINT';
}

/** The mentions, as EN 16931 notes: the late-payment terms under the subjects BR-FR rules look for. */
function notesOf(doc: StoredDocument, deposits: EnContext['deposits']): EnNote[] {
  const notes: EnNote[] = [{ subject: 'BAR', text: processingOf(doc) }];
  const identity = doc.seller?.identity ?? [];
  if (identity.length > 0) notes.push({ subject: 'REG', text: identity.join(' – ') });
  for (const text of doc.legal_mentions) {
    const subject = mentionSubject(text, doc.seller?.settings?.escompte);
    notes.push(subject ? { subject, text } : { text });
  }
  if (deposits && deposits.length > 0) {
    const list = deposits.map((d) => `n° ${d.number ?? ''} du ${formatDateShort(d.date)}`).join(', ');
    notes.push({ text: `Acomptes déduits : ${deposits.length > 1 ? 'factures' : 'facture'} ${list}` });
  }
  notes.push(...lateTermsNotes(doc, new Set(notes.map((n) => n.subject ?? ''))));
  if (doc.note.trim()) notes.push({ subject: 'AAI', text: doc.note.trim() });
  return notes;
}

function sellerOf(doc: StoredDocument): EnParty {
  const seller = doc.seller;
  if (!seller) throw new Error(`Document ${doc.id} : émis sans l’identité du vendeur`);
  const siren = digits(seller.siret).slice(0, 9);
  const vat = compact(seller.vat_number);
  // BT-34: the organisation's own directory address frozen at issue when the CIUS can carry it, else its SIREN.
  const listed = seller.electronic_address ?? '';
  const own = siren && listed && electronicAddressProblem(siren, listed) === null ? listed : siren;
  return {
    name: seller.name,
    ...(siren ? { legalId: { id: siren, scheme: '0002' as const } } : {}),
    ...(siren
      ? { endpoint: { id: own, scheme: '0225' as const } }
      : seller.email.trim()
        ? { endpoint: { id: seller.email.trim(), scheme: 'EM' as const } }
        : {}),
    ...(vat ? { vatNumber: vat } : siren ? { taxRegistration: siren } : {}),
    address: enAddress(seller.address),
    ...(seller.email.trim() ? { email: seller.email.trim() } : {}),
  };
}

/**
 * BT-49 under scheme 0225: what the directory listed at issue when the e-invoice can carry it (BR-FR-21, BR-FR-23),
 * else the SIREN itself; with the routing code as BT-46.
 */
function directoryEndpoint(siren: string, c: NonNullable<StoredDocument['customer']>) {
  const listed = c.electronic_address ?? '';
  if (!listed || electronicAddressProblem(siren, listed) !== null) return { endpoint: { id: siren, scheme: '0225' } };
  const routing = routingCodeForEinvoice(c.routing_code ?? '');
  return { endpoint: { id: listed, scheme: '0225' }, ...(routing ? { routingId: { id: routing, scheme: '0224' as const } } : {}) };
}

/**
 * BR-FR-12 wants a BT-49 on every invoice. A consumer (or a business abroad) with neither e-mail nor a VAT number
 * the EAS list knows has no address of its own: no platform routes to it (its sale is e-reported, the invoice handed
 * over by the seller), so the seller's own address stands there, the one place the invoice may be delivered.
 */
function buyerOf(doc: StoredDocument, sellerEndpoint: EnParty['endpoint']): EnParty {
  const c = doc.customer;
  if (!c) throw new Error(`Document ${doc.id} : émis sans client`);
  const address = enAddress(c.address);
  const taxId = compact(c.vat_number);
  // A VAT number carries its country's prefix (BR-CO-09); outside the EU the customer's tax id may be none (a US
  // EIN, CGI art. 259-1): it then identifies the buyer as its registration number (BT-47), never as a VAT number.
  const isVatNumber = taxId !== '' && (euVatCountry(taxId) !== undefined || taxId.slice(0, 2) === address.country);
  const vat = isVatNumber ? taxId : '';
  const id = c.business_id.trim() || (isVatNumber ? '' : c.vat_number.trim());
  const siren = digits(id);
  const legalId =
    address.country === 'FR' && (siren.length === 9 || siren.length === 14)
      ? { id: siren.slice(0, 9), scheme: '0002' as const }
      : id
        ? { id }
        : undefined;
  const legalName = c.legal_name.trim();
  const email = c.email?.trim();
  const routed =
    legalId?.scheme === '0002'
      ? directoryEndpoint(legalId.id, c)
      : { endpoint: email ? { id: email, scheme: 'EM' } : (vatEndpoint(vat) ?? sellerEndpoint) };
  const endpoint = routed.endpoint;
  return {
    name: legalName || c.name,
    ...(endpoint ? { endpoint } : {}),
    ...('routingId' in routed && routed.routingId ? { routingId: routed.routingId } : {}),
    ...(legalName && legalName !== c.name ? { tradingName: c.name } : {}),
    ...(legalId ? { legalId } : {}),
    ...(vat ? { vatNumber: vat } : {}),
    address,
    ...(c.email?.trim() ? { email: c.email.trim() } : {}),
  };
}

/** EN 16931 from an issued invoice or credit note. Throws on a draft or on another type: nothing to say for them. */
export function toEn16931(doc: StoredDocument, ctx: EnContext): EnInvoice {
  if (!hasEinvoice(doc.type)) throw new Error(`Document ${doc.id} : ni facture ni avoir`);
  if (!doc.number) throw new Error(`Document ${doc.id} : brouillon sans numéro`);
  const p = ctx.precision;
  const u = (value: number) => unitsOf(value, p);
  const untaxed = untaxedTreatment(doc, ctx.nature);

  const lines: EnLine[] = doc.items.map((item, i) => {
    const tax = item.taxes[0];
    const vat: VatTreatment = tax && tax.rate > 0 ? { category: 'S', rate: toUnits4(tax.rate) } : untaxed(item.kind);
    const net = u(item.gross_total);
    const allowance = u(item.discount);
    const quantity = toUnits4(item.quantity);
    const price = toUnits4(item.price);
    // BR-27: a price is never negative; a line that takes something off has a negative quantity instead.
    const flip = price < 0n;
    return {
      id: String(i + 1),
      name: item.item,
      ...(item.description.trim() ? { description: item.description.trim() } : {}),
      ...(item.sku?.trim() || item.code?.trim() ? { sellerId: (item.sku?.trim() || item.code?.trim()) as string } : {}),
      quantity: flip ? -quantity : quantity,
      unitCode: unitCode(item.unit),
      price: flip ? -price : price,
      allowance,
      net,
      vat,
    };
  });

  // The VAT groups as stored (one per rate: titles of the same rate are one EN 16931 group).
  const groups = new Map<string, EnVatBreakdown>();
  const group = (vat: VatTreatment) => {
    const key = vatKey(vat);
    let g = groups.get(key);
    if (!g) {
      g = { vat, taxable: 0n, amount: 0n };
      groups.set(key, g);
    }
    return g;
  };
  for (const t of doc.totals.taxes) {
    if (t.rate <= 0) continue;
    const g = group({ category: 'S', rate: toUnits4(t.rate) });
    g.taxable += u(t.taxable_amount);
    g.amount += u(t.amount);
  }

  // Shipping (BT-99 charges, always excluding tax): one charge per rate it was apportioned to (the parts kept in the
  // VAT groups), the rest with the untaxed lines' treatment; a document saved before the parts were kept has one
  // charge at its stored rate.
  const shipping = u(doc.totals.shipping);
  const untaxedShipping = untaxed(doc.items.some((i) => i.kind === 'goods') ? 'goods' : 'service');
  const shippingCharges: { vat: VatTreatment; amount: bigint }[] = [];
  if (shipping !== 0n) {
    if (doc.totals.taxes.some((t) => t.shipping !== undefined)) {
      let rest = shipping;
      for (const t of doc.totals.taxes) {
        if (t.rate <= 0 || !t.shipping) continue;
        const amount = u(t.shipping);
        shippingCharges.push({ vat: { category: 'S', rate: toUnits4(t.rate) }, amount });
        rest -= amount;
      }
      if (rest !== 0n) shippingCharges.push({ vat: untaxedShipping, amount: rest });
    } else {
      const vat: VatTreatment =
        doc.shipping_tax && doc.shipping_tax.rate > 0 ? { category: 'S', rate: toUnits4(doc.shipping_tax.rate) } : untaxedShipping;
      shippingCharges.push({ vat, amount: shipping });
    }
  }

  // Before the document discount, per VAT treatment: the lines, and shipping.
  const gross = new Map<string, { vat: VatTreatment; amount: bigint }>();
  const addGross = (vat: VatTreatment, amount: bigint) => {
    const entry = gross.get(vatKey(vat)) ?? { vat, amount: 0n };
    entry.amount += amount;
    gross.set(vatKey(vat), entry);
  };
  for (const line of lines) addGross(line.vat, line.net);
  for (const charge of shippingCharges) addGross(charge.vat, charge.amount);

  // The document discount, per treatment, as totals.ts spread it: for a taxed rate, what the stored base lacks;
  // the rest goes to the untaxed treatments, in proportion to their lines (one bucket in totals.ts).
  const discount = u(doc.totals.discount);
  const allowances = new Map<string, bigint>();
  for (const [key, entry] of gross) {
    if (entry.vat.category !== 'S') continue;
    allowances.set(key, entry.amount - (groups.get(key)?.taxable ?? 0n));
  }
  const untaxedKeys = [...gross.keys()].filter((k) => gross.get(k)?.vat.category !== 'S');
  const untaxedDiscount = discount - sum(allowances.values());
  const lineWeights = untaxedKeys.map((k) => sum(lines.filter((l) => vatKey(l.vat) === k).map((l) => l.net)));
  const shares = untaxedKeys.length > 0 ? allocateUnits(untaxedDiscount, lineWeights) : [];
  untaxedKeys.forEach((key, i) => {
    const entry = gross.get(key);
    if (!entry) return;
    const share = shares[i] ?? 0n;
    allowances.set(key, share);
    const g = group(entry.vat);
    g.taxable += entry.amount - share;
  });

  const allowancesCharges: EnAllowanceCharge[] = [];
  for (const [key, amount] of allowances) {
    const vat = gross.get(key)?.vat;
    if (vat && amount !== 0n) allowancesCharges.push({ charge: false, amount, reason: 'Remise', reasonCode: '95', vat });
  }
  for (const c of shippingCharges)
    allowancesCharges.push({ charge: true, amount: c.amount, reason: 'Frais de port', reasonCode: 'FC', vat: c.vat });

  const totals = doc.totals;
  const total = u(totals.total);
  const prepaid = doc.type === 'invoice' ? u(totals.deposits) : 0n;
  const customer = doc.customer;
  const intraEu = lines.some((l) => l.vat.category === 'K');
  const distinct = customer ? hasDistinctShipping(customer) : false;
  const deliveryDate = doc.sale_date ?? (intraEu ? doc.date : undefined);
  const delivery =
    distinct || intraEu || deliveryDate
      ? {
          ...(distinct || intraEu
            ? {
                name: customer?.name,
                address: enAddress(
                  distinct && customer ? customer.shipping : (customer?.address ?? doc.seller?.address ?? ({} as Address)),
                ),
              }
            : {}),
          ...(deliveryDate ? { date: deliveryDate } : {}),
        }
      : undefined;
  const account = doc.seller ? bankAccount(doc.seller) : undefined;
  const terms = [doc.condition.trim(), doc.terms.trim()].filter(Boolean).join(' – ');
  const creditTerms = doc.type === 'credit' && ctx.corrects ? `Avoir sur la facture n° ${ctx.corrects.number}` : '';
  const paymentTerms = terms || creditTerms || (doc.maturity ? `Paiement au plus tard le ${formatDateShort(doc.maturity)}` : '');

  const typeCode = doc.type === 'credit' ? '381' : doc.kind === 'deposit' ? '386' : '380';
  const seller = sellerOf(doc);
  const deducted = (ctx.deposits ?? []).filter((d): d is typeof d & { number: string } => Boolean(d.number));
  const preceding =
    doc.type === 'credit' ? (ctx.corrects ? [ctx.corrects] : []) : deducted.map((d) => ({ number: d.number, date: d.date }));
  return {
    billingFrame: `${ctx.nature === 'goods' ? 'B' : ctx.nature === 'services' ? 'S' : 'M'}${typeCode === '380' && deducted.length > 0 ? '4' : '1'}`,
    typeCode,
    number: doc.number,
    issueDate: doc.date,
    ...(doc.maturity && doc.type === 'invoice' ? { dueDate: doc.maturity } : {}),
    currency: doc.currency,
    precision: p,
    notes: notesOf(doc, ctx.deposits),
    ...(doc.purchase_order.trim() ? { purchaseOrder: doc.purchase_order.trim() } : {}),
    preceding,
    seller,
    buyer: buyerOf(doc, seller.endpoint),
    ...(delivery ? { delivery } : {}),
    ...(account ? { payment: { ...account, reference: doc.number } } : {}),
    ...(paymentTerms ? { paymentTerms } : {}),
    lines,
    allowancesCharges,
    breakdown: [...groups.values()].sort((a, b) =>
      a.vat.category === b.vat.category ? (a.vat.rate < b.vat.rate ? -1 : 1) : a.vat.category < b.vat.category ? -1 : 1,
    ),
    totals: {
      lines: sum(lines.map((l) => l.net)),
      allowances: discount,
      charges: shipping,
      taxExclusive: u(totals.subtotal) - discount + shipping,
      tax: sum([...groups.values()].map((g) => g.amount)),
      taxInclusive: total,
      prepaid,
      payable: total - prepaid,
    },
    ...(ctx.taxCurrency ? { taxCurrency: ctx.taxCurrency } : {}),
  };
}
