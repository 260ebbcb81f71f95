import type { OrganizationSettings } from './schemas/organization';
import type { AppSettings } from './schemas/settings';
import type { Address } from './schemas/customer';
import type { DocumentType } from './schemas/document';
import type { OperationNature } from './schemas/document-model';
import { formatDecimal } from './format';
import { countryZone, euVatCountry, type CountryZone } from './eu-countries';
import { countryCode } from './countries';
import { exemptionText } from './vat-exemptions';
import { FRANCHISE_MENTION, offersVat } from './vat';
import { DOCUMENT_TYPE_TABLE } from './document-types';

/**
 * What French law asks of an invoice or credit note (CGI art. 242 nonies A, annexe II; C. com. L441-9) and of the
 * e-invoicing reform (mentions due from September 2026). Pure: the server refuses to issue without them, the
 * renderer prints them. The customer side is what the document was issued with (its snapshot).
 */
export interface MentionCustomer {
  type: 'company' | 'individual';
  name: string;
  business_id: string;
  vat_number: string;
  address: Address;
  shipping: Address;
}

export interface MentionLine {
  item: string;
  kind?: 'goods' | 'service';
  taxes?: readonly { rate: number }[];
}

export interface MentionInput {
  type: DocumentType;
  organization: OrganizationSettings;
  settings: Pick<AppSettings, 'late_penalty_rate' | 'recovery_indemnity' | 'escompte'>;
  customer: MentionCustomer | null;
  date: string;
  maturity: string | null | undefined;
  items: readonly MentionLine[];
  /** The invoice a credit note corrects. */
  corrects_number?: string | null;
  /** The legal basis the user gave for lines without VAT. */
  vat_exemption?: string;
  /** Deposit invoices take their lines from an estimate or order: their final invoice is the one checked. */
  kind?: 'standard' | 'deposit';
  /** The nature when the lines do not tell it: a deposit invoice's is its origin's (see documentNature on the server). */
  nature?: OperationNature;
}

const NO_ESCOMPTE = "Pas d'escompte pour paiement anticipé";
const PENALTIES = 'En cas de retard de paiement, pénalités au taux annuel de';
const INDEMNITY = 'Indemnité forfaitaire pour frais de recouvrement';

const COMPANY_FORMS = /^(SARL|SAS|SASU|SA|EURL|SNC|SCA|SCS|SELARL|SELAS|SELAFA|SCOP)\b/i;
const hasAddress = (a: Address) => Boolean(a.line1.trim() && a.postal_code.trim() && a.city.trim());
const sameAddress = (a: Address, b: Address) =>
  (['line1', 'line2', 'postal_code', 'city', 'country'] as const).every((k) => a[k].trim().toLowerCase() === b[k].trim().toLowerCase());

/**
 * A delivery address is printed only when it is filled and differs from the billing address. `shipping` is the
 * document's own delivery address, as the document's customer party carries it (shared/schemas/document-parties.ts).
 */
export const hasDistinctShipping = (c: Pick<MentionCustomer, 'address' | 'shipping'>) =>
  hasAddress(c.shipping) && !sameAddress(c.address, c.shipping);

/** The delivery address a document starts with: its customer's shipping address when that differs from their billing one. */
export const defaultDeliveryAddress = (c: Pick<MentionCustomer, 'address' | 'shipping'> | null | undefined): Address | null =>
  c && hasDistinctShipping(c) ? c.shipping : null;

/** Goods, services or both: the "nature de l'opération" of the 2026 e-invoicing mentions. */
export function operationNature(items: readonly MentionLine[]): OperationNature {
  const kinds = new Set(items.map((i) => i.kind ?? 'service'));
  if (kinds.size > 1) return 'mixed';
  return kinds.has('goods') ? 'goods' : 'services';
}
const natureOf = (input: Pick<MentionInput, 'items' | 'nature'>) => input.nature ?? operationNature(input.items);
const NATURE_LABELS = {
  goods: 'Livraison de biens',
  services: 'Prestation de services',
  mixed: 'Livraison de biens et prestation de services',
} as const;

