import { describe, expect, it } from 'vitest';
import { electronicAddressProblem, routingCodeForEinvoice } from '../../src/shared/einvoice-directory';
import { customerSnapshotOf } from '../../src/server/services/document-defaults';
import { toEn16931 } from '../../src/server/einvoice/en16931';
import type { StoredDocument } from '../../src/shared/schemas/document-model';
import type { CustomerRecord } from '../../src/shared/schemas/customer';

const address = { line1: '3 place du Marché', line2: '', city: 'Lyon', state: '', postal_code: '69002', country: 'France' };

const customer = (overrides: Partial<CustomerRecord> = {}): CustomerRecord =>
  ({
    id: 7,
    number: 'CL-00007',
    type: 'company',
    name: 'Boulangerie Martin',
    legal_name: '',
    email: '',
    business_id: '732 829 320',
    vat_number: '',
    address,
    shipping: { ...address, line1: '' },
    directory_status: 'listed',
    electronic_address: '732829320_FACTURES',
    routing_code: 'COMPTA',
    ...overrides,
  }) as CustomerRecord;

/** The fields toEn16931 reads of an issued invoice: one line at 20 %. */
const invoice = (party: StoredDocument['customer']): StoredDocument =>
  ({
    id: 1,
    type: 'invoice',
    kind: 'standard',
    status: 'pending',
    number: 'F-2026-0001',
    date: '2026-11-02',
    maturity: '2026-12-02',
    sale_date: null,
    currency: 'EUR',
    purchase_order: '',
    note: '',
    condition: '',
    terms: '',
    vat_exemption: '',
    shipping_tax: null,
    legal_mentions: [],
    items: [
      {
        item: 'Conseil',
        description: '',
        quantity: 1,
        price: 100,
        unit: '',
        kind: 'service',
        discount: 0,
        gross_total: 100,
        taxes: [{ rate: 20 }],
      },
    ],
    totals: {
      subtotal: 100,
      discount: 0,
      shipping: 0,
      tax: 20,
      total: 120,
      deposits: 0,
      taxes: [{ title: 'TVA 20 %', rate: 20, taxable_amount: 100, amount: 20 }],
    },
    seller: {
      name: 'Atelier Fontaine',
      siret: '55203253400646',
      vat_number: 'FR27552032534',
      vat_regime: 'normal',
      email: '',
      address: { ...address, city: 'Paris', postal_code: '75011' },
    },
    customer: party,
  }) as unknown as StoredDocument;

const context = { nature: 'services' as const, precision: 2 };

describe('the directory address an e-invoice may carry (BR-FR-21, BR-FR-23 to BR-FR-26)', () => {
  it('accepts an address under the SIREN, refuses other characters and another SIREN, in French', () => {
    expect(electronicAddressProblem('732829320', '732829320')).toBeNull();
    expect(electronicAddressProblem('732829320', '732829320_FACTURES.2026-b')).toBeNull();
    expect(electronicAddressProblem('732829320', 'compta@boulangerie.fr')).toBe(
      'l’adresse électronique « compta@boulangerie.fr » n’est pas utilisable : 125 caractères au plus, lettres, chiffres et « + - _ . » seulement',
    );
    expect(electronicAddressProblem('732829320', `732829320_${'X'.repeat(116)}`)).toContain('125 caractères au plus');
    expect(electronicAddressProblem('732829320', '552100554_FACTURES')).toBe(
      'l’adresse électronique « 552100554_FACTURES » ne commence pas par le SIREN 732829320',
    );
    expect(routingCodeForEinvoice('COMPTA-01')).toBe('COMPTA-01');
    expect(routingCodeForEinvoice('SERVICE/COMPTA')).toBeNull();
    expect(routingCodeForEinvoice('')).toBeNull();
  });
});

describe('the buyer snapshot and BT-49', () => {
  it('freezes the listed address and routing code with the customer, and only when listed', () => {
    expect(customerSnapshotOf(customer(), null)).toMatchObject({ electronic_address: '732829320_FACTURES', routing_code: 'COMPTA' });
    const absent = customerSnapshotOf(customer({ directory_status: 'absent', electronic_address: '', routing_code: '' }), null);
    expect(absent).not.toHaveProperty('electronic_address');
  });

  it('writes the snapshot’s address (0225) and routing code (0224); an old or unusable snapshot gives the SIREN', () => {
    const listed = toEn16931(invoice(customerSnapshotOf(customer(), null)), context);
    expect(listed.buyer.endpoint).toEqual({ id: '732829320_FACTURES', scheme: '0225' });
    expect(listed.buyer.routingId).toEqual({ id: 'COMPTA', scheme: '0224' });
    expect(listed.seller.endpoint).toEqual({ id: '552032534', scheme: '0225' });

    const { electronic_address: _a, routing_code: _r, ...old } = customerSnapshotOf(customer(), null);
    const before = toEn16931(invoice(old), context);
    expect(before.buyer.endpoint).toEqual({ id: '732829320', scheme: '0225' });
    expect(before.buyer.routingId).toBeUndefined();

    const odd = toEn16931(invoice({ ...old, electronic_address: '552100554_X', routing_code: 'A/B' }), context);
    expect(odd.buyer.endpoint).toEqual({ id: '732829320', scheme: '0225' });
  });

  it('gives a consumer without e-mail the seller’s address (BR-FR-12), one with an e-mail that e-mail', () => {
    const person = customerSnapshotOf(
      customer({
        type: 'individual',
        name: 'Paul Durand',
        business_id: '',
        directory_status: 'unknown',
        electronic_address: '',
        routing_code: '',
      }),
      null,
    );
    expect(toEn16931(invoice(person), context).buyer.endpoint).toEqual({ id: '552032534', scheme: '0225' });
    expect(toEn16931(invoice({ ...person, email: 'paul@example.fr' }), context).buyer.endpoint).toEqual({
      id: 'paul@example.fr',
      scheme: 'EM',
    });
    const swiss = { ...person, type: 'company' as const, vat_number: 'CHE-123.456.789 TVA', address: { ...address, country: 'Suisse' } };
    expect(toEn16931(invoice(swiss), context).buyer.endpoint).toEqual({ id: 'CHE123456789', scheme: '9927' });
  });
});
