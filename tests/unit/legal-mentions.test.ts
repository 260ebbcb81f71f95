import { describe, expect, it } from 'vitest';
import {
  crossBorderExemption,
  hasDistinctShipping,
  legalMentionTexts,
  missingMentions,
  operationNature,
  sellerIdentity,
  type MentionInput,
} from '../../src/shared/legal-mentions';
import { organizationSettingsSchema } from '../../src/shared/schemas/organization';
import { defaultAppSettings } from '../../src/shared/schemas/settings';

const address = (city: string, country = 'France') => ({
  line1: '1 rue de la Paix',
  line2: '',
  postal_code: '75002',
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
  address: address('Paris'),
});
const customer = {
  type: 'company' as const,
  name: 'Boulangerie Martin',
  business_id: '732829320',
  vat_number: '',
  address: address('Lyon'),
  shipping: address(''),
};
const base = (over: Partial<MentionInput> = {}): MentionInput => ({
  type: 'invoice',
  organization: seller,
  settings: defaultAppSettings(),
  customer,
  date: '2026-11-02',
  maturity: '2026-12-02',
  items: [{ item: 'Audit', kind: 'service', taxes: [{ rate: 20 }] }],
  ...over,
});

describe('legal mentions (CGI art. 242 nonies A, C. com. L441-9, 2026 e-invoicing)', () => {
  it('finds nothing missing on a complete invoice, and prints the mentions in a stable order', () => {
    expect(missingMentions(base())).toEqual([]);
    expect(legalMentionTexts(base())).toEqual([
      'Nature de l’opération : Prestation de services',
      "Pas d'escompte pour paiement anticipé",
      'En cas de retard de paiement, pénalités au taux annuel de 12,00 % (C. com. L441-10)',
      'Indemnité forfaitaire pour frais de recouvrement en cas de retard de paiement : 40,00 €',
    ]);
    expect(sellerIdentity(seller)).toEqual([
      'Atelier Fontaine SARL',
      'Capital de 10 000 €',
      'SIRET 55203253400646',
      'RCS Paris',
      'TVA intracommunautaire FR27552032534',
    ]);
  });

  it.each([
    [{ customer: null }, 'le client'],
    [{ maturity: null }, 'la date d’échéance'],
    [{ items: [] }, 'au moins une ligne'],
    [{ items: [{ item: ' ' }] }, 'la désignation de chaque ligne'],
    [{ customer: { ...customer, business_id: '' } }, 'le SIREN du client'],
    [{ organization: { ...seller, vat_number: '' } }, 'le numéro de TVA intracommunautaire de votre entreprise'],
    [{ type: 'credit' as const, corrects_number: null }, 'la facture que l’avoir corrige'],
    [{ organization: { ...seller, capital: '' } }, 'le capital social'],
    [{ organization: { ...seller, rcs_city: '' } }, 'la ville du RCS, ou le RM pour un artisan'],
    [{ organization: { ...seller, vat_regime: 'franchise' as const } }, 'retirez la TVA des lignes'],
    [
      { customer: { ...customer, business_id: '', address: address('Berlin', 'Allemagne') }, items: [{ item: 'Conseil', taxes: [] }] },
      'le numéro de TVA intracommunautaire du client',
    ],
    [{ items: [{ item: 'Formation', taxes: [{ rate: 0 }] }] }, 'la raison de l’exonération des lignes sans TVA'],
  ])('names what is missing: %j → %s', (over, missing) => {
    expect(missingMentions(base(over as Partial<MentionInput>)).some((m) => m.includes(missing))).toBe(true);
  });

  it('asks no SIREN of an individual or a foreign company, and no VAT number under the franchise', () => {
    expect(missingMentions(base({ customer: { ...customer, type: 'individual', business_id: '' } }))).toEqual([]);
    expect(missingMentions(base({ customer: { ...customer, business_id: '', address: address('Berlin', 'Allemagne') } }))).toEqual([]);
    const franchise = { ...seller, legal_form: 'EI', vat_regime: 'franchise' as const, vat_number: '', capital: '', rcs_city: '' };
    const untaxed = [{ item: 'Audit', kind: 'service' as const, taxes: [] }];
    expect(missingMentions(base({ organization: franchise, items: untaxed }))).toEqual([]);
    expect(legalMentionTexts(base({ organization: franchise, items: untaxed }))).toContain('TVA non applicable, art. 293 B du CGI');
    // The 40 € indemnity is owed by business customers only (C. com. D441-5).
    expect(legalMentionTexts(base({ customer: { ...customer, type: 'individual' } })).some((t) => t.includes('40,00 €'))).toBe(false);
  });

  it('names the legal basis of an EU business sale without VAT: reverse charge for services, exemption for goods', () => {
    const german = { ...customer, business_id: '', vat_number: 'DE123456789', address: address('Berlin', 'Allemagne') };
    expect(crossBorderExemption({ customer: german, items: [{ item: 'Conseil', kind: 'service', taxes: [] }] })).toMatch(
      /^Autoliquidation/,
    );
    expect(crossBorderExemption({ customer: german, items: [{ item: 'Machine', kind: 'goods', taxes: [{ rate: 0 }] }] })).toMatch(
      /262 ter I/,
    );
    expect(crossBorderExemption({ customer: german, items: [{ item: 'Conseil', kind: 'service', taxes: [{ rate: 20 }] }] })).toBeNull();
    expect(crossBorderExemption({ customer: { ...german, type: 'individual' }, items: [{ item: 'Conseil', taxes: [] }] })).toBeNull();
    expect(crossBorderExemption({ customer, items: [{ item: 'Conseil', taxes: [] }] })).toBeNull();
    expect(legalMentionTexts(base({ customer: german, items: [{ item: 'Conseil', kind: 'service', taxes: [] }] }))).toContain(
      'Autoliquidation : TVA due par le preneur (art. 283-2 du CGI, art. 196 de la directive 2006/112/CE)',
    );
  });

  it('tells goods, services and mixed operations apart, and a distinct delivery address', () => {
    expect(operationNature([{ item: 'a', kind: 'goods' }])).toBe('goods');
    expect(operationNature([{ item: 'a', kind: 'goods' }, { item: 'b' }])).toBe('mixed');
    expect(hasDistinctShipping({ address: address('Lyon'), shipping: address('') })).toBe(false);
    expect(hasDistinctShipping({ address: address('Lyon'), shipping: { ...address('Lyon'), line1: '2 quai' } })).toBe(true);
  });

  it('prints the exemption basis the user gave for lines without VAT, and asks for none on a deposit invoice', () => {
    const exempt = base({
      items: [{ item: 'Formation', kind: 'service', taxes: [] }],
      vat_exemption: 'Exonération de TVA, art. 261-4-4° du CGI',
    });
    expect(missingMentions(exempt)).toEqual([]);
    expect(legalMentionTexts(exempt)).toContain('Exonération de TVA, art. 261-4-4° du CGI');
    expect(missingMentions(base({ kind: 'deposit', items: [{ item: 'Acompte', taxes: [] }] }))).toEqual([]);
  });

  it.each([
    { credited: 'the taxed line only', items: [{ item: 'Audit', taxes: [{ rate: 20 }] }], printed: false },
    { credited: 'the exempt line only', items: [{ item: 'Formation', taxes: [] }], printed: true },
    {
      credited: 'both lines',
      items: [
        { item: 'Audit', taxes: [{ rate: 20 }] },
        { item: 'Formation', taxes: [] },
      ],
      printed: true,
    },
  ])('a credit note of $credited states its invoice’s exemption basis: $printed', ({ items, printed }) => {
    const basis = 'Exonération de TVA, art. 261-4-4° du CGI';
    const credit = base({ type: 'credit', corrects_number: 'F2026-0001', items, vat_exemption: basis });
    expect(legalMentionTexts(credit).includes(basis)).toBe(printed);
  });
});