/** The French list of what is missing to issue this document; empty when it may be issued. */
export function missingMentions(input: MentionInput): string[] {
  const missing: string[] = [];
  const items = input.items.filter((i) => i.item.trim());
  if (input.items.length === 0) missing.push('au moins une ligne');
  if (items.length < input.items.length) missing.push('la désignation de chaque ligne');
  if (!input.customer) missing.push('le client');
  if (!DOCUMENT_TYPE_TABLE[input.type].legalRecord) return missing;

  const org = input.organization;
  if (!org.name.trim()) missing.push('le nom de votre entreprise (Paramètres → Infos de l’entreprise)');
  if (!hasAddress(org.address)) missing.push('l’adresse de votre entreprise (Paramètres → Infos de l’entreprise)');
  if (!org.siret.trim()) missing.push('le SIREN ou SIRET de votre entreprise (Paramètres → Infos de l’entreprise)');
  if (!org.legal_form.trim()) missing.push('la forme juridique de votre entreprise (EI, SARL, SAS…) (Paramètres → Infos de l’entreprise)');
  if (org.vat_regime === 'normal' && !org.vat_number.trim())
    missing.push('le numéro de TVA intracommunautaire de votre entreprise (Paramètres → Infos de l’entreprise)');
  // Companies state their share capital and their registration (C. com. R123-237): at the RCS, or at the RM for an
  // artisan company (some are at both).
  if (COMPANY_FORMS.test(org.legal_form.trim())) {
    if (!org.capital.trim()) missing.push('le capital social de votre entreprise (Paramètres → Infos de l’entreprise)');
    if (!org.rcs_city.trim() && !org.rm_registration.trim())
      missing.push(
        'l’immatriculation de votre entreprise : la ville du RCS, ou le RM pour un artisan (Paramètres → Infos de l’entreprise)',
      );
  }
  const taxed = input.items.some((i) => (i.taxes ?? []).some((t) => t.rate > 0));
  // VAT shown on an invoice is owed (CGI art. 283-3): under the franchise no line carries any.
  if (org.vat_regime === 'franchise' && taxed)
    missing.push('des lignes sans TVA : sous la franchise en base (art. 293 B du CGI), retirez la TVA des lignes');
  // A line without VAT states why (CGI art. 242 nonies A, 13°), unless the cross-border rules already say it.
  const untaxedLines = input.items.some((i) => i.item.trim() && !(i.taxes ?? []).some((t) => t.rate > 0));
  if (
    org.vat_regime === 'normal' &&
    input.kind !== 'deposit' &&
    untaxedLines &&
    !(input.vat_exemption ?? '').trim() &&
    !crossBorderExemption(input)
  ) {
    missing.push(
      'la raison de l’exonération des lignes sans TVA (champ « Exonération de TVA » du document, ex. « Exonération de TVA, art. 261-4-4° du CGI »)',
    );
  }
  if (input.type === 'invoice' && !input.maturity) missing.push('la date d’échéance');
  if (input.type === 'credit' && !input.corrects_number) missing.push('la facture que l’avoir corrige');

  const c = input.customer;
  if (c) {
    if (!c.name.trim()) missing.push('le nom du client');
    if (!hasAddress(c.address)) missing.push('l’adresse de facturation du client (fiche client)');
    // 2026 reform: the SIREN of a French business customer is a mandatory mention.
    if (c.type === 'company' && countryZone(c.address.country) === 'france' && !c.business_id.trim())
      missing.push('le SIREN du client (fiche client)');
    // A sale without VAT to a business of another member state rests on its VAT number (reverse charge,
    // intra-community supply). Outside the EU there is no such number to ask for: a local tax id is optional.
    const untaxed = input.items.length > 0 && !input.items.some((i) => (i.taxes ?? []).some((t) => t.rate > 0));
    if (org.vat_regime === 'normal' && c.type === 'company' && customerZone(c) === 'eu' && untaxed && !hasOtherEuVatNumber(c)) {
      missing.push('le numéro de TVA intracommunautaire du client (vente sans TVA à une entreprise d’un autre État de l’UE)');
    }
  }
  if (DOCUMENT_TYPE_TABLE[input.type].einvoice) missing.push(...einvoiceMissing(input));
  return missing;
}

