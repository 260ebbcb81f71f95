import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromStoredUnits, minorToStoredUnits, toMinorUnits, toStoredUnits } from '../../src/shared/money';
import { currencyPrecision } from '../../src/shared/currencies';
import { stripeKeyMode } from '../../src/shared/schemas/online-payment';

// A card processor counts in the currency's smallest unit: what a checkout asks and what Stripe answers go through these.
describe('amounts in the currency’s smallest unit', () => {
  it.each([
    [400, 'EUR', 40000n],
    [540.5, 'EUR', 54050n],
    [0.01, 'EUR', 1n],
    ['1234.56', 'EUR', 123456n],
    [1500, 'JPY', 1500n], // no decimals: the yen is its own smallest unit
    [12.345, 'KWD', 12345n], // three decimals
    [0, 'EUR', 0n],
  ])('%s %s is %s', (amount, currency, minor) => {
    expect(toMinorUnits(amount, currencyPrecision(currency))).toBe(minor);
  });

  it.each([
    [0.001, 'EUR'],
    [12.5, 'JPY'],
    [33.3333, 'EUR'],
  ])('%s %s is finer than the currency counts: refused, never rounded', (amount, currency) => {
    expect(toMinorUnits(amount, currencyPrecision(currency))).toBeNull();
  });

  it.each([
    [165, 2, 16_500], // Stripe's 1,65 € fee, stored in ten-thousandths
    [40000, 2, 4_000_000],
    [1500, 0, 15_000_000],
    [12345, 3, 123_450],
  ])('%d minor units of a %d-decimal currency are stored as %d', (minor, decimals, stored) => {
    expect(minorToStoredUnits(minor, decimals)).toBe(stored);
  });

  it('goes there and back exactly, for any amount in the currency’s units', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 11 }), fc.constantFrom(0, 2, 3), (minor, decimals) => {
        const stored = minorToStoredUnits(minor, decimals);
        expect(toMinorUnits(fromStoredUnits(stored), decimals)).toBe(BigInt(minor));
        expect(toStoredUnits(fromStoredUnits(stored))).toBe(stored);
      }),
    );
  });
});

describe('Stripe key modes', () => {
  it.each([
    ['pk_test_51Abc', 'test'],
    ['sk_live_51Abc', 'live'],
    ['rk_live_51Abc', 'live'],
    ['whsec_abc', null],
    ['', null],
  ])('%s → %s', (key, mode) => {
    expect(stripeKeyMode(key)).toBe(mode);
  });
});
