import type { XmlDocument } from 'libxml2-wasm';
import { add, money, toDecimalString } from '../../shared/money';
import { type EinvoiceSyntax, syntaxArtefacts } from './artefacts';
import { parseInvoice } from './xml-checks';
import { EINVOICE_XML_MAX_BYTES, EINVOICE_XML_MAX_LABEL } from './xml-size';

/** What an expense takes from a supplier's EN 16931 invoice (CII or UBL), amounts as exact decimal strings. */
export type SupplierInvoice = {
  syntax: EinvoiceSyntax;
  number: string;
  issueDate: string;
  dueDate: string | null;
  supplier: string;
  /** BT-30 (or BT-29) when its scheme is 0002 (SIREN) or 0009 (SIRET); another scheme is no French company number. */
  supplierSiren: string;
  supplierVatNumber: string;
  /** BT-40, the seller's country (ISO alpha-2), '' when absent. */
  supplierCountry: string;
  currency: string;
  /** BT-113, what was paid before the invoice ('0' when absent). */
  prepaid: string;
  /** BT-20, the payment terms as written ('' when absent). */
  paymentTerms: string;
  /** BT-112, the invoice total with VAT. */
  total: string;
  /** BG-23, the VAT breakdown, one line per rate (categories at the same rate, e.g. Z and E at 0 %, are summed). */
  vat: { rate: string; amount: string }[];
  /** A credit note (BT-3 a credit note code, or a UBL CreditNote): its amounts, positive, come off the expenses. */
  kind: 'expense' | 'credit_note';
  /** BT-25, the number of the invoice a credit note corrects ('' when the file does not say). */
  precedingInvoiceNumber: string;
};

const CII_NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};
const UBL_NS = {
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
};
/** UNTDID 1001 codes of credit notes (EN 16931 BT-3): a supplier's credit, imported as an « avoir fournisseur ». */
const CREDIT_NOTE_TYPES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);
/** ISO 6523 schemes of a French company number: 0002 SIREN, 0009 SIRET. */
const FRENCH_COMPANY = "@schemeID='0002' or @schemeID='0009'";

export class SupplierInvoiceError extends Error {}

const refuse = (message: string): never => {
  throw new SupplierInvoiceError(message);
};

type Reader = (xpath: string) => string;

function reader(doc: XmlDocument, namespaces: Record<string, string>): Reader {
  return (xpath) => {
    const value = doc.eval(`normalize-space(${xpath})`, namespaces);
    return typeof value === 'string' ? value : '';
  };
}

/** CII dates are `102` (AAAAMMJJ); anything else is left for the user to type. */
function ciiDate(text: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}
const isoDate = (text: string): string | null => (/^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null);

function amount(label: string, text: string): string {
  if (!/^-?\d+(\.\d+)?$/.test(text)) refuse(`${label} : montant illisible dans la facture (« ${text || 'absent'} »)`);
  return toDecimalString(money(text));
}

/** Merges the breakdown's lines by rate: the expense keeps one VAT amount per rate. */
function byRate(lines: { rate: string; amount: string }[]): { rate: string; amount: string }[] {
  const merged = new Map<string, string>();
  for (const line of lines) {
    const rate = toDecimalString(money(line.rate));
    merged.set(rate, toDecimalString(add(merged.get(rate) ?? 0, line.amount)));
  }
  return [...merged].map(([rate, vat]) => ({ rate, amount: vat }));
}

function readCii(doc: XmlDocument): SupplierInvoice {
  const read = reader(doc, CII_NS);
  const type = read('/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:TypeCode');
  const agreement = '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement';
  const settlement = '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement';
  const seller = `${agreement}/ram:SellerTradeParty`;
  const currency = read(`${settlement}/ram:InvoiceCurrencyCode`);
  const taxes = doc.find(`${settlement}/ram:ApplicableTradeTax`, CII_NS).map((_, i) => {
    const at = `${settlement}/ram:ApplicableTradeTax[${i + 1}]`;
    return {
      rate: amount('Taux de TVA', read(`${at}/ram:RateApplicablePercent`) || '0'),
      amount: amount('Montant de TVA', read(`${at}/ram:CalculatedAmount`)),
    };
  });
  return {
    syntax: 'cii',
    number: read('/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID'),
    issueDate: ciiDate(read('/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString')) ?? '',
    dueDate: ciiDate(read(`${settlement}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString`)),
    supplier: read(`${seller}/ram:Name`),
    supplierSiren: read(`${seller}/ram:SpecifiedLegalOrganization/ram:ID[${FRENCH_COMPANY}]`),
    supplierVatNumber: read(`${seller}/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA']`),
    supplierCountry: read(`${seller}/ram:PostalTradeAddress/ram:CountryID`).toUpperCase(),
    currency,
    total: amount('Montant TTC', read(`${settlement}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount`)),
    prepaid: amount('Déjà payé', read(`${settlement}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TotalPrepaidAmount`) || '0'),
    paymentTerms: read(`(${settlement}/ram:SpecifiedTradePaymentTerms/ram:Description)[1]`).slice(0, 500),
    vat: byRate(taxes),
    kind: CREDIT_NOTE_TYPES.has(type) ? 'credit_note' : 'expense',
    precedingInvoiceNumber: read(`(${settlement}/ram:InvoiceReferencedDocument/ram:IssuerAssignedID)[1]`),
  };
}

