import { describe, expect, it } from 'vitest';
import { internationalInvoices } from '../../src/shared/ereporting-international';
import { servicePayments } from '../../src/shared/ereporting-payments';
import type { SaleDocument } from '../../src/shared/vat-return/sales';

const sale = (over: Partial<SaleDocument> & Pick<SaleDocument, 'id' | 'lines' | 'groups' | 'total' | 'tax'>): SaleDocument => ({
  type: 'invoice',
  kind: 'standard',
  number: `F-${over.id}`,
  date: '2026-10-05',
  party: 'Client',
  zone: 'france',
  exchangeRate: '1',
  precision: 2,
  deposits: 0,
  correctsId: null,
  deductedById: null,
  payments: [],
  individual: true,
  ...over,
});
const october = { from: '2026-10-01', to: '2026-10-31' };

describe('Flux 10.1: international B2B invoices', () => {
  it('names the category of each untaxed part by where the buyer is, and converts to euros', () => {
    const swiss = sale({
      id: 1,
      individual: false,
      zone: 'outside_eu',
      buyer: { zone: 'outside_eu', country: 'CH', vatNumber: 'CHE-123.456.789', businessId: '' },
      exchangeRate: '0.9',
      lines: [
        { nature: 'services', rates: [20], net: 900 },
        { nature: 'goods', rates: [], net: 90 },
      ],
      groups: [{ rate: 20, base: 900, amount: 180 }],
      total: 1170,
      tax: 180,
    });
    const { invoices, problems } = internationalInvoices([swiss], october);
    expect(problems).toEqual([]);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ typeCode: '380', process: 'M1', buyer: { scheme: '0227', id: 'CHE123456789', country: 'CH' } });
    expect(invoices[0]?.subtotals.map((s) => [s.category, s.rate, s.base.toFixed(2), s.tax.toFixed(2)])).toEqual([
      ['S', 20, '1000.00', '200.00'],
      ['G', 0, '100.00', '0.00'],
    ]);
    expect(invoices[0]?.base.toFixed(2)).toBe('1100.00');
  });

  it('leaves out private persons and French businesses; says in French what a buyer lacks', () => {
    const lines = [{ nature: 'services' as const, rates: [20], net: 100 }];
    const groups = [{ rate: 20, base: 100, amount: 20 }];
    const docs = [
      sale({ id: 1, lines, groups, total: 120, tax: 20 }),
      sale({
        id: 2,
        individual: false,
        buyer: { zone: 'france', country: 'FR', vatNumber: '', businessId: '' },
        lines,
        groups,
        total: 120,
        tax: 20,
      }),
      sale({
        id: 3,
        individual: false,
        buyer: { zone: 'eu', country: 'BE', vatNumber: '', businessId: '' },
        lines,
        groups,
        total: 120,
        tax: 20,
      }),
    ];
    const { invoices, problems } = internationalInvoices(docs, october);
    expect(invoices.map((i) => i.id)).toEqual([3]);
    expect(problems).toEqual(['F-3 (Client)\u00a0: le numéro de TVA intracommunautaire du client manque, renseignez-le sur sa fiche']);
  });
});

describe('Flux 10.2 and 10.4: payments of services taxed on receipt', () => {
  const mixed = (over: Partial<SaleDocument> = {}) =>
    sale({
      id: 1,
      lines: [
        { nature: 'services', rates: [20], net: 100 },
        { nature: 'goods', rates: [5.5], net: 100 },
      ],
      groups: [
        { rate: 20, base: 100, amount: 20 },
        { rate: 5.5, base: 100, amount: 5.5 },
      ],
      total: 225.5,
      tax: 25.5,
      ...over,
    });

  it('splits a payment pro rata, keeps the services, nets a cancelled payment on its day, never negative', () => {
    const doc = mixed({
      payments: [
        { date: '2026-10-05', amount: 100 },
        { date: '2026-10-06', amount: 50 },
        { date: '2026-10-06', amount: -50 },
        { date: '2026-09-30', amount: 10 },
      ],
    });
    const { invoices, days } = servicePayments([doc], { ...october, basis: 'receipts' });
    expect(invoices).toEqual([]);
    // 100 × 120 / 225,50 = 53,215… → 53,22 (the goods' share takes the rest: 46,78).
    expect(days.map((d) => [d.date, d.subtotals.map((s) => [s.rate, s.amount.toFixed(2)])])).toEqual([['2026-10-05', [[20, '53.22']]]]);
  });

  it('names each international B2B invoice paid (10.2); nothing under the débits', () => {
    const doc = mixed({
      individual: false,
      buyer: { zone: 'outside_eu', country: 'US', vatNumber: '12-3456789', businessId: '' },
      payments: [{ date: '2026-10-10', amount: 225.5 }],
    });
    const receipts = servicePayments([doc], { ...october, basis: 'receipts' });
    expect(receipts.days).toEqual([]);
    expect(receipts.invoices).toHaveLength(1);
    expect(receipts.invoices[0]?.payments[0]?.subtotals[0]?.amount.toFixed(2)).toBe('120.00');
    expect(servicePayments([doc], { ...october, basis: 'debits' })).toEqual({ invoices: [], days: [] });
  });
});
