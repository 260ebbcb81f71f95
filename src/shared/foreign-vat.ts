import { EU_COUNTRIES } from './eu-countries';

/**
 * VAT charged by a supplier of another country is that country's tax: it is never deducted on the French return (CGI
 * art. 271 deducts French VAT only). A business established in France gets back the VAT of another member state from
 * that state, by the refund procedure of directive 2008/9/CE (filed on impots.gouv.fr), and that of a country outside
 * the EU only where the country refunds it (directive 86/560/CEE, by reciprocity). Monaco is French VAT territory.
 */

const FRENCH_TERRITORY = new Set(['FR', 'MC']);

/** Names not in the member states' list, for the reason's wording. */
const OTHER_NAMES: Record<string, string> = {
  NO: 'Norvège',
  CH: 'Suisse',
  GB: 'Royaume-Uni',
  IS: 'Islande',
  LI: 'Liechtenstein',
  US: 'États-Unis',
};

/**
 * The country whose VAT a supplier charges: its address's country (ISO alpha-2) when known, else the prefix of its VAT
 * number ('EL' is Greece, 'XI' Northern Ireland); '' when neither says.
 */
export function supplierVatCountry(country: string, vatNumber: string): string {
  const code = country.trim().toUpperCase();
  if (/^[A-Z]{2}$/.test(code)) return code;
  const prefix = vatNumber
    .replace(/[\s.-]/g, '')
    .slice(0, 2)
    .toUpperCase();
  if (!/^[A-Z]{2}$/.test(prefix)) return '';
  if (prefix === 'EL') return 'GR';
  if (prefix === 'XI') return 'GB';
  return prefix;
}

/**
 * Why the VAT of this supplier's invoice is not deductible in France, in French; null when it is French VAT (or
 * nothing says otherwise). The same sentence is shown at import and beside the expense's VAT.
 */
export function foreignVatReason(country: string, vatNumber: string): string | null {
  const code = supplierVatCountry(country, vatNumber);
  if (code === '' || FRENCH_TERRITORY.has(code)) return null;
  const member = EU_COUNTRIES.find((c) => c.code === code);
  if (member)
    return `TVA étrangère (${member.names[0]}) : non déductible sur la déclaration française ; elle se récupère auprès de l’administration de ce pays par la procédure de remboursement de la directive 2008/9/CE (espace professionnel impots.gouv.fr)`;
  return `TVA étrangère (${OTHER_NAMES[code] ?? code}) : non déductible sur la déclaration française ; elle ne se récupère qu’auprès de l’administration de ce pays, quand il la rembourse (directive 86/560/CEE)`;
}
