import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, allocate, money, round, sum, toNumber } from '../../src/shared/money';
import { defined } from '../../src/shared/defined';

describe('money', () => {
  it('adds without binary drift', () => {
    expect(toNumber(add(0.1, 0.2))).toBe(0.3);
    expect(toNumber(sum([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]))).toBe(1);
  });

  it.each([
    [0.125, 2, 0.13],
    [1.005, 2, 1.01], // 1.005 is 1.00499999… as a double: decimal parsing keeps it 1.005
    [-1.005, 2, -1.01], // half away from zero, not half up
    [2.5, 0, 3],
    [-2.5, 0, -3],
    [1.0004999, 3, 1],
    [1234.5678, 3, 1234.568],
  ])('round(%d, %d) = %d', (value, precision, expected) => {
    expect(toNumber(round(value, precision))).toBe(expected);
  });

  it.each([
    ['1 234,50', 1234.5],
    ['1234.50', 1234.5],
    ['-3', -3],
    ['\u202f12,5', 12.5],
  ])('reads %s as typed in France', (text, expected) => {
    expect(toNumber(money(text))).toBe(expected);
  });

  it.each(['', 'abc', '1,2,3', '12€'])('refuses %j (empty is zero)', (text) => {
    if (text === '') expect(toNumber(money(text))).toBe(0);
    else expect(() => money(text)).toThrow(/Montant invalide/);
  });

  it('allocates 100,00 over three equal weights as 33,34 + 33,33 + 33,33', () => {
    expect(allocate(100, [1, 1, 1], 2).map((m) => toNumber(m))).toEqual([33.34, 33.33, 33.33]);
    expect(allocate(-0.05, [1, 1], 2).map((m) => toNumber(m))).toEqual([-0.03, -0.02]);
    expect(allocate(10, [0, 0], 2).map((m) => toNumber(m))).toEqual([10, 0]);
  });

  it('allocation always adds up to the total, each share within one unit of its exact part', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 30 }),
        (cents, weights) => {
          const total = money(cents).div(100);
          const shares = allocate(total, weights, 2);
          expect(sum(shares).eq(total)).toBe(true);
          const weightSum = weights.reduce((a, b) => a + b, 0);
          if (weightSum > 0) {
            shares.forEach((share, i) => {
              const exact = total.times(defined(weights[i], 'weights[i]')).div(weightSum);
              expect(share.minus(exact).abs().lte(0.01)).toBe(true);
            });
          }
        },
      ),
    );
  });
});
