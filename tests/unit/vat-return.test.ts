import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, money, ZERO, type Money } from '../../src/shared/money';
import { buildCa3, type Ca3Item, type Ca3LineCode } from '../../src/shared/vat-return/ca3-lines';
import { purchaseItems, purchaseNature, vatRowBases, type PurchaseExpense } from '../../src/shared/vat-return/purchases';
import { saleItems, type SaleDocument, type VatBasis } from '../../src/shared/vat-return/sales';

const base = {
  type: 'invoice',
  kind: 'standard',
  party: 'Client',
  zone: 'france',
  exchangeRate: '1',
  precision: 2,
  deposits: 0,
  correctsId: null,
  deductedById: null,
  payments: [],
} as const;

/** Goods 1 000 + service 100, both at 20 %: 1 100 HT, 220 VAT, 1 320 TTC. */
const mixed = (over: Partial<SaleDocument> = {}): SaleDocument => ({
  ...base,
  id: 1,
  number: 'F-1',
  date: '2026-03-10',
  total: 1320,
  tax: 220,
  groups: [{ rate: 20, base: 1100, amount: 220 }],
  lines: [
    { nature: 'goods', rates: [20], net: 1000 },
    { nature: 'services', rates: [20], net: 100 },
  ],
  ...over,
});

const MARCH = { from: '2026-03-01', to: '2026-03-31' };
const APRIL = { from: '2026-04-01', to: '2026-04-30' };

/** A line's figures as the return shows them, in cents as text: '200.00'. */
function lines(items: Ca3Item[], ...codes: Ca3LineCode[]) {
  const ca3 = buildCa3(items);
  return Object.fromEntries(
    codes.map((code) => {
      const l = ca3.find((x) => x.code === code);
      return [code, { base: l?.base?.toFixed(2) ?? null, tax: l?.tax?.toFixed(2) ?? null }];
    }),
  );
}

const sales = (docs: SaleDocument[], period: { from: string; to: string }, basis: VatBasis = 'receipts') =>
  saleItems(docs, { ...period, basis });

