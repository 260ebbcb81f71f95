import { describe, expect, it } from 'vitest';
import { internationalPurchases, type PurchaseRecord, purchasesAmount } from '../../src/shared/ereporting-purchases';
import { toDecimalString } from '../../src/shared/money';

const october = { from: '2026-10-01', to: '2026-10-31' };

const expense = (over: Partial<PurchaseRecord> & Pick<PurchaseRecord, 'id'>): PurchaseRecord => ({
  kind: 'expense',
  date: '2026-10-05',
  supplier: 'Fournisseur',
  invoiceNumber: `INV-${over.id}`,
  supplierCountry: '',
  supplierVatNumber: '',
  currency: 'EUR',
  viaPlatform: false,
  nature: 'services',
  reverseCharge: '',
  amount: '100',
  vat: [],
  precedingNumber: '',
  precedingDate: null,
  ...over,
});

/** A purchase's reported shape with amounts as the file writes them. */
const shown = (records: PurchaseRecord[]) => {
  const { purchases, problems } = internationalPurchases(records, october);
  return {
    problems,
    purchases: purchases.map((p) => ({
      number: p.number,
      typeCode: p.typeCode,
      process: p.process,
      supplier: p.supplier,
      referenced: p.referenced,
      base: toDecimalString(p.base, 2),
      tax: toDecimalString(p.tax, 2),
      subtotals: p.subtotals.map((s) => `${s.category} ${s.rate} ${toDecimalString(s.base, 2)} ${toDecimalString(s.tax, 2)}`),
    })),
  };
};

