import { offersVat } from '../../shared/vat';
import { computeTotals } from '../../shared/totals';
import { legalMentionTexts, sellerIdentity } from '../../shared/legal-mentions';
import { defaultAppSettings } from '../../shared/schemas/settings';
import { organizationSettingsSchema, type OrganizationSettings } from '../../shared/schemas/organization';
import type { DocumentType } from '../../shared/schemas/document';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import type { RenderCustomer, RenderDocument, RenderLine, RenderSeller } from './types';
import { defined } from '../../shared/defined';
import { invoiceReference } from '../../shared/creditor-reference';
import { formatRate } from '../../shared/typography';

/** The sample always has a seller and a customer. */
export type SampleDocument = RenderDocument & { seller: RenderSeller; customer: RenderCustomer };

const SELLER: OrganizationSettings = organizationSettingsSchema.parse({
  name: 'Atelier Fontaine',
  legal_form: 'SARL',
  capital: '10 000 €',
  siret: '552 032 534 00646',
  rcs_city: 'Paris',
  vat_number: 'FR27552032534',
  phone: '01 43 55 12 80',
  email: 'contact@atelier-fontaine.fr',
  address: { line1: '12 rue des Lilas', postal_code: '75011', city: 'Paris', country: 'France' },
  identifications: [{ key: 'Code APE', value: '7410Z' }],
});
const SAMPLE_ACCOUNT = { holder: 'Atelier Fontaine', iban: 'FR7630004000031234567890143', bic: 'BNPAFRPPXXX' };

const CUSTOMER: RenderCustomer = {
  name: 'Boulangerie Martin',
  legal_name: '',
  number: 'CL-00012',
  type: 'company',
  business_id: '732 829 320',
  vat_number: 'FR40732829320',
  email: 'compta@boulangerie-martin.fr',
  address: { line1: '3 place du Marché', line2: '', postal_code: '69002', city: 'Lyon', state: '', country: 'France' },
  shipping: {
    line1: '18 quai Saint-Antoine',
    line2: 'Entrée des livraisons',
    postal_code: '69002',
    city: 'Lyon',
    state: '',
    country: 'France',
  },
};

type SampleLine = Pick<RenderLine, 'code' | 'item' | 'description' | 'quantity' | 'unit' | 'discount_type' | 'discount_value'> & {
  price: number;
  rate: number;
};

const LINES: SampleLine[] = [
  {
    code: 'IDV-01',
    item: 'Création de l’identité visuelle',
    description: 'Logo, palette et typographies, deux allers-retours.',
    quantity: 1,
    unit: 'forfait',
    price: 1800,
    rate: 20,
    discount_type: 'percent',
    discount_value: 0,
  },
  {
    code: 'CHT-02',
    item: 'Charte graphique (24 pages)',
    description: '',
    quantity: 1,
    unit: 'forfait',
    price: 650,
    rate: 20,
    discount_type: 'percent',
    discount_value: 0,
  },
  {
    code: 'SIG-03',
    item: 'Enseigne de façade',
    description: 'Caisson lumineux 240 × 60 cm, pose comprise.',
    quantity: 1,
    unit: 'u',
    price: 2350,
    rate: 20,
    discount_type: 'percent',
    discount_value: 10,
  },
  {
    code: 'IMP-04',
    item: 'Sacs kraft imprimés',
    description: '',
    quantity: 2000,
    unit: 'u',
    price: 0.42,
    rate: 20,
    discount_type: 'percent',
    discount_value: 0,
  },
  {
    code: 'FOR-05',
    item: 'Formation à la prise de vue',
    description: '',
    quantity: 3,
    unit: 'h',
    price: 80,
    rate: 10,
    discount_type: 'percent',
    discount_value: 0,
  },
];

const taxOf = (rate: number) => [{ title: `TVA ${formatRate(rate)}`, rate }];

