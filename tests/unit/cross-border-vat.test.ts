import { describe, expect, it } from 'vitest';
import { countryZone, euCountryOf, euVatCountry, EU_COUNTRIES } from '../../src/shared/eu-countries';
import { crossBorderExemption, legalMentionTexts, missingMentions, taxIdLabel, type MentionInput } from '../../src/shared/legal-mentions';
import { customerInputSchema } from '../../src/shared/schemas/customer';
import { organizationSettingsSchema } from '../../src/shared/schemas/organization';
import { defaultAppSettings } from '../../src/shared/schemas/settings';
import { exemptionChoice, exemptionText, VAT_EXEMPTION_BASES } from '../../src/shared/vat-exemptions';

const address = (city: string, country: string) => ({
  line1: '1 rue',
  line2: '',
  postal_code: country === 'France' ? '75011' : '1000',
  city,
  state: '',
  country,
});
const seller = organizationSettingsSchema.parse({
  name: 'Atelier Fontaine',
  legal_form: 'SARL',
  capital: '10 000 €',
  siret: '55203253400646',
  rcs_city: 'Paris',
  vat_number: 'FR27552032534',
  address: address('Paris', 'France'),
});

/** A customer of each place, with the identifiers its country gives a business. */
const PLACES = {
  france: { country: 'France', business_id: '732829320', vat_number: 'FR44732829320' },
  eu: { country: 'Allemagne', business_id: '', vat_number: 'DE123456789' },
  outside: { country: 'Suisse', business_id: '', vat_number: 'CHE-123.456.789 TVA' },
} as const;
type Place = keyof typeof PLACES;

const input = (
  place: Place,
  nature: 'goods' | 'service',
  type: 'company' | 'individual',
  over: Partial<MentionInput> = {},
): MentionInput => ({
  type: 'invoice',
  organization: seller,
  settings: defaultAppSettings(),
  customer: {
    type,
    name: 'Client',
    business_id: type === 'company' ? PLACES[place].business_id : '',
    vat_number: type === 'company' ? PLACES[place].vat_number : '',
    address: address('Ville', PLACES[place].country),
    shipping: address('', ''),
  },
  date: '2026-11-02',
  maturity: '2026-12-02',
  items: [{ item: nature === 'goods' ? 'Machine' : 'Conseil', kind: nature, taxes: [] }],
  ...over,
});

const BASIS_NEEDED =
  'la raison de l’exonération des lignes sans TVA (champ « Exonération de TVA » du document, ex. « Exonération de TVA, art. 261-4-4° du CGI »)';

describe('cross-border VAT exemptions: France / EU / outside the EU × goods / services × business / individual', () => {
  it.each([
    // France: no automatic basis; the user states one for untaxed lines.
    ['france', 'goods', 'company', null, [BASIS_NEEDED]],
    ['france', 'service', 'company', null, [BASIS_NEEDED]],
    ['france', 'goods', 'individual', null, [BASIS_NEEDED]],
    ['france', 'service', 'individual', null, [BASIS_NEEDED]],
    // Another member state: a business with its VAT number gets 262 ter I / reverse charge; an individual pays French VAT.
    ['eu', 'goods', 'company', exemptionText('intra_eu_goods'), []],
    ['eu', 'service', 'company', exemptionText('services_eu'), []],
    ['eu', 'goods', 'individual', null, [BASIS_NEEDED]],
    ['eu', 'service', 'individual', null, [BASIS_NEEDED]],
    // Outside the EU: goods are exported (262 I) whoever buys; services to a business are taxed where it is (259-1).
    ['outside', 'goods', 'company', exemptionText('export'), []],
    ['outside', 'service', 'company', exemptionText('services_outside_france'), []],
    ['outside', 'goods', 'individual', exemptionText('export'), []],
    ['outside', 'service', 'individual', null, [BASIS_NEEDED]],
  ] as const)('%s × %s × %s → %s', (place, nature, type, basis, missing) => {
    const doc = input(place, nature, type);
    expect(crossBorderExemption(doc)).toBe(basis);
    expect(missingMentions(doc)).toEqual(missing);
    if (basis) expect(legalMentionTexts(doc)).toContain(basis);
  });

  it.each([
    ['france', 'goods'],
    ['eu', 'service'],
    ['outside', 'goods'],
    ['outside', 'service'],
  ] as const)('prints nothing automatic when the lines carry French VAT (%s × %s)', (place, nature) => {
    const doc = input(place, nature, 'company', { items: [{ item: 'Ligne', kind: nature, taxes: [{ rate: 20 }] }] });
    expect(crossBorderExemption(doc)).toBeNull();
    expect(missingMentions(doc)).toEqual([]);
  });

  it('asks an EU business for its intra-community VAT number; a business outside the EU for its own tax id only', () => {
    const eu = input('eu', 'service', 'company');
    const euWithout = { ...eu, customer: eu.customer && { ...eu.customer, vat_number: '' } };
    expect(missingMentions(euWithout)).toContain(
      'le numéro de TVA intracommunautaire du client (vente sans TVA à une entreprise d’un autre État de l’UE)',
    );
    const outside = input('outside', 'service', 'company');
    const outsideWithout = { ...outside, customer: outside.customer && { ...outside.customer, vat_number: '' } };
    // EN 16931 BR-AE-02: reverse charge names the buyer's tax number, whatever its country (not an EU VAT number).
    expect(missingMentions(outsideWithout)).toEqual([
      'le numéro de TVA ou d’immatriculation du client (autoliquidation hors de France : la facture électronique EN 16931 l’exige) (fiche client)',
    ]);
    expect(
      missingMentions({ ...outside, customer: outside.customer && { ...outside.customer, vat_number: 'CHE-123.456.789 MWST' } }),
    ).toEqual([]);
    expect(crossBorderExemption(outsideWithout)).toBe(exemptionText('services_outside_france'));
  });

  it('prints a basis chosen in the editor once, even when the rule would print the same one', () => {
    const doc = input('outside', 'goods', 'company', { vat_exemption: exemptionText('export') });
    expect(legalMentionTexts(doc).filter((t) => t === exemptionText('export'))).toHaveLength(1);
  });

  it('places a customer whose country was left at France but who holds another member state’s VAT number in the EU', () => {
    const doc = input('france', 'service', 'company');
    const german = { ...doc, customer: doc.customer && { ...doc.customer, vat_number: 'DE123456789', business_id: '' } };
    expect(crossBorderExemption(german)).toBe(exemptionText('services_eu'));
  });
});

