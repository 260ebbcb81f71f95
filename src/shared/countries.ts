// A customer's or seller's country is free text; EN 16931 wants an ISO 3166-1 alpha-2 code (BT-40, BT-55, BT-80).
// The member states come from eu-countries.ts; the others are the countries French small businesses sell to most,
// by their French name first, then English and their own. An empty country is France (the app's default).
import { EU_COUNTRIES, normalizeCountryName } from './eu-countries';

const OTHER_COUNTRIES: readonly { code: string; names: readonly string[] }[] = [
  { code: 'CH', names: ['Suisse', 'Switzerland', 'Schweiz', 'Svizzera'] },
  { code: 'GB', names: ['Royaume-Uni', 'Angleterre', 'Grande-Bretagne', 'United Kingdom', 'UK', 'Great Britain', 'England'] },
  { code: 'US', names: ['États-Unis', 'Etats-Unis', 'États-Unis d’Amérique', 'USA', 'United States', 'United States of America'] },
  { code: 'CA', names: ['Canada'] },
  { code: 'MC', names: ['Monaco'] },
  { code: 'AD', names: ['Andorre', 'Andorra'] },
  { code: 'NO', names: ['Norvège', 'Norway', 'Norge'] },
  { code: 'IS', names: ['Islande', 'Iceland', 'Ísland'] },
  { code: 'LI', names: ['Liechtenstein'] },
  { code: 'MA', names: ['Maroc', 'Morocco'] },
  { code: 'DZ', names: ['Algérie', 'Algeria'] },
  { code: 'TN', names: ['Tunisie', 'Tunisia'] },
  { code: 'SN', names: ['Sénégal', 'Senegal'] },
  { code: 'CI', names: ['Côte d’Ivoire', "Côte d'Ivoire", 'Ivory Coast'] },
  { code: 'CM', names: ['Cameroun', 'Cameroon'] },
  { code: 'TR', names: ['Turquie', 'Turkey', 'Türkiye'] },
  { code: 'CN', names: ['Chine', 'China'] },
  { code: 'JP', names: ['Japon', 'Japan'] },
  { code: 'KR', names: ['Corée du Sud', 'South Korea'] },
  { code: 'IN', names: ['Inde', 'India'] },
  { code: 'SG', names: ['Singapour', 'Singapore'] },
  { code: 'HK', names: ['Hong Kong'] },
  { code: 'AE', names: ['Émirats arabes unis', 'Emirats arabes unis', 'United Arab Emirates', 'UAE'] },
  { code: 'IL', names: ['Israël', 'Israel'] },
  { code: 'AU', names: ['Australie', 'Australia'] },
  { code: 'NZ', names: ['Nouvelle-Zélande', 'New Zealand'] },
  { code: 'BR', names: ['Brésil', 'Brazil', 'Brasil'] },
  { code: 'MX', names: ['Mexique', 'Mexico', 'México'] },
  { code: 'AR', names: ['Argentine', 'Argentina'] },
  { code: 'ZA', names: ['Afrique du Sud', 'South Africa'] },
  { code: 'RU', names: ['Russie', 'Russia'] },
  { code: 'UA', names: ['Ukraine'] },
  { code: 'RS', names: ['Serbie', 'Serbia'] },
];

const BY_NAME = new Map<string, string>([
  ...EU_COUNTRIES.flatMap((c) => [c.code, ...c.names].map((name) => [normalizeCountryName(name), c.code] as const)),
  ...OTHER_COUNTRIES.flatMap((c) => [c.code, ...c.names].map((name) => [normalizeCountryName(name), c.code] as const)),
]);

/** The ISO 3166-1 alpha-2 code of a free-text country ('Belgique', 'Suisse', 'us'); 'FR' when empty; undefined when unknown. */
export function countryCode(country: string): string | undefined {
  if (!country.trim()) return 'FR';
  return BY_NAME.get(normalizeCountryName(country));
}