/**
 * What an EN 16931 invoice needs beyond the printed mentions (the XML is generated and validated at issue): countries
 * it can write as ISO codes, one VAT rate per line, and the customer's identifier under reverse charge (BR-AE-02).
 */
function einvoiceMissing(input: MentionInput): string[] {
  const missing: string[] = [];
  const org = input.organization;
  if (org.address.country.trim() && !countryCode(org.address.country))
    missing.push(
      `un pays reconnu pour votre entreprise (« ${org.address.country.trim()} » : écrivez-le en toutes lettres, ex. France, ou son code ISO FR) (Paramètres → Infos de l’entreprise)`,
    );
  const c = input.customer;
  if (c?.address.country.trim() && !countryCode(c.address.country))
    missing.push(
      `un pays reconnu pour le client (« ${c.address.country.trim()} » : écrivez-le en toutes lettres, ex. Belgique, ou son code ISO BE) (fiche client)`,
    );
  if (c && hasDistinctShipping(c) && c.shipping.country.trim() && !countryCode(c.shipping.country))
    missing.push(`un pays reconnu pour l’adresse de livraison (« ${c.shipping.country.trim()} » : ex. Belgique, ou son code ISO BE)`);
  if (input.items.some((i) => i.item.trim() && (i.taxes ?? []).length > 1))
    missing.push('une seule TVA par ligne : la facture électronique (EN 16931) ne porte qu’un taux par ligne');
  // Reverse charge outside the EU (CGI art. 259-1): EN 16931 names the customer by its VAT or registration number.
  if (
    c &&
    offersVat(org) &&
    c.type === 'company' &&
    customerZone(c) === 'outside_eu' &&
    natureOf(input) !== 'goods' &&
    crossBorderExemption(input) &&
    !c.vat_number.trim() &&
    !c.business_id.trim()
  )
    missing.push(
      'le numéro de TVA ou d’immatriculation du client (autoliquidation hors de France : la facture électronique EN 16931 l’exige) (fiche client)',
    );
  return missing;
}

/**
 * The EN 16931 note subject (UNTDID 4451) of a printed mention, as the French CIUS reads them (BR-FR-05): PMD the
 * late-payment penalties, PMT the recovery indemnity, AAB the escompte; undefined for the others.
 */
export function mentionSubject(text: string, escompte?: string): 'PMT' | 'PMD' | 'AAB' | undefined {
  if (text.startsWith(PENALTIES)) return 'PMD';
  if (text.startsWith(INDEMNITY)) return 'PMT';
  if (text === NO_ESCOMPTE || (escompte?.trim() && text === escompte.trim())) return 'AAB';
  return undefined;
}

/** The mentions printed at the foot of an issued invoice or credit note, in French, in a stable order. */
export function legalMentionTexts(input: MentionInput): string[] {
  if (!DOCUMENT_TYPE_TABLE[input.type].legalRecord) return [];
  const org = input.organization;
  const texts: string[] = [];
  const business = input.customer?.type === 'company';
  if (input.type === 'credit' && input.corrects_number) texts.push(`Avoir se rapportant à la facture n° ${input.corrects_number}`);
  texts.push(`Nature de l’opération : ${NATURE_LABELS[natureOf(input)]}`);
  if (!offersVat(org)) texts.push(FRANCHISE_MENTION);
  else {
    const exemption = crossBorderExemption(input);
    if (exemption) texts.push(exemption);
    // The same basis chosen in the editor is printed once, and only where a line goes without VAT: a partial credit
    // note copies its invoice's basis but may credit only taxed lines, and would then state an exemption it has not.
    const chosen = input.vat_exemption?.trim();
    const untaxedLine = input.items.some((i) => !(i.taxes ?? []).some((t) => t.rate > 0));
    if (chosen && chosen !== exemption && (input.type !== 'credit' || untaxedLine)) texts.push(chosen);
  }
  if (org.vat_on_debits) texts.push('Option pour le paiement de la taxe d’après les débits');
  if (input.type === 'invoice') {
    texts.push(input.settings.escompte.trim() || NO_ESCOMPTE);
    texts.push(`${PENALTIES} ${formatDecimal(input.settings.late_penalty_rate, 2)} % (C. com. L441-10)`);
    // C. com. D441-5: owed by business customers only.
    if (business) texts.push(`${INDEMNITY} en cas de retard de paiement : ${formatDecimal(input.settings.recovery_indemnity, 2)} €`);
  }
  return texts;
}

