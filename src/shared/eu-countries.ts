// The member states of the European Union, for the VAT rules that depend on where a customer is established (CGI
// art. 259-1, 262 I, 262 ter I). A customer's country is free text: it is recognised by its French, English or own
// name, or its ISO code. Monaco and the overseas departments are not listed: their VAT treatment is not the EU one.

export interface EuCountry {
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** The prefix of its VAT numbers (Greece uses EL). */
  vatPrefix: string;
  /** French name first, as the app prints it. */
  names: readonly string[];
}

export const EU_COUNTRIES: readonly EuCountry[] = [
  { code: 'AT', vatPrefix: 'AT', names: ['Autriche', 'Austria', 'Österreich'] },
  { code: 'BE', vatPrefix: 'BE', names: ['Belgique', 'Belgium', 'België', 'Belgien'] },
  { code: 'BG', vatPrefix: 'BG', names: ['Bulgarie', 'Bulgaria', 'България'] },
  { code: 'CY', vatPrefix: 'CY', names: ['Chypre', 'Cyprus', 'Κύπρος'] },
  { code: 'CZ', vatPrefix: 'CZ', names: ['Tchéquie', 'République tchèque', 'Czechia', 'Czech Republic', 'Česko'] },
  { code: 'DE', vatPrefix: 'DE', names: ['Allemagne', 'Germany', 'Deutschland'] },
  { code: 'DK', vatPrefix: 'DK', names: ['Danemark', 'Denmark', 'Danmark'] },
  { code: 'EE', vatPrefix: 'EE', names: ['Estonie', 'Estonia', 'Eesti'] },
  { code: 'ES', vatPrefix: 'ES', names: ['Espagne', 'Spain', 'España'] },
  { code: 'FI', vatPrefix: 'FI', names: ['Finlande', 'Finland', 'Suomi'] },
  { code: 'FR', vatPrefix: 'FR', names: ['France', 'République française'] },
  { code: 'GR', vatPrefix: 'EL', names: ['Grèce', 'Greece', 'Ελλάδα', 'Hellas'] },
  { code: 'HR', vatPrefix: 'HR', names: ['Croatie', 'Croatia', 'Hrvatska'] },
  { code: 'HU', vatPrefix: 'HU', names: ['Hongrie', 'Hungary', 'Magyarország'] },
  { code: 'IE', vatPrefix: 'IE', names: ['Irlande', 'Ireland', 'Éire'] },
  { code: 'IT', vatPrefix: 'IT', names: ['Italie', 'Italy', 'Italia'] },
  { code: 'LT', vatPrefix: 'LT', names: ['Lituanie', 'Lithuania', 'Lietuva'] },
  { code: 'LU', vatPrefix: 'LU', names: ['Luxembourg', 'Lëtzebuerg', 'Luxemburg'] },
  { code: 'LV', vatPrefix: 'LV', names: ['Lettonie', 'Latvia', 'Latvija'] },
  { code: 'MT', vatPrefix: 'MT', names: ['Malte', 'Malta'] },
  { code: 'NL', vatPrefix: 'NL', names: ['Pays-Bas', 'Netherlands', 'Nederland', 'Hollande', 'Holland'] },
  { code: 'PL', vatPrefix: 'PL', names: ['Pologne', 'Poland', 'Polska'] },
  { code: 'PT', vatPrefix: 'PT', names: ['Portugal'] },
  { code: 'RO', vatPrefix: 'RO', names: ['Roumanie', 'Romania', 'România'] },
  { code: 'SE', vatPrefix: 'SE', names: ['Suède', 'Sweden', 'Sverige'] },
  { code: 'SI', vatPrefix: 'SI', names: ['Slovénie', 'Slovenia', 'Slovenija'] },
  { code: 'SK', vatPrefix: 'SK', names: ['Slovaquie', 'Slovakia', 'Slovensko'] },
];

/** 'Pays-Bas ' → 'pays bas': case, accents, hyphens and extra spaces do not matter. */
export const normalizeCountryName = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[-'’.]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const BY_NAME = new Map<string, EuCountry>(
  EU_COUNTRIES.flatMap((c) => [c.code, ...c.names].map((name) => [normalizeCountryName(name), c] as const)),
);

/** The member state a free-text country names; undefined for any other country (or an unrecognised spelling). */
export const euCountryOf = (country: string): EuCountry | undefined => BY_NAME.get(normalizeCountryName(country));

/** Where a customer is established, for VAT: France (the default of an empty country), another member state, or outside the EU. */
export type CountryZone = 'france' | 'eu' | 'outside_eu';

export function countryZone(country: string): CountryZone {
  if (!country.trim()) return 'france';
  const found = euCountryOf(country);
  if (!found) return 'outside_eu';
  return found.code === 'FR' ? 'france' : 'eu';
}

const VAT_PREFIXES = new Set(EU_COUNTRIES.map((c) => c.vatPrefix));

/** The member state whose prefix a VAT number starts with ('DE 123…' → Germany); undefined otherwise. */
export function euVatCountry(vatNumber: string): EuCountry | undefined {
  const prefix = vatNumber.trim().slice(0, 2).toUpperCase();
  return VAT_PREFIXES.has(prefix) ? EU_COUNTRIES.find((c) => c.vatPrefix === prefix) : undefined;
}