describe('Flux 10.1, buyer side: purchases from suppliers established outside France', () => {
  const cases: { name: string; record: PurchaseRecord; expected: ReturnType<typeof shown> }[] = [
    {
      name: 'EU goods acquired with VAT self-assessed at 20 %: K, B1, the supplier by its VAT number (0223)',
      record: expense({
        id: 1,
        supplier: 'Müller Maschinen GmbH',
        supplierCountry: 'DE',
        supplierVatNumber: 'DE 123 456 789',
        nature: 'goods',
        reverseCharge: 'goods',
        amount: '1234.56',
        vat: [{ rate: 20, amount: '246.91', deductible: true }],
      }),
      expected: {
        problems: [],
        purchases: [
          {
            number: 'INV-1',
            typeCode: '380',
            process: 'B1',
            supplier: { scheme: '0223', id: 'DE123456789', vatNumber: 'DE123456789', country: 'DE' },
            referenced: null,
            base: '1234.56',
            tax: '246.91',
            subtotals: ['K 20 1234.56 246.91'],
          },
        ],
      },
    },
    {
      name: 'EU services with VAT self-assessed: AE, S1 (the country read from the VAT number when the address has none)',
      record: expense({
        id: 2,
        supplierVatNumber: 'NL123456789B01',
        reverseCharge: 'services',
        amount: '500',
        vat: [{ rate: 20, amount: '100', deductible: true }],
      }),
      expected: {
        problems: [],
        purchases: [
          {
            number: 'INV-2',
            typeCode: '380',
            process: 'S1',
            supplier: { scheme: '0223', id: 'NL123456789B01', vatNumber: 'NL123456789B01', country: 'NL' },
            referenced: null,
            base: '500.00',
            tax: '100.00',
            subtotals: ['AE 20 500.00 100.00'],
          },
        ],
      },
    },
    {
      name: 'services imported from outside the EU: AE, its tax id under 0227',
      record: expense({
        id: 3,
        supplier: 'Cloud Inc.',
        supplierCountry: 'US',
        supplierVatNumber: '12-3456789',
        reverseCharge: 'services',
        amount: '99.99',
        vat: [{ rate: 20, amount: '20', deductible: true }],
      }),
      expected: {
        problems: [],
        purchases: [
          {
            number: 'INV-3',
            typeCode: '380',
            process: 'S1',
            supplier: { scheme: '0227', id: '123456789', vatNumber: '123456789', country: 'US' },
            referenced: null,
            base: '99.99',
            tax: '20.00',
            subtotals: ['AE 20 99.99 20.00'],
          },
        ],
      },
    },
    {
      name: 'VAT of another member state charged by the supplier: outside the scope of French VAT (O), HT net of it',
      record: expense({
        id: 4,
        supplier: 'Hotel Berlin',
        supplierCountry: 'DE',
        supplierVatNumber: 'DE999999999',
        amount: '119',
        vat: [{ rate: 19, amount: '19', deductible: false }],
      }),
      expected: {
        problems: [],
        purchases: [
          {
            number: 'INV-4',
            typeCode: '380',
            process: 'S1',
            supplier: { scheme: '0223', id: 'DE999999999', vatNumber: 'DE999999999', country: 'DE' },
            referenced: null,
            base: '100.00',
            tax: '0.00',
            subtotals: ['O 0 100.00 0.00'],
          },
        ],
      },
    },
    {
      name: 'a supplier’s credit note: 381, positive as issued, citing the invoice it corrects with its date',
      record: expense({
        id: 5,
        kind: 'credit_note',
        invoiceNumber: 'CN-7',
        supplierCountry: 'BE',
        supplierVatNumber: 'BE0123456789',
        reverseCharge: 'services',
        amount: '-50',
        vat: [{ rate: 20, amount: '-10', deductible: true }],
        precedingNumber: 'INV 2026/12',
        precedingDate: '2026-09-28',
      }),
      expected: {
        problems: [],
        purchases: [
          {
            number: 'CN-7',
            typeCode: '381',
            process: 'S1',
            supplier: { scheme: '0223', id: 'BE0123456789', vatNumber: 'BE0123456789', country: 'BE' },
            referenced: { number: 'INV 2026/12', date: '2026-09-28' },
            base: '50.00',
            tax: '10.00',
            subtotals: ['AE 20 50.00 10.00'],
          },
        ],
      },
    },
    {
      name: 'two self-assessed rates: each rate’s base from its VAT, the cents adding up to the HT',
      record: expense({
        id: 6,
        supplierCountry: 'IT',
        supplierVatNumber: 'IT12345678901',
        nature: 'goods',
        reverseCharge: 'goods',
        amount: '300.01',
        vat: [
          { rate: 20, amount: '40', deductible: true },
          { rate: 5.5, amount: '5.5', deductible: true },
        ],
      }),
      expected: {
        problems: [],
        purchases: [
          {
            number: 'INV-6',
            typeCode: '380',
            process: 'B1',
            supplier: { scheme: '0223', id: 'IT12345678901', vatNumber: 'IT12345678901', country: 'IT' },
            referenced: null,
            base: '300.01',
            tax: '45.50',
            subtotals: ['K 20 200.01 40.00', 'K 5.5 100.00 5.50'],
          },
        ],
      },
    },
  ];
  it.each(cases)('$name', ({ record, expected }) => {
    expect(shown([record])).toEqual(expected);
  });

  const notReported: { name: string; record: PurchaseRecord }[] = [
    { name: 'a French supplier', record: expense({ id: 10, supplierCountry: 'FR', supplierVatNumber: 'FR27552032534' }) },
    {
      name: 'a supplier in Monaco (French VAT territory)',
      record: expense({ id: 11, supplierCountry: 'MC', supplierVatNumber: 'FR00000000000' }),
    },
    { name: 'a supplier of unknown country, VAT not self-assessed', record: expense({ id: 12 }) },
    {
      name: 'an e-invoice received through the platform',
      record: expense({ id: 13, viaPlatform: true, supplierCountry: 'DE', supplierVatNumber: 'DE123456789', reverseCharge: 'services' }),
    },
    {
      name: 'goods imported from outside the EU (declared to customs)',
      record: expense({ id: 14, supplierCountry: 'CN', supplierVatNumber: '91310000', nature: 'goods' }),
    },
    {
      name: 'a purchase of another period',
      record: expense({ id: 15, date: '2026-11-02', supplierCountry: 'DE', supplierVatNumber: 'DE1' }),
    },
  ];
  it.each(notReported)('does not report $name', ({ record }) => {
    expect(internationalPurchases([record], october)).toEqual({ purchases: [], problems: [] });
  });

  const attention: { name: string; record: PurchaseRecord; problem: string }[] = [
    {
      name: 'an EU supplier without its VAT number',
      record: expense({ id: 20, supplier: 'Brasserie de Namur', invoiceNumber: 'B-1', supplierCountry: 'BE', reverseCharge: 'services' }),
      problem:
        'Facture B-1 du 2026-10-05 (Brasserie de Namur) : le numéro de TVA intracommunautaire du fournisseur manque, renseignez-le sur la dépense',
    },
    {
      name: 'a supplier outside the EU without a tax id',
      record: expense({ id: 21, supplier: 'Cloud Inc.', invoiceNumber: 'C-1', supplierCountry: 'US', reverseCharge: 'services' }),
      problem:
        'Facture C-1 du 2026-10-05 (Cloud Inc.) : l’identifiant fiscal du fournisseur établi hors de l’Union européenne manque, renseignez-le sur la dépense (N° TVA du fournisseur)',
    },
    {
      name: 'self-assessed VAT without the supplier’s country',
      record: expense({ id: 22, supplier: 'Inconnu', invoiceNumber: 'X-1', reverseCharge: 'services' }),
      problem:
        'Facture X-1 du 2026-10-05 (Inconnu) : TVA autoliquidée sans pays du fournisseur, renseignez le pays du fournisseur sur la dépense',
    },
    {
      name: 'no invoice number',
      record: expense({ id: 23, supplier: 'Müller', invoiceNumber: '', supplierCountry: 'DE', supplierVatNumber: 'DE123456789' }),
      problem: 'Facture sans numéro du 2026-10-05 (Müller) : le numéro de la facture du fournisseur manque, renseignez-le sur la dépense',
    },
    {
      name: 'an invoice number the platform refuses',
      record: expense({
        id: 24,
        supplier: 'Müller',
        invoiceNumber: 'RE.2026.001',
        supplierCountry: 'DE',
        supplierVatNumber: 'DE123456789',
      }),
      problem:
        'Facture RE.2026.001 du 2026-10-05 (Müller) : la plateforme n’accepte qu’un numéro de 35 caractères au plus, fait de lettres sans accent, chiffres, espaces et - + _ /',
    },
    {
      name: 'an amount in another currency',
      record: expense({
        id: 25,
        supplier: 'Cloud Inc.',
        invoiceNumber: 'U-1',
        supplierCountry: 'US',
        supplierVatNumber: '123',
        currency: 'USD',
        reverseCharge: 'services',
      }),
      problem:
        'Facture U-1 du 2026-10-05 (Cloud Inc.) : montant en USD, la déclaration se fait en euros ; saisissez la dépense en EUR au taux du jour de la facture',
    },
    {
      name: 'a credit note whose invoice is not among the expenses',
      record: expense({
        id: 26,
        kind: 'credit_note',
        supplier: 'Müller',
        invoiceNumber: 'A-1',
        supplierCountry: 'DE',
        supplierVatNumber: 'DE123456789',
        amount: '-10',
        precedingNumber: 'F-9',
      }),
      problem:
        'Avoir A-1 du 2026-10-05 (Müller) : un avoir déclaré doit citer la facture qu’il corrige, enregistrée dans vos dépenses (numéro et date)',
    },
    {
      name: 'VAT self-assessed at a rate that is not French',
      record: expense({
        id: 27,
        supplier: 'Müller',
        invoiceNumber: 'D-1',
        supplierCountry: 'DE',
        supplierVatNumber: 'DE123456789',
        reverseCharge: 'goods',
        vat: [{ rate: 19, amount: '19', deductible: true }],
      }),
      problem: 'Facture D-1 du 2026-10-05 (Müller) : la TVA autoliquidée l’est à un taux français ; 19 % n’en est pas un',
    },
  ];
  it.each(attention)('asks for what is missing, and leaves out the purchase, on $name', ({ record, problem }) => {
    expect(internationalPurchases([record], october)).toEqual({ purchases: [], problems: [problem] });
  });

  it('lists the amount HT of the period, credit notes deducted', () => {
    const records = [cases[0]?.record, cases[4]?.record, cases[1]?.record].filter((r): r is PurchaseRecord => r !== undefined);
    const { purchases } = internationalPurchases(records, october);
    expect(purchases.map((p) => p.number)).toEqual(['CN-7', 'INV-1', 'INV-2']);
    expect(toDecimalString(purchasesAmount(purchases), 2)).toBe('1684.56');
  });
});
