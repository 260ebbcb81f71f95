import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateUnits,
  fromStoredUnits,
  hasAtMostDecimals,
  parseAmount,
  rescale,
  roundDiv,
  toDecimalString,
  toStoredUnits,
  toUnits4,
  unitsToDecimalText,
  unitsToNumber,
} from '../../src/shared/money';

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

describe('money edges', () => {
  it('stores amounts as 10^-4 integers and reads them back', () => {
    expect(toStoredUnits(12.5)).toBe(125000);
    expect(toStoredUnits('1 234,5678')).toBe(12345678);
    expect(toStoredUnits(null)).toBe(0);
    expect(fromStoredUnits(125000)).toBe(12.5);
    expect(fromStoredUnits(-1)).toBe(-0.0001);
    expect(fromStoredUnits(null)).toBe(0);
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => toStoredUnits(fromStoredUnits(n)) === n));
  });

  it('parses a typed amount the French way', () => {
    expect(parseAmount('1 234,5')).toBe(1234.5);
    expect(parseAmount(' 12.50 ')).toBe(12.5);
    expect(parseAmount('')).toBeUndefined();
    expect(parseAmount('12,5,3')).toBeNaN();
    expect(parseAmount('abc')).toBeNaN();
  });

  it('checks decimals without float arithmetic, tolerating float noise', () => {
    expect(hasAtMostDecimals(12.3456, 4)).toBe(true);
    expect(hasAtMostDecimals(12.34567, 4)).toBe(false);
    expect(hasAtMostDecimals(0.1 + 0.2, 4)).toBe(true);
    expect(hasAtMostDecimals(1.005, 2)).toBe(false);
    expect(hasAtMostDecimals(Number.POSITIVE_INFINITY, 4)).toBe(false);
  });

  it('writes exact decimal text', () => {
    expect(unitsToDecimalText(12345n, 2)).toBe('123.45');
    expect(unitsToDecimalText(-5n, 2)).toBe('-0.05');
    expect(unitsToDecimalText(7n, 0)).toBe('7');
    expect(toDecimalString('1.005', 2)).toBe('1.01');
    expect(toDecimalString(-1.005, 2)).toBe('-1.01');
    expect(toDecimalString('1.0850')).toBe('1.085');
  });
});
