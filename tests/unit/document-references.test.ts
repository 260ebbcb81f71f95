import { describe, expect, it } from 'vitest';
import {
  crossBorderExemption,
  defaultDeliveryAddress,
  legalMentionTexts,
  missingMentions,
  sellerIdentity,
  type MentionInput,
} from '../../src/shared/legal-mentions';
import { organizationSettingsSchema } from '../../src/shared/schemas/organization';
import { documentInputSchema } from '../../src/shared/schemas/document';
import { defaultAppSettings } from '../../src/shared/schemas/settings';

const address = (line1: string, city: string, country = 'France') => ({ line1, line2: '', postal_code: '69002', city, state: '', country });
const artisan = organizationSettingsSchema.parse({
  name: 'Menuiserie Roux',
  legal_form: 'SARL',
  capital: '8 000',
  siret: '55203253400646',
  rm_registration: '552 032 534 RM 69',
  vat_number: 'FR27552032534',
  address: address('4 rue des Tanneurs', 'Lyon'),
});
const customer = {
  type: 'company' as const,
  name: 'Boulangerie Martin',
  business_id: '732829320',
  vat_number: '',
  address: address('3 place du Marché', 'Lyon'),
  shipping: address('', ''),
};
const input = (over: Partial<MentionInput> = {}): MentionInput => ({
  type: 'invoice',
  organization: artisan,
  settings: defaultAppSettings(),
  customer,
  date: '2026-11-02',
  maturity: '2026-12-02',
  items: [{ item: 'Pose', kind: 'service', taxes: [{ rate: 20 }] }],
  ...over,
});

describe('RM registration of artisans (C. com. R123-237, CGI art. 242 nonies A)', () => {
  it('accepts a company registered at the RM instead of the RCS, and prints it in the identity line', () => {
    expect(missingMentions(input())).toEqual([]);
    expect(sellerIdentity(artisan)).toEqual([
      'Menuiserie Roux SARL',
      'Capital de 8 000 €',
      'SIRET 55203253400646',
      'RM 552 032 534 RM 69',
      'TVA intracommunautaire FR27552032534',
    ]);
    // Typed with its prefix, printed as typed; beside the RCS for a company at both.
    const both = { ...artisan, rcs_city: 'Lyon', rm_registration: 'RM 552 032 534 Lyon' };
    expect(sellerIdentity(both).slice(3, 5)).toEqual(['RCS Lyon', 'RM 552 032 534 Lyon']);
  });

  it('asks a company for the RCS or the RM when it has neither', () => {
    const missing = missingMentions(input({ organization: { ...artisan, rm_registration: '' } }));
    expect(missing).toEqual([
      'l’immatriculation de votre entreprise : la ville du RCS, ou le RM pour un artisan (Paramètres → Infos de l’entreprise)',
    ]);
    // An EI registers nowhere it must print here: nothing asked.
    expect(missingMentions(input({ organization: { ...artisan, legal_form: 'EI', capital: '', rm_registration: '' } }))).toEqual([]);
  });

  it('refuses an RM registration over 100 characters, in French', () => {
    const parsed = organizationSettingsSchema.safeParse({ name: 'Menuiserie Roux', rm_registration: 'x'.repeat(101) });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('Immatriculation au RM : 100 caractères au plus');
  });
});

describe('the operation nature of a deposit invoice is its origin’s', () => {
  // A deposit invoice's lines say "Acompte" (service by default): the server gives the origin's nature.
  const deposit = (nature?: MentionInput['nature']) =>
    input({ kind: 'deposit', items: [{ item: 'Acompte de 30 % sur devis D-1', kind: 'service', taxes: [{ rate: 20 }] }], nature });

  it.each([
    ['goods', 'Nature de l’opération : Livraison de biens'],
    ['services', 'Nature de l’opération : Prestation de services'],
    ['mixed', 'Nature de l’opération : Livraison de biens et prestation de services'],
  ] as const)('%s origin → %s', (nature, text) => {
    expect(legalMentionTexts(deposit(nature))).toContain(text);
  });

  it('falls back on the lines when no nature is given, and drives the cross-border basis too', () => {
    expect(legalMentionTexts(deposit())).toContain('Nature de l’opération : Prestation de services');
    const german = { ...customer, business_id: '', vat_number: 'DE123456789', address: address('Hauptstraße 1', 'Berlin', 'Allemagne') };
    const untaxed = [{ item: 'Acompte', kind: 'service' as const, taxes: [] }];
    expect(crossBorderExemption({ customer: german, items: untaxed, nature: 'goods' })).toMatch(/262 ter I du CGI \(livraison/);
    expect(crossBorderExemption({ customer: german, items: untaxed })).toMatch(/^Autoliquidation/);
  });
});

describe('purchase-order number and delivery address of a document (C. com. L441-9)', () => {
  const form = (over: Record<string, unknown>) => documentInputSchema.safeParse({ date: '2026-11-02', ...over });

  it('reads a PO number trimmed, and refuses one over 60 characters in French', () => {
    expect(form({ purchase_order: '  BC-2026-117 ' }).data?.purchase_order).toBe('BC-2026-117');
    const long = form({ purchase_order: 'B'.repeat(61) });
    expect(long.success).toBe(false);
    expect(long.error?.issues.map((i) => i.message)).toEqual(['N° de bon de commande : 60 caractères au plus']);
  });

  it('keeps a complete delivery address, reads a blank one as none, and names what a started one lacks', () => {
    const quai = { line1: '18 quai Saint-Antoine', postal_code: '69002', city: 'Lyon' };
    expect(form({ delivery_address: quai }).data?.delivery_address).toMatchObject({ ...quai, country: 'France' });
    expect(form({ delivery_address: { line1: ' ', city: '' } }).data?.delivery_address).toBeNull();
    expect(form({ delivery_address: null }).data?.delivery_address).toBeNull();
    expect(form({}).data?.delivery_address).toBeUndefined();
    const started = form({ delivery_address: { line1: '18 quai Saint-Antoine' } });
    expect(started.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['delivery_address.postal_code', 'Adresse de livraison : le code postal est attendu'],
      ['delivery_address.city', 'Adresse de livraison : la ville est attendue'],
    ]);
    expect(form({ delivery_address: 'Lyon' }).success).toBe(false);
  });

  it('starts a document at the customer’s shipping address only when it differs from the billing one', () => {
    expect(defaultDeliveryAddress(customer)).toBeNull();
    expect(defaultDeliveryAddress({ ...customer, shipping: customer.address })).toBeNull();
    const quai = address('18 quai Saint-Antoine', 'Lyon');
    expect(defaultDeliveryAddress({ ...customer, shipping: quai })).toEqual(quai);
    expect(defaultDeliveryAddress(null)).toBeNull();
  });
});
