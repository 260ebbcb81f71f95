// The demo organisation's legal identity and its ~30 customers: French companies with valid SIREN/SIRET and the
// VAT numbers computed from them, a few individuals, and EU companies invoiced under reverse charge.
import type { ApiClient } from '../api-client';
import { frenchVatNumber, luhnValid } from '../../src/shared/identifiers';
import type { CustomerInput } from '../../src/shared/schemas/customer';
import type { OrganizationSettings } from '../../src/shared/schemas/organization';
import type { Random } from './random';
import { defined } from '../../src/shared/defined';

/** The seller: every mention a French invoice needs (CGI art. 242 nonies A), as tests/helpers/documents.ts has it. */
export const SELLER_IDENTITY: Partial<OrganizationSettings> & Pick<OrganizationSettings, 'name'> = {
  name: 'Atelier Fontaine',
  legal_form: 'SARL',
  capital: '10 000 €',
  siret: '552 032 534 00646',
  rcs_city: 'Paris',
  vat_number: 'FR27552032534',
  phone: '01 43 55 12 80',
  email: 'contact@atelier-fontaine.fr',
  web: 'https://atelier-fontaine.fr',
  address: { line1: '12 rue des Lilas', line2: '', city: 'Paris', state: '', postal_code: '75011', country: 'France' },
};

export interface SeedCustomer {
  id: number;
  name: string;
  type: 'company' | 'individual';
  /** 'fr' French, 'eu' another EU member state (reverse charge, no French VAT). */
  zone: 'fr' | 'eu';
  maturity: number;
  /** How much business this customer brings, relative to the others. */
  weight: number;
}

const CITIES: readonly (readonly [string, string, string])[] = [
  ['Paris', '75011', '01'],
  ['Lyon', '69002', '04'],
  ['Marseille', '13001', '04'],
  ['Toulouse', '31000', '05'],
  ['Nantes', '44000', '02'],
  ['Bordeaux', '33000', '05'],
  ['Lille', '59000', '03'],
  ['Strasbourg', '67000', '03'],
  ['Rennes', '35000', '02'],
  ['Montpellier', '34000', '04'],
  ['Nice', '06000', '04'],
  ['Grenoble', '38000', '04'],
  ['Dijon', '21000', '03'],
  ['Angers', '49000', '02'],
  ['Tours', '37000', '02'],
  ['Clermont-Ferrand', '63000', '04'],
  ['Reims', '51100', '03'],
  ['Rouen', '76000', '02'],
  ['Aix-en-Provence', '13100', '04'],
  ['Annecy', '74000', '04'],
  ['Metz', '57000', '03'],
  ['Caen', '14000', '02'],
  ['La Rochelle', '17000', '05'],
  ['Pau', '64000', '05'],
  ['Brest', '29200', '02'],
];
const STREETS = [
  'rue de la République',
  'avenue Jean Jaurès',
  'boulevard Victor Hugo',
  'rue Nationale',
  'place du Marché',
  'quai de la Fosse',
  'rue Sainte-Catherine',
  'cours Mirabeau',
  'avenue de la Libération',
  'rue Pasteur',
  'rue Gambetta',
  'allée des Tilleuls',
  'impasse des Artisans',
  'rue de la Gare',
  'chemin des Vignes',
  'rue du Moulin',
  'rue Thiers',
  'boulevard Carnot',
];