/**
 * A realistic French invoice for /preview and the template designer: a design studio billing a bakery, two VAT
 * rates, a line discount, shipping, a deposit already invoiced and the mentions the law asks for.
 * `lineCount` repeats the lines to preview pagination.
 */
export function sampleDocument(options: { type?: DocumentType; lineCount?: number } = {}): SampleDocument {
  const type = options.type ?? 'invoice';
  const count = options.lineCount ?? LINES.length;
  const source = Array.from({ length: count }, (_, i) => defined(LINES[i % LINES.length], 'LINES[i % LINES.length]'));
  const invoice = type === 'invoice';
  const deposits = invoice ? [{ number: 'F2026-0038', date: '2026-02-20', total: 1500 }] : [];
  const paid = 0;
  const totals = computeTotals({
    items: source.map((l) => ({
      quantity: l.quantity,
      unit_price: l.price,
      discount_type: l.discount_type,
      discount_value: l.discount_value,
      taxes: taxOf(l.rate),
    })),
    discount_type: 'percent',
    discount_value: 0,
    shipping: 45,
    deposits: deposits.map((d) => d.total),
    paid,
    precision: 2,
  });
  const lines: RenderLine[] = source.map((l, i) => ({
    position: i + 1,
    code: l.code,
    sku: l.code,
    item: l.item,
    description: l.description,
    quantity: l.quantity,
    unit: l.unit,
    price: defined(totals.lines[i], 'totals.lines[i]').price,
    discount_type: l.discount_type,
    discount_value: l.discount_value,
    discount: defined(totals.lines[i], 'totals.lines[i]').discount,
    taxes: taxOf(l.rate),
    total: defined(totals.lines[i], 'totals.lines[i]').gross_total,
  }));
  const settings = defaultAppSettings();
  return {
    type,
    kind: 'standard',
    number: DOCUMENT_TYPE_TABLE[type].sampleNumber,
    date: '2026-03-12',
    maturity: '2026-04-11',
    sale_date: null,
    currency: 'EUR',
    condition: 'Virement à 30 jours',
    header: 'Prestations réalisées pour l’ouverture de votre nouvelle boutique, rue de la République.',
    footer: 'Merci de rappeler le numéro de la facture avec votre virement.',
    terms: '',
    note: '',
    shipping_details: '',
    purchase_order: '',
    additional_info: [{ key: 'Bon de commande', value: 'BC-2026-117' }],
    deposit_request: [],
    seller: { ...SELLER, identity: sellerIdentity(SELLER), logo_url: null },
    customer: CUSTOMER,
    lines,
    totals: {
      subtotal: totals.subtotal,
      discount: totals.discount,
      discount_type: 'percent',
      discount_value: 0,
      taxes: totals.taxes,
      tax: totals.tax,
      shipping: totals.shipping,
      total: totals.total,
      deposit_invoices: deposits,
      credited: 0,
      paid: totals.paid,
      amount_due: totals.amount_due,
    },
    legal_mentions: legalMentionTexts({
      type,
      organization: SELLER,
      settings,
      customer: CUSTOMER,
      date: '2026-03-12',
      maturity: '2026-04-11',
      items: source.map((l) => ({ item: l.item, kind: l.code.startsWith('IMP') || l.code.startsWith('SIG') ? 'goods' : 'service' })),
      corrects_number: type === 'credit' ? 'F2026-0041' : null,
    }),
    vat: offersVat(SELLER),
    // The reference only: the QR code is drawn by the server for a real invoice's public page.
    transfer: transferOfSample(type),
    vat_in_base: null,
  };
}

function transferOfSample(type: DocumentType): RenderDocument['transfer'] {
  const reference = invoiceReference({ type, number: DOCUMENT_TYPE_TABLE[type].sampleNumber });
  const account = DOCUMENT_TYPE_TABLE[type].printsPaymentAccount ? SAMPLE_ACCOUNT : null;
  return reference || account ? { account, reference, qr: null } : null;
}
