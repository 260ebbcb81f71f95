import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lineAmounts, precisionOf } from '../../src/server/db/migrations/0008_line_amounts';
import { computeTotals } from '../../src/shared/totals';
import { currencyPrecision } from '../../src/shared/currencies';

// Migration 0008 carries its own copy of the totals core it ran with: today's core still gives the same line amounts,
// so the copy is exact; when today's changes on purpose, this test says so and the migration keeps what it wrote.
const decimal = (max: number, scale: number) =>
  fc.integer({ min: -max * 10 ** scale, max: max * 10 ** scale }).map((n) => (n / 10 ** scale).toString());
const line = fc.record({
  quantity: fc.oneof(decimal(1000, 3), fc.constant('')),
  unit_price: fc.oneof(decimal(100000, 4), fc.constant('')),
  discount_type: fc.constantFrom('percent' as const, 'amount' as const),
  discount_value: fc.oneof(decimal(120, 2), fc.constant('')),
  taxes: fc.array(fc.record({ title: fc.constantFrom('TVA', 'TVA 20 %', 'Taxe'), rate: fc.constantFrom(20, 10, 5.5, 2.1, 0, 8.5) }), {
    maxLength: 2,
  }),
});

describe('migration 0008’s copy of the totals core', () => {
  it('rounds each currency as the catalogue does', () => {
    for (const code of ['EUR', 'USD', 'JPY', 'KWD', 'XOF', 'CHF', 'TND', 'ISK', 'eur', 'ZZZ'])
      expect(precisionOf(code), code).toBe(currencyPrecision(code));
  });

  it('gives every line the amounts the shared core gives it, in HT and TTC mode', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.constantFrom(0, 2, 3), (items, ttc, precision) => {
        const expected = computeTotals({ items, price_mode: ttc ? 'ttc' : 'ht', precision }).lines;
        expect(lineAmounts(items, ttc, precision)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