/** [name, legal form, payment days] of the French business customers. */
const FRENCH_COMPANIES: readonly (readonly [string, string, number])[] = [
  ['Boulangerie Martin', 'SARL', 30],
  ['Brasserie du Vieux Port', 'SAS', 30],
  ['Cabinet Lefèvre Avocats', 'SELARL', 45],
  ['Domaine des Trois Chênes', 'SCEA', 30],
  ['Fromagerie Rousseau', 'EURL', 30],
  ['Hôtel Le Méridional', 'SAS', 45],
  ['Librairie Les Mots Passants', 'SARL', 30],
  ['Menuiserie Girard & Fils', 'SARL', 60],
  ['Optique Bernard', 'SAS', 30],
  ['Pharmacie du Centre', 'SELAS', 30],
  ['Studio Pilates Harmonie', 'SASU', 30],
  ['Garage Dubois Automobiles', 'SARL', 45],
  ['Clinique Vétérinaire des Alpes', 'SELARL', 30],
  ['Transports Moreau', 'SAS', 60],
  ['Cave Le Tastevin', 'EURL', 30],
  ['Agence Immobilière Laurent', 'SARL', 30],
  ['Chocolaterie Mercier', 'SAS', 45],
  ['Théâtre de la Lune', 'Association', 30],
  ['Restaurant L’Escale', 'SARL', 30],
  ['Ferme Bio des Prés', 'GAEC', 30],
  ['Céramiques Blanchard', 'EI', 30],
  ['Fournier & Associés Expertise', 'SAS', 45],
  ['Nov’Énergie', 'SAS', 60],
];
const INDIVIDUALS = ['Julie Petit', 'Marc Lambert', 'Sophie Garnier', 'Thomas Roux'];
const CONTACTS = [
  'Camille Durand',
  'Nicolas Faure',
  'Isabelle Chevalier',
  'Antoine Morel',
  'Élodie Fontaine',
  'Hugo Lemaire',
  'Claire Bonnet',
  'Julien Perrin',
];
const ROLES = ['Gérant(e)', 'Directeur(trice) commercial(e)', 'Responsable communication', 'Comptable', 'Assistante de direction'];

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const digits = (random: Random, count: number) => Array.from({ length: count }, () => random.int(0, 9)).join('');
const withCheckDigit = (base: string) => {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${base}${d}`)) return `${base}${d}`;
  throw new Error('unreachable: one Luhn key always fits');
};

/** A SIREN passing INSEE's Luhn check (never La Poste's 356 000 000, whose SIRETs follow another rule). */
export function randomSiren(random: Random): string {
  for (;;) {
    const siren = withCheckDigit(`${random.int(3, 9)}${digits(random, 7)}`);
    if (siren !== '356000000') return siren;
  }
}
const randomSiret = (random: Random, siren: string) => withCheckDigit(`${siren}${digits(random, 4)}`);
const spaced = (n: string) => n.replace(/^(\d{3})(\d{3})(\d{3})(\d{5})?$/, (_, a, b, c, nic) => [a, b, c, nic].filter(Boolean).join(' '));
const phone = (random: Random, area: string) =>
  `${area} ${Array.from({ length: 4 }, () => String(random.int(0, 99)).padStart(2, '0')).join(' ')}`;
const address = (random: Random, [city, postal_code]: readonly [string, string, string]) => ({
  line1: `${random.int(1, 120)} ${random.pick(STREETS)}`,
  line2: '',
  city,
  state: '',
  postal_code,
  country: 'France',
});

/** German VAT key (ISO 7064 MOD 11,10) and Belgian and Luxembourg keys (mod 97, mod 89), so the numbers look real. */
function germanVat(random: Random): string {
  const base = `${random.int(1, 9)}${digits(random, 7)}`;
  let product = 10;
  for (const c of base) {
    const sum = (Number(c) + product) % 10 || 10;
    product = (2 * sum) % 11;
  }
  return `DE${base}${(11 - product) % 10}`;
}
const belgianVat = (random: Random) => {
  const base = `0${random.int(2, 9)}${digits(random, 6)}`;
  return `BE${base}${String(97 - (Number(base) % 97)).padStart(2, '0')}`;
};
const luxembourgVat = (random: Random) => {
  const base = `${random.int(1, 9)}${digits(random, 5)}`;
  return `LU${base}${String(Number(base) % 89).padStart(2, '0')}`;
};

function customerInputs(random: Random): CustomerInput[] {
  const cities = random.sample(CITIES, CITIES.length);
  const companies: CustomerInput[] = FRENCH_COMPANIES.map(([name, form, maturity], i) => {
    const city = defined(cities[i % cities.length], 'cities[i % cities.length]');
    const siren = randomSiren(random);
    const site = slug(name);
    const contact = random.pick(CONTACTS);
    return {
      type: 'company',
      name,
      legal_name: form === 'Association' || form === 'EI' ? name : `${name} ${form}`,
      email: `contact@${site}.fr`,
      phone: phone(random, city[2]),
      web: `https://www.${site}.fr`,
      // A third typed as a SIRET (the establishment), the others as a SIREN.
      business_id: spaced(random.chance(0.35) ? randomSiret(random, siren) : siren),
      vat_number: form === 'Association' ? '' : frenchVatNumber(siren),
      address: address(random, city),
      contacts: [
        { name: contact, role: random.pick(ROLES), email: `${slug(contact).replace('-', '.')}@${site}.fr`, phone: phone(random, '06') },
      ],
      maturity,
    };
  });
  const individuals: CustomerInput[] = INDIVIDUALS.map((name, i) => ({
    type: 'individual',
    name,
    email: `${slug(name).replace('-', '.')}@exemple.fr`,
    mobile: phone(random, random.pick(['06', '07'])),
    address: address(random, defined(cities[(FRENCH_COMPANIES.length + i) % cities.length])),
    // C. com. L441-10 aside, consumers pay on receipt.
    maturity: 0,
  }));
  const foreign: CustomerInput[] = [
    {
      type: 'company',
      name: 'Müller Druck GmbH',
      email: 'info@mueller-druck.de',
      vat_number: germanVat(random),
      language: 'de',
      maturity: 30,
      address: { line1: 'Oranienstraße 24', postal_code: '10999', city: 'Berlin', country: 'Allemagne' },
    },
    {
      type: 'company',
      name: 'Atelier Dupuis SRL',
      email: 'hello@atelier-dupuis.be',
      vat_number: belgianVat(random),
      maturity: 30,
      address: { line1: 'Rue Antoine Dansaert 58', postal_code: '1000', city: 'Bruxelles', country: 'Belgique' },
    },
    {
      type: 'company',
      name: 'Kremer & Weber Sàrl',
      email: 'bureau@kremer-weber.lu',
      vat_number: luxembourgVat(random),
      maturity: 45,
      address: { line1: '14 rue du Fossé', postal_code: 'L-1536', city: 'Luxembourg', country: 'Luxembourg' },
    },
  ];
  return [...companies, ...individuals, ...foreign];
}

/** Creates the customers through the API, one after the other so that their numbers (CL-00001…) are reproducible. */
export async function seedCustomers(client: ApiClient, random: Random): Promise<SeedCustomer[]> {
  const inputs = customerInputs(random);
  const weights = inputs.map((c) => (c.type === 'individual' ? 1 : random.int(1, 6) ** 2));
  const created = [];
  for (const input of inputs) created.push(await client.customers.create.mutate(input));
  return created.map(({ data }, i) => ({
    id: data.id,
    name: data.name,
    type: defined(inputs[i], 'inputs[i]').type ?? 'company',
    zone:
      defined(inputs[i], 'inputs[i]').address?.country === 'France' || defined(inputs[i], 'inputs[i]').type === 'individual' ? 'fr' : 'eu',
    maturity: defined(inputs[i], 'inputs[i]').maturity ?? 30,
    weight: defined(weights[i], 'weights[i]'),
  }));
}