/** The seller's identity line: name, legal form, capital, SIREN/SIRET, RCS and/or RM, VAT number. */
export function sellerIdentity(org: OrganizationSettings): string[] {
  const lines = [[org.name, org.legal_form].filter(Boolean).join(' ')];
  // A bare amount ('5000') is in euros: say so.
  if (org.capital.trim()) lines.push(`Capital de ${org.capital.trim()}${/^[\d\s.,]+$/.test(org.capital.trim()) ? ' €' : ''}`);
  const siren = org.siret.replace(/\D/g, '');
  if (siren) lines.push(`${siren.length === 14 ? 'SIRET' : 'SIREN'} ${siren}`);
  if (org.rcs_city.trim()) lines.push(`RCS ${org.rcs_city.trim()}`);
  // Répertoire des métiers (artisans): typed as the chamber gives it, 'RM' added when left out.
  const rm = org.rm_registration.trim();
  if (rm) lines.push(/^RM\b/i.test(rm) ? rm : `RM ${rm}`);
  if (org.vat_number.trim()) lines.push(`TVA intracommunautaire ${org.vat_number.trim()}`);
  return lines;
}

/**
 * Where the customer is established, for VAT. A VAT number of another member state places a customer whose country
 * was left at its default (France) in that state.
 */
export function customerZone(c: Pick<MentionCustomer, 'address' | 'vat_number'>): CountryZone {
  const zone = countryZone(c.address.country);
  const vatCountry = euVatCountry(c.vat_number);
  return zone === 'france' && vatCountry && vatCountry.code !== 'FR' ? 'eu' : zone;
}

/** How a customer's tax number is introduced on a document: outside the EU it is their country's own tax id. */
export const taxIdLabel = (c: Pick<MentionCustomer, 'address' | 'vat_number'>) =>
  customerZone(c) === 'outside_eu' ? 'Identifiant fiscal' : 'TVA';

/** Whether the customer holds the VAT number of another member state (the condition of the EU exemptions). */
export const hasOtherEuVatNumber = (c: Pick<MentionCustomer, 'vat_number'>) => {
  const vatCountry = euVatCountry(c.vat_number);
  return vatCountry !== undefined && vatCountry.code !== 'FR';
};

/**
 * The legal basis printed when no line carries VAT because the customer is abroad (a French rate on the invoice
 * means the seller charged it: nothing then):
 * - a business of another member state, with its VAT number: exempt intra-community supply of goods (CGI art. 262
 *   ter I), reverse charge for services (CGI art. 283-2, directive 2006/112/CE art. 196);
 * - outside the EU: goods leave the EU as an export (CGI art. 262 I), whoever buys them; services to a business are
 *   supplied where it is established (CGI art. 259-1), the customer pays the VAT there. Services to an individual
 *   outside the EU are not covered here: the user states their basis.
 */
export function crossBorderExemption(input: Pick<MentionInput, 'customer' | 'items' | 'nature'>): string | null {
  const c = input.customer;
  if (!c) return null;
  if (input.items.some((i) => (i.taxes ?? []).some((t) => t.rate > 0))) return null;
  const nature = natureOf(input);
  const zone = customerZone(c);
  const business = c.type === 'company';
  if (zone === 'eu' && business && hasOtherEuVatNumber(c)) {
    if (nature === 'goods') return exemptionText('intra_eu_goods');
    if (nature === 'services') return exemptionText('services_eu');
    return 'Exonération de TVA, art. 262 ter I du CGI, pour les biens ; autoliquidation par le preneur, art. 283-2 du CGI, pour les services';
  }
  if (zone !== 'outside_eu') return null;
  if (nature === 'goods') return exemptionText('export');
  if (!business) return null;
  if (nature === 'services') return exemptionText('services_outside_france');
  return 'Exonération de TVA, art. 262 I du CGI, pour les biens exportés ; autoliquidation par le preneur établi hors de France, art. 259-1 du CGI, pour les services';
}