function readUbl(doc: XmlDocument): SupplierInvoice {
  const read = reader(doc, UBL_NS);
  const creditNote = doc.root.name === 'CreditNote' || CREDIT_NOTE_TYPES.has(read('/*/cbc:InvoiceTypeCode'));
  const party = '/*/cac:AccountingSupplierParty/cac:Party';
  const currency = read('/*/cbc:DocumentCurrencyCode');
  const companyId =
    read(`${party}/cac:PartyLegalEntity/cbc:CompanyID[${FRENCH_COMPANY}]`) ||
    read(`${party}/cac:PartyIdentification/cbc:ID[${FRENCH_COMPANY}]`);
  // The breakdown: EN 16931 puts it in the one TaxTotal in the invoice's currency (a second TaxTotal, in the
  // accounting currency, carries only its total).
  const breakdown = '(/*/cac:TaxTotal[cac:TaxSubtotal])[1]/cac:TaxSubtotal';
  const taxes = doc.find(breakdown, UBL_NS).map((_, i) => {
    const at = `(${breakdown})[${i + 1}]`;
    return {
      rate: amount('Taux de TVA', read(`${at}/cac:TaxCategory/cbc:Percent`) || '0'),
      amount: amount('Montant de TVA', read(`${at}/cbc:TaxAmount`)),
    };
  });
  return {
    syntax: 'ubl',
    number: read('/*/cbc:ID'),
    issueDate: isoDate(read('/*/cbc:IssueDate')) ?? '',
    dueDate: isoDate(read('/*/cbc:DueDate')) ?? isoDate(read('(/*/cac:PaymentMeans/cbc:PaymentDueDate)[1]')),
    supplier: read(`${party}/cac:PartyLegalEntity/cbc:RegistrationName`) || read(`${party}/cac:PartyName/cbc:Name`),
    supplierSiren: companyId,
    supplierVatNumber: read(`${party}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID`),
    supplierCountry: read(`${party}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`).toUpperCase(),
    currency,
    total: amount('Montant TTC', read('/*/cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')),
    prepaid: amount('Déjà payé', read('/*/cac:LegalMonetaryTotal/cbc:PrepaidAmount') || '0'),
    paymentTerms: read('(/*/cac:PaymentTerms/cbc:Note)[1]').slice(0, 500),
    vat: byRate(taxes),
    kind: creditNote ? 'credit_note' : 'expense',
    precedingInvoiceNumber: read('(/*/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID)[1]'),
  };
}

/** Which EN 16931 syntax a parsed document is, by its root element; null for any other XML. */
function syntaxOf(doc: XmlDocument): EinvoiceSyntax | null {
  const root = doc.root;
  for (const syntax of ['cii', 'ubl'] as const) {
    if (syntaxArtefacts[syntax].roots.some((r) => r.namespace === root.namespaceUri && r.name === root.name)) return syntax;
  }
  return null;
}

/**
 * Reads a supplier's invoice with libxml2 (no DTD, no entity expansion, no network) and takes from it what an
 * expense needs — a credit note too, told apart by `kind`. Throws a SupplierInvoiceError, in French, for unreadable
 * XML, another kind of document or an invoice without its total.
 */
export async function readSupplierInvoice(xml: string): Promise<SupplierInvoice> {
  // Size before parse: libxml2 builds a tree several times the text's size.
  if (Buffer.byteLength(xml) > EINVOICE_XML_MAX_BYTES) return refuse(`La facture dépasse ${EINVOICE_XML_MAX_LABEL} : elle n’a pas été lue`);
  const parsed = await parseInvoice(xml);
  if ('problems' in parsed) {
    const first = parsed.problems[0];
    const where = first && first.line > 0 ? ` (ligne ${first.line})` : '';
    return refuse(`Le fichier n’est pas un XML lisible${where} : ${first?.message ?? 'erreur inconnue'}`);
  }
  const { doc } = parsed;
  try {
    const syntax = syntaxOf(doc);
    if (!syntax)
      return refuse(
        `Ce XML n’est pas une facture électronique : élément racine ${doc.root.name} (attendu CrossIndustryInvoice pour CII, Invoice pour UBL)`,
      );
    return syntax === 'cii' ? readCii(doc) : readUbl(doc);
  } finally {
    doc.dispose();
  }
}