describe('VAT due on sales, line by line (worked examples)', () => {
  const cases: { name: string; docs: SaleDocument[]; period: { from: string; to: string }; basis?: VatBasis; expected: object }[] = [
    {
      name: 'mixed invoice issued unpaid: the goods VAT collected, the services VAT not',
      docs: [mixed()],
      period: MARCH,
      expected: { A1: { base: '1000.00', tax: null }, '08': { base: '1000.00', tax: '200.00' }, '28': { base: null, tax: '200.00' } },
    },
    {
      name: 'mixed invoice, half paid the next month: half of the services VAT then',
      docs: [mixed({ payments: [{ date: '2026-04-15', amount: 660 }] })],
      period: APRIL,
      expected: { A1: { base: '50.00', tax: null }, '08': { base: '50.00', tax: '10.00' } },
    },
    {
      name: 'mixed invoice on the débits: all of it when invoiced',
      docs: [mixed()],
      period: MARCH,
      basis: 'debits',
      expected: { '08': { base: '1100.00', tax: '220.00' } },
    },
    {
      name: 'credit note of the goods line: its VAT deducted when issued',
      docs: [
        mixed(),
        {
          ...base,
          type: 'credit',
          id: 2,
          number: 'AV-1',
          date: '2026-04-02',
          total: 240,
          tax: 40,
          groups: [{ rate: 20, base: 200, amount: 40 }],
          lines: [{ nature: 'goods', rates: [20], net: 200 }],
          correctsId: 1,
        },
      ],
      period: APRIL,
      expected: { A1: { base: '-200.00', tax: null }, '08': { base: '-200.00', tax: '-40.00' } },
    },
    {
      name: 'credit note of the unpaid service line: nothing to deduct, none was collected',
      docs: [
        mixed(),
        {
          ...base,
          type: 'credit',
          id: 2,
          number: 'AV-1',
          date: '2026-04-02',
          total: 120,
          tax: 20,
          groups: [{ rate: 20, base: 100, amount: 20 }],
          lines: [{ nature: 'services', rates: [20], net: 100 }],
          correctsId: 1,
        },
      ],
      period: APRIL,
      expected: { '08': { base: '0.00', tax: '0.00' } },
    },
    {
      name: 'deposit of 360 TTC received in March, final invoice of goods in April: 60 then 140',
      docs: [
        {
          ...base,
          kind: 'deposit',
          id: 3,
          number: 'F-2',
          date: '2026-03-05',
          total: 360,
          tax: 60,
          groups: [{ rate: 20, base: 300, amount: 60 }],
          lines: [{ nature: 'goods', rates: [20], net: 300 }],
          deductedById: 4,
          payments: [{ date: '2026-03-06', amount: 360 }],
        },
        {
          ...base,
          id: 4,
          number: 'F-3',
          date: '2026-04-20',
          total: 1200,
          tax: 200,
          deposits: 360,
          groups: [{ rate: 20, base: 1000, amount: 200 }],
          lines: [{ nature: 'goods', rates: [20], net: 1000 }],
        },
      ],
      period: MARCH,
      expected: { '08': { base: '300.00', tax: '60.00' } },
    },
    {
      name: 'the same sale in April: the final invoice net of the deposit',
      docs: [
        {
          ...base,
          kind: 'deposit',
          id: 3,
          number: 'F-2',
          date: '2026-03-05',
          total: 360,
          tax: 60,
          groups: [{ rate: 20, base: 300, amount: 60 }],
          lines: [{ nature: 'goods', rates: [20], net: 300 }],
          deductedById: 4,
          payments: [{ date: '2026-03-06', amount: 360 }],
        },
        {
          ...base,
          id: 4,
          number: 'F-3',
          date: '2026-04-20',
          total: 1200,
          tax: 200,
          deposits: 360,
          groups: [{ rate: 20, base: 1000, amount: 200 }],
          lines: [{ nature: 'goods', rates: [20], net: 1000 }],
        },
      ],
      period: APRIL,
      expected: { '08': { base: '700.00', tax: '140.00' } },
    },
    {
      name: 'a mixed sale: the final invoice less its deposit, goods when invoiced, services not yet paid',
      docs: [
        {
          ...base,
          kind: 'deposit',
          id: 3,
          number: 'F-2',
          date: '2026-03-05',
          total: 720,
          tax: 120,
          groups: [{ rate: 20, base: 600, amount: 120 }],
          lines: [{ nature: 'goods', rates: [20], net: 600 }],
          deductedById: 4,
          payments: [{ date: '2026-03-06', amount: 720 }],
        },
        {
          ...base,
          id: 4,
          number: 'F-3',
          date: '2026-04-20',
          total: 2400,
          tax: 400,
          deposits: 720,
          groups: [{ rate: 20, base: 2000, amount: 400 }],
          lines: [
            { nature: 'goods', rates: [20], net: 1000 },
            { nature: 'services', rates: [20], net: 1000 },
          ],
        },
      ],
      period: APRIL,
      expected: { '08': { base: '700.00', tax: '140.00' } },
    },
    {
      name: 'the same sale, half of the final invoice paid in May: half of its services, net of the deposit',
      docs: [
        {
          ...base,
          kind: 'deposit',
          id: 3,
          number: 'F-2',
          date: '2026-03-05',
          total: 720,
          tax: 120,
          groups: [{ rate: 20, base: 600, amount: 120 }],
          lines: [{ nature: 'goods', rates: [20], net: 600 }],
          deductedById: 4,
          payments: [{ date: '2026-03-06', amount: 720 }],
        },
        {
          ...base,
          id: 4,
          number: 'F-3',
          date: '2026-04-20',
          total: 2400,
          tax: 400,
          deposits: 720,
          groups: [{ rate: 20, base: 2000, amount: 400 }],
          lines: [
            { nature: 'goods', rates: [20], net: 1000 },
            { nature: 'services', rates: [20], net: 1000 },
          ],
          payments: [{ date: '2026-05-02', amount: 840 }],
        },
      ],
      period: { from: '2026-05-01', to: '2026-05-31' },
      expected: { '08': { base: '350.00', tax: '70.00' } },
    },
    {
      name: 'a deposit invoiced but not received: no VAT yet, even on goods',
      docs: [
        {
          ...base,
          kind: 'deposit',
          id: 3,
          number: 'F-2',
          date: '2026-03-05',
          total: 360,
          tax: 60,
          groups: [{ rate: 20, base: 300, amount: 60 }],
          lines: [{ nature: 'goods', rates: [20], net: 300 }],
        },
      ],
      period: MARCH,
      expected: { '08': { base: '0.00', tax: '0.00' } },
    },
    {
      name: 'untaxed lines: an export of goods (E1), a supply to an EU business (F2), services abroad (E2)',
      docs: [
        {
          ...base,
          id: 5,
          number: 'F-5',
          date: '2026-03-02',
          zone: 'outside_eu',
          total: 500,
          tax: 0,
          groups: [],
          lines: [{ nature: 'goods', rates: [], net: 500 }],
        },
        {
          ...base,
          id: 6,
          number: 'F-6',
          date: '2026-03-03',
          zone: 'eu_business',
          total: 800,
          tax: 0,
          groups: [],
          lines: [
            { nature: 'goods', rates: [], net: 800 },
            { nature: 'services', rates: [], net: 0 },
          ],
        },
        {
          ...base,
          id: 7,
          number: 'F-7',
          date: '2026-03-04',
          zone: 'eu_business',
          total: 300,
          tax: 0,
          groups: [],
          lines: [{ nature: 'services', rates: [], net: 300 }],
        },
      ],
      period: MARCH,
      expected: {
        E1: { base: '500.00', tax: null },
        F2: { base: '800.00', tax: null },
        E2: { base: '300.00', tax: null },
        A1: { base: '0.00', tax: null },
      },
    },
    {
      name: 'an invoice in dollars converted at its rate of issue (1 000 USD HT at 1,085)',
      docs: [
        {
          ...base,
          id: 8,
          number: 'F-8',
          date: '2026-03-09',
          exchangeRate: '1.085',
          total: 1200,
          tax: 200,
          groups: [{ rate: 20, base: 1000, amount: 200 }],
          lines: [{ nature: 'goods', rates: [20], net: 1000 }],
        },
      ],
      period: MARCH,
      expected: { '08': { base: '921.66', tax: '184.33' } },
    },
  ];
  it.each(cases)('$name', ({ docs, period, basis, expected }) => {
    const items = sales(docs, period, basis);
    expect(lines(items, ...(Object.keys(expected) as Ca3LineCode[]))).toEqual(expected);
  });

  it('names the documents behind each line, with why they fall in the period', () => {
    const items = sales([mixed({ payments: [{ date: '2026-03-20', amount: 132 }] })], MARCH);
    expect(items.map((i) => [i.line, i.reference, i.nature, i.base.toFixed(2), i.tax.toFixed(2), i.date])).toEqual([
      ['08', 'F-1', 'goods', '1000.00', '200.00', '2026-03-10'],
      ['08', 'F-1', 'services', '10.00', '2.00', '2026-03-20'],
    ]);
    expect(items[1]?.basis).toMatch(/^À l’encaissement : 10 % payés/);
  });
});

