import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateUnits, rescale, roundDiv, toUnits4, unitsToNumber } from '../../src/shared/fixed';

describe('fixed-point units', () => {
  it.each([
    [5n, 2n, 3n],
    [-5n, 2n, -3n],
    [4n, 3n, 1n],
    [-4n, 3n, -1n],
    [7n, 7n, 1n],
    [0n, 9n, 0n],
  ])('roundDiv(%s, %s) = %s (half away from zero)', (n, d, expected) => {
    expect(roundDiv(n, d)).toBe(expected);
  });

  it.each([
    [12.5, 125000n],
    [1.005, 10050n],
    [-0.00005, -1n],
    [0.00004, 0n],
    ['1 234,5', 12345000n],
    [1e-7, 0n],
    [null, 0n],
  ])('toUnits4(%j) = %s', (value, expected) => {
    expect(toUnits4(value)).toBe(expected);
  });

  it('rescales with rounding, and back to numbers exactly', () => {
    expect(rescale(12345n, 4, 2)).toBe(123n);
    expect(rescale(12350n, 4, 2)).toBe(124n);
    expect(rescale(-12350n, 4, 2)).toBe(-124n);
    expect(rescale(12n, 2, 4)).toBe(1200n);
    expect(unitsToNumber(12345n, 2)).toBe(123.45);
    expect(unitsToNumber(-5n, 2)).toBe(-0.05);
  });

  it('every 4-decimal number survives the trip to units and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => {
        const value = n / 10_000;
        expect(unitsToNumber(toUnits4(value), 4)).toBe(value);
      }),
    );
  });

  it('allocates exactly, with the total’s sign', () => {
    expect(allocateUnits(10000n, [1n, 1n, 1n])).toEqual([3334n, 3333n, 3333n]);
    expect(allocateUnits(-5n, [1n, 1n])).toEqual([-3n, -2n]);
    expect(allocateUnits(7n, [0n, 0n])).toEqual([7n, 0n]);
    expect(allocateUnits(7n, [])).toEqual([]);
  });
});
