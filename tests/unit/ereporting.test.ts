import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, money, round, ZERO } from '../../src/shared/money';
import { b2cDailyTransactions, periodRange, periodsOfYear, type ReportingFrequency } from '../../src/shared/ereporting';
import type { SaleDocument } from '../../src/shared/vat-return/sales';

const sale = (over: Partial<SaleDocument> & Pick<SaleDocument, 'id' | 'date' | 'lines' | 'groups' | 'total' | 'tax'>): SaleDocument => ({
  type: 'invoice',
  kind: 'standard',
  number: `F-${over.id}`,
  party: 'Jeanne Petit',
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

describe('periods of the VAT regime', () => {
  it.each<[ReportingFrequency, number, string, string, string]>([
    ['monthly', 12, '2026-02', '2026-02-01', '2026-02-28'],
    ['monthly', 12, '2028-02', '2028-02-01', '2028-02-29'],
    ['bimonthly', 6, '2026-11', '2026-11-01', '2026-12-31'],
    ['ten_days', 36, '2026-10-D3', '2026-10-21', '2026-10-31'],
  ])('%s: %i periods; %s runs from %s to %s', (frequency, count, period, from, to) => {
    const year = Number(period.slice(0, 4));
    expect(periodsOfYear(year, frequency)).toHaveLength(count);
    expect(periodRange(period, frequency)).toEqual({ period, from, to });
  });

  it.each([
    ['2026-10-D1', 'monthly'],
    ['2026-02', 'bimonthly'],
    ['2026-13', 'monthly'],
    ['1999-01', 'monthly'],
    ['2026-1', 'monthly'],
  ] as const)('%s is no period of a %s regime', (period, frequency) => {
    expect(periodRange(period, frequency)).toBeNull();
  });

  it('the periods of a year follow each other without gap nor overlap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2099 }),
        fc.constantFrom<ReportingFrequency>('ten_days', 'monthly', 'bimonthly'),
        (year, f) => {
          const periods = periodsOfYear(year, f);
          expect(periods[0]?.from).toBe(`${year}-01-01`);
          expect(periods.at(-1)?.to).toBe(`${year}-12-31`);
          for (let i = 1; i < periods.length; i++) {
            const next = new Date(`${periods[i - 1]?.to}T00:00:00Z`);
            next.setUTCDate(next.getUTCDate() + 1);
            expect(periods[i]?.from).toBe(next.toISOString().slice(0, 10));
          }
        },
      ),
    );
  });
});

describe('B2C sales per day, category and rate (Flux 10.3)', () => {
  const october = { from: '2026-10-01', to: '2026-10-31' };

  it('splits a mixed sale by nature, deducts credit notes, leaves businesses and other months out', () => {
    const days = b2cDailyTransactions(
      [
        sale({
          id: 1,
          date: '2026-10-02',
          total: 126.5,
          tax: 16.5,
          groups: [
            { rate: 20, base: 60, amount: 12 },
            { rate: 5.5, base: 50, amount: 2.75 },
            { rate: 10, base: 0, amount: 0 },
          ],
          lines: [
            { nature: 'services', rates: [20], net: 60 },
            { nature: 'goods', rates: [5.5], net: 50 },
          ],
        }),
        sale({
          id: 2,
          type: 'credit',
          date: '2026-10-02',
          total: 12,
          tax: 2,
          groups: [{ rate: 20, base: 10, amount: 2 }],
          lines: [{ nature: 'services', rates: [20], net: 10 }],
        }),
        sale({
          id: 3,
          individual: false,
          date: '2026-10-02',
          total: 120,
          tax: 20,
          groups: [{ rate: 20, base: 100, amount: 20 }],
          lines: [{ nature: 'services', rates: [20], net: 100 }],
        }),
        sale({
          id: 4,
          date: '2026-11-01',
          total: 120,
          tax: 20,
          groups: [{ rate: 20, base: 100, amount: 20 }],
          lines: [{ nature: 'services', rates: [20], net: 100 }],
        }),
        sale({
          id: 5,
          zone: 'outside_eu',
          date: '2026-10-03',
          total: 40,
          tax: 0,
          groups: [],
          lines: [{ nature: 'goods', rates: [], net: 40 }],
        }),
      ],
      october,
    );
    const plain = days.map((d) => ({
      date: d.date,
      category: d.category,
      count: d.count,
      base: d.base.toFixed(2),
      tax: d.tax.toFixed(2),
      subtotals: d.subtotals.map((s) => [s.rate, s.base.toFixed(2), s.tax.toFixed(2)]),
    }));
    expect(plain).toEqual([
      { date: '2026-10-02', category: 'TLB1', count: 1, base: '50.00', tax: '2.75', subtotals: [[5.5, '50.00', '2.75']] },
      { date: '2026-10-02', category: 'TPS1', count: 2, base: '50.00', tax: '10.00', subtotals: [[20, '50.00', '10.00']] },
      { date: '2026-10-03', category: 'TNT1', count: 1, base: '40.00', tax: '0.00', subtotals: [[0, '40.00', '0.00']] },
    ]);
  });

  it('a day’s totals are exactly the sums of its rates, whatever the amounts', () => {
    const cents = fc.integer({ min: 1, max: 10_000_00 }).map((c) => c / 100);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(cents, fc.constantFrom(20, 10, 5.5, 2.1), fc.integer({ min: 1, max: 28 })), { minLength: 1, maxLength: 20 }),
        (specs) => {
          const docs = specs.map(([net, rate, day], i) => {
            const tax = round(money(net).times(rate).div(100), 2);
            return sale({
              id: i + 1,
              date: `2026-10-${String(day).padStart(2, '0')}`,
              total: add(net, tax).toFixed(2),
              tax: tax.toFixed(2),
              groups: [{ rate, base: net, amount: tax.toFixed(2) }],
              lines: [{ nature: 'goods', rates: [rate], net }],
            });
          });
          const days = b2cDailyTransactions(docs, october);
          for (const d of days) {
            expect(d.base.eq(d.subtotals.reduce((s, v) => add(s, v.base), ZERO))).toBe(true);
            expect(d.tax.eq(d.subtotals.reduce((s, v) => add(s, v.tax), ZERO))).toBe(true);
          }
          const total = days.reduce((s, d) => add(s, d.base), ZERO);
          expect(total.eq(specs.reduce((s, [net]) => add(s, net), ZERO))).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});