describe('deductible VAT on expenses (CGI art. 271)', () => {
  const expense = (over: Partial<PurchaseExpense>): PurchaseExpense => ({
    id: 1,
    reference: 'A-1',
    supplier: 'Fournisseur',
    date: '2026-03-03',
    paidAt: null,
    nature: 'goods',
    reverseCharge: '',
    amount: 120,
    vat: [{ rate: 20, amount: 20, deductible: true }],
    ...over,
  });
  const cases: { name: string; expense: PurchaseExpense; expected: object }[] = [
    {
      name: 'a 0,27 expense with 0,05 of VAT: base 0,22 (TTC − VAT), not 0,25',
      expense: expense({ amount: 0.27, vat: [{ rate: 20, amount: 0.05, deductible: true }] }),
      expected: { '20': { base: null, tax: '0.05' } },
    },
    {
      name: 'an intra-community acquisition: base on B2, VAT owed on 08 and 17, deducted on 20, nothing in A1',
      expense: expense({ reverseCharge: 'goods', amount: 1000, vat: [{ rate: 20, amount: 200, deductible: true }] }),
      expected: {
        A1: { base: '0.00', tax: null },
        B2: { base: '1000.00', tax: null },
        '08': { base: '1000.00', tax: '200.00' },
        '16': { base: null, tax: '200.00' },
        '17': { base: null, tax: '200.00' },
        '20': { base: null, tax: '200.00' },
        '28': { base: null, tax: '0.00' },
      },
    },
    {
      name: 'services from abroad, unpaid: self-assessed on the invoice date (A3), owed and deducted',
      expense: expense({ reverseCharge: 'services', nature: 'services', amount: 500, vat: [{ rate: 20, amount: 100, deductible: true }] }),
      expected: {
        A3: { base: '500.00', tax: null },
        '08': { base: '500.00', tax: '100.00' },
        '17': { base: null, tax: '0.00' },
        '20': { base: null, tax: '100.00' },
      },
    },
    { name: 'goods unpaid: deductible when invoiced', expense: expense({}), expected: { '20': { base: null, tax: '20.00' } } },
    {
      name: 'services unpaid: nothing deductible',
      expense: expense({ nature: 'services' }),
      expected: { '20': { base: null, tax: '0.00' } },
    },
    {
      name: 'services paid in April: nothing in March',
      expense: expense({ nature: 'services', paidAt: '2026-04-02' }),
      expected: { '20': { base: null, tax: '0.00' } },
    },
    {
      name: 'services paid in March: deductible',
      expense: expense({ nature: 'services', paidAt: '2026-03-30' }),
      expected: { '20': { base: null, tax: '20.00' } },
    },
    {
      name: 'a fixed asset: line 19',
      expense: expense({ nature: 'asset' }),
      expected: { '19': { base: null, tax: '20.00' }, '20': { base: null, tax: '0.00' } },
    },
    {
      name: 'VAT marked not deductible: none',
      expense: expense({ vat: [{ rate: 20, amount: 20, deductible: false }] }),
      expected: { '20': { base: null, tax: '0.00' } },
    },
    {
      name: 'a supplier credit note on goods comes off',
      expense: expense({ amount: -60, vat: [{ rate: 20, amount: -10, deductible: true }] }),
      expected: { '20': { base: null, tax: '-10.00' }, '28': { base: null, tax: '10.00' } },
    },
  ];
  it.each(cases)('$name', ({ expense, expected }) => {
    expect(lines(purchaseItems([expense], MARCH), ...(Object.keys(expected) as Ca3LineCode[]))).toEqual(expected);
  });

  it('the base of each rate is TTC − VAT shared in proportion of VAT ÷ rate', () => {
    expect(vatRowBases(0.27, [{ rate: 20, amount: 0.05, deductible: true }]).map((b) => b.toFixed(2))).toEqual(['0.22']);
    // 100 HT at 20 % and 40 HT at 5,5 %: 20 + 2,20 of VAT, 162,20 TTC.
    const rows = [
      { rate: 20, amount: 20, deductible: true },
      { rate: 5.5, amount: 2.2, deductible: true },
    ];
    expect(vatRowBases(162.2, rows).map((b) => b.toFixed(2))).toEqual(['100.00', '40.00']);
  });

  it('goods, services and fixed assets from the category account', () => {
    expect(['607000', '606300', '604000', '622600', '218300', '651000'].map(purchaseNature)).toEqual([
      'goods',
      'goods',
      'services',
      'services',
      'asset',
      'services',
    ]);
  });
});