describe('EU member states (one shared list)', () => {
  it('lists the 27 member states, Greece with its EL prefix', () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    expect(euCountryOf('Grèce')?.vatPrefix).toBe('EL');
  });

  it.each([
    ['', 'france'],
    ['France', 'france'],
    ['FR', 'france'],
    ['  france ', 'france'],
    ['Allemagne', 'eu'],
    ['germany', 'eu'],
    ['DE', 'eu'],
    ['Pays-Bas', 'eu'],
    ['pays bas', 'eu'],
    ['Belgique', 'eu'],
    ['Espana', 'eu'],
    ['Suisse', 'outside_eu'],
    ['Royaume-Uni', 'outside_eu'],
    ['États-Unis', 'outside_eu'],
    ['Canada', 'outside_eu'],
  ])('%j is %s', (country, zone) => {
    expect(countryZone(country)).toBe(zone);
  });

  it('reads a VAT number’s member state from its prefix', () => {
    expect(euVatCountry('de 123456789')?.code).toBe('DE');
    expect(euVatCountry('EL123456789')?.code).toBe('GR');
    expect(euVatCountry('CHE-123.456.789')).toBeUndefined();
    expect(euVatCountry('GB123456789')).toBeUndefined();
  });
});

describe('customer tax id: an EU VAT number in the EU, the country’s own tax id outside it', () => {
  const customer = (country: string, vat_number: string) =>
    customerInputSchema.safeParse({ name: 'Client', vat_number, address: { line1: '1 rue', city: 'Ville', country } });

  it.each([
    ['Suisse', 'CHE-123.456.789 TVA', 'CHE-123.456.789 TVA'],
    ['Royaume-Uni', 'GB 123 4567 89', 'GB 123 4567 89'],
    ['États-Unis', '12-3456789', '12-3456789'],
    ['Canada', '123456789RT0001', '123456789RT0001'],
  ])('accepts a tax id of %s as typed', (country, typed, stored) => {
    const parsed = customer(country, typed);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.vat_number).toBe(stored);
  });

  it('still checks and normalises an EU VAT number for a customer in France or the EU', () => {
    expect(customer('Allemagne', 'de 123 456 789').data?.vat_number).toBe('DE123456789');
    expect(customer('Allemagne', 'CHE-123.456.789').error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['vat_number', 'Numéro de TVA intracommunautaire invalide : il commence par le code pays (FR, DE, BE…)'],
    ]);
    expect(customer('France', 'FR00552032534').error?.issues[0]?.message).toBe(
      'Numéro de TVA invalide : la clé ne correspond pas au SIREN',
    );
  });

  it('refuses a tax id with characters no tax id has, in French', () => {
    expect(customer('Suisse', 'CHE<123>').error?.issues.map((i) => i.message)).toEqual([
      'Identifiant fiscal : lettres, chiffres, espaces, points, tirets et barres obliques seulement',
    ]);
  });
});

describe('exemption bases (one shared list for the editor and the rules)', () => {
  it('offers at least 259-1, 262 I, 262 ter I and 261-4-4°', () => {
    const texts = VAT_EXEMPTION_BASES.map((b) => b.text).join('\n');
    for (const article of ['art. 259-1 du CGI', 'art. 262 I du CGI', 'art. 262 ter I du CGI', 'art. 261-4-4° du CGI'])
      expect(texts).toContain(article);
    expect(exemptionText('services_outside_france')).toMatch(/^Autoliquidation/);
  });

  it('recognises a chosen basis, free text and an empty field', () => {
    expect(exemptionChoice(exemptionText('export'))).toBe('export');
    expect(exemptionChoice('Exonération de TVA, art. 261 D du CGI')).toBe('other');
    expect(exemptionChoice('  ')).toBe('');
  });
});

describe('the customer’s tax number on the document', () => {
  it.each([
    ['France', 'FR40732829320', 'TVA'],
    ['Allemagne', 'DE123456789', 'TVA'],
    ['', 'BE0123456789', 'TVA'],
    ['Suisse', 'CHE-123.456.789 MWST', 'Identifiant fiscal'],
    ['Canada', '123456789RT0001', 'Identifiant fiscal'],
  ])('%s, %s → « %s »', (country, vat_number, label) => {
    expect(taxIdLabel({ address: address('Ville', country), vat_number })).toBe(label);
  });
});