describe('what an EN 16931 invoice needs beyond the printed mentions', () => {
  it('asks for a country it can write as an ISO code, for the company, the customer and the delivery address', () => {
    expect(missingMentions(base({ customer: { ...customer, business_id: '', address: address('Genève', 'Suisse') } }))).toEqual([]);
    expect(missingMentions(base({ customer: { ...customer, business_id: '', address: address('Boston', 'USA') } }))).toEqual([]);
    expect(missingMentions(base({ customer: { ...customer, business_id: '', address: address('Gand', 'BE') } }))).toEqual([]);
    expect(missingMentions(base({ customer: { ...customer, address: address('Atlantis', 'Atlantide') } }))).toEqual([
      'un pays reconnu pour le client (« Atlantide » : écrivez-le en toutes lettres, ex. Belgique, ou son code ISO BE) (fiche client)',
    ]);
    expect(missingMentions(base({ organization: { ...seller, address: address('Paris', 'Fr4nce') } }))).toEqual([
      'un pays reconnu pour votre entreprise (« Fr4nce » : écrivez-le en toutes lettres, ex. France, ou son code ISO FR) (Paramètres → Infos de l’entreprise)',
    ]);
    expect(missingMentions(base({ customer: { ...customer, shipping: address('Nulle part', 'Utopie') } }))).toEqual([
      'un pays reconnu pour l’adresse de livraison (« Utopie » : ex. Belgique, ou son code ISO BE)',
    ]);
    // Not asked of documents that are not invoices or credit notes.
    expect(missingMentions(base({ type: 'estimate', customer: { ...customer, address: address('Atlantis', 'Atlantide') } }))).toEqual([]);
  });

  it('asks for one VAT rate a line, and for the identifier of a business outside the EU under reverse charge', () => {
    expect(missingMentions(base({ items: [{ item: 'Audit', taxes: [{ rate: 20 }, { rate: 1 }] }] }))).toEqual([
      'une seule TVA par ligne : la facture électronique (EN 16931) ne porte qu’un taux par ligne',
    ]);
    const untaxed = [{ item: 'Audit', kind: 'service' as const, taxes: [] }];
    const swiss = { ...customer, business_id: '', vat_number: '', address: address('Genève', 'Suisse') };
    expect(missingMentions(base({ customer: swiss, items: untaxed }))).toEqual([
      'le numéro de TVA ou d’immatriculation du client (autoliquidation hors de France : la facture électronique EN 16931 l’exige) (fiche client)',
    ]);
    expect(missingMentions(base({ customer: { ...swiss, business_id: 'CHE-123.456.789' }, items: untaxed }))).toEqual([]);
    // Goods leaving the EU are an export (category G): no customer identifier needed.
    expect(missingMentions(base({ customer: swiss, items: [{ item: 'Pendule', kind: 'goods', taxes: [] }] }))).toEqual([]);
  });
});