describe('the return adds up', () => {
  it('16 − 23 is 28 or 25; a refund comes off the credit carried', () => {
    const item = (line: Ca3Item['line'], tax: number): Ca3Item => ({
      line,
      source: 'invoice',
      id: 1,
      reference: 'x',
      party: 'x',
      date: '2026-03-01',
      nature: null,
      basis: '',
      rate: 20,
      base: money(tax * 5),
      tax: money(tax),
      reverseCharge: null,
    });
    const ca3 = buildCa3([item('08', 100), item('20', 130)], { previousCredit: money(20), refund: money(30) });
    const get = (code: Ca3LineCode) => ca3.find((l) => l.code === code)?.tax?.toFixed(2);
    expect([get('16'), get('23'), get('25'), get('26'), get('27'), get('28')]).toEqual([
      '100.00',
      '150.00',
      '50.00',
      '30.00',
      '20.00',
      '0.00',
    ]);
  });

  it('months add up to the year, to the cent, whatever the payments (property)', () => {
    const sale = fc.record({
      goods: fc.integer({ min: 0, max: 100_000 }),
      services: fc.integer({ min: 1, max: 100_000 }),
      payments: fc.array(fc.record({ month: fc.integer({ min: 1, max: 12 }), share: fc.integer({ min: 1, max: 40 }) }), { maxLength: 5 }),
      credit: fc.option(fc.record({ month: fc.integer({ min: 1, max: 12 }), cents: fc.integer({ min: 1, max: 100_000 }) })),
    });
    fc.assert(
      fc.property(sale, ({ goods, services, payments, credit }) => {
        // Amounts in cents, rate 20 %: VAT rounded per group as the totals engine does.
        const net = money(goods + services).div(100);
        const vat = net.times(0.2).round(2);
        const total = net.plus(vat);
        const inv: SaleDocument = {
          ...base,
          id: 1,
          number: 'F-1',
          date: '2026-01-15',
          total: total.toFixed(),
          tax: vat.toFixed(),
          groups: [{ rate: 20, base: net.toFixed(), amount: vat.toFixed() }],
          lines: [
            { nature: 'goods', rates: [20], net: goods / 100 },
            { nature: 'services', rates: [20], net: services / 100 },
          ],
          payments: payments.map((p) => ({
            date: `2026-${String(p.month).padStart(2, '0')}-10`,
            amount: total.times(p.share).div(100).round(2).toFixed(),
          })),
        };
        const docs: SaleDocument[] = [inv];
        if (credit) {
          const creditNet = money(Math.min(credit.cents, goods + services)).div(100);
          const creditVat = creditNet.times(0.2).round(2);
          docs.push({
            ...base,
            type: 'credit',
            id: 2,
            number: 'AV-1',
            date: `2026-${String(credit.month).padStart(2, '0')}-20`,
            total: creditNet.plus(creditVat).toFixed(),
            tax: creditVat.toFixed(),
            groups: [{ rate: 20, base: creditNet.toFixed(), amount: creditVat.toFixed() }],
            lines: [{ nature: 'services', rates: [20], net: creditNet.toFixed() }],
            correctsId: 1,
          });
        }
        const sumTax = (items: Ca3Item[]) => items.reduce<Money>((s, i) => add(s, i.tax), ZERO);
        let months = ZERO;
        for (let m = 1; m <= 12; m++) {
          const mm = String(m).padStart(2, '0');
          months = add(months, sumTax(sales(docs, { from: `2026-${mm}-01`, to: `2026-${mm}-31` })));
        }
        expect(months.toFixed(2)).toBe(sumTax(sales(docs, { from: '2026-01-01', to: '2026-12-31' })).toFixed(2));
      }),
    );
  });
});
