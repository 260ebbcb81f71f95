import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertAmount, formatExchangeRate, formatRate, parseRate } from '../../src/shared/exchange';
import { money } from '../../src/shared/money';
import { currencyPrecision } from '../../src/shared/currencies';

const EUR = { code: 'EUR', rate: '1' };
const USD = { code: 'USD', rate: '1.085' };
const JPY = { code: 'JPY', rate: '162.35' };
const BHD = { code: 'BHD', rate: '0.4091' };

describe('convertAmount', () => {
  it.each([
    [100, EUR, USD, '108.5'],
    [108.5, USD, EUR, '100'],
    [0.01, EUR, USD, '0.01'], // 0,01085 → 0,01
    [0.05, EUR, USD, '0.05'], // 0,05425 → 0,05
    [10, USD, EUR, '9.22'], // 9,2165898… → 9,22
    [100, EUR, JPY, '16235'], // yen: no decimals
    [1.5, EUR, JPY, '244'], // 243,525 → 244
    [100, EUR, BHD, '40.91'], // dinar: 3 decimals
    [12.345, EUR, BHD, '5.05'], // 5,0503395 → 5,050
    [100, USD, JPY, '14963'], // cross rate through the base: 14963,133…
    [-0.5, EUR, { code: 'USD', rate: '1.01' }, '-0.51'], // -0,505: half away from zero
    [0.5, EUR, { code: 'USD', rate: '1.01' }, '0.51'],
    ['1 234,56', EUR, USD, '1339.5'], // typed the French way: 1339,4976 → 1339,50
  ])('%s from %o to %o = %s', (amount, from, to, expected) => {
    expect(convertAmount(amount, from, to).eq(money(expected))).toBe(true);
  });

  it('rounds an exact tie of a quotient half away from zero', () => {
    expect(convertAmount(1, { code: 'XXA', rate: '3' }, { code: 'USD', rate: '0.375' }).toFixed(2)).toBe('0.13'); // 0,125
    expect(convertAmount('0.015', { code: 'XXA', rate: '3' }, { code: 'USD', rate: '1' }).toFixed(2)).toBe('0.01'); // 0,005
    expect(convertAmount('-0.015', { code: 'XXA', rate: '3' }, { code: 'USD', rate: '1' }).toFixed(2)).toBe('-0.01');
    expect(convertAmount(2, { code: 'XXA', rate: '3' }, { code: 'USD', rate: '1' }).toFixed(2)).toBe('0.67'); // 0,666…
  });

  it('refuses a zero rate at the source', () => {
    expect(() => convertAmount(1, { code: 'USD', rate: '0' }, EUR)).toThrow(/Taux de change invalide/);
  });

  const amount = fc.integer({ min: -1e11, max: 1e11 }).map((cents) => money(cents).div(100));
  const rate = fc.integer({ min: 1, max: 1e12 }).map((micro) => ({ code: 'USD', rate: money(micro).div(1e6).toFixed() }));

  it('with rate 1 on both sides, is the identity on amounts of the target precision', () => {
    fc.assert(fc.property(amount, (a) => convertAmount(a, EUR, { code: 'EUR', rate: '1' }).eq(a)));
    fc.assert(fc.property(amount, rate, (a, r) => convertAmount(a, { ...r, code: 'EUR' }, { ...r, code: 'EUR' }).eq(a)));
  });

  it('always answers at the target currency’s precision', () => {
    fc.assert(
      fc.property(amount, rate, fc.constantFrom('EUR', 'JPY', 'BHD'), (a, r, code) => {
        const result = convertAmount(a, EUR, { code, rate: r.rate });
        return result.round(currencyPrecision(code)).eq(result);
      }),
    );
  });

  it('is within half a unit of the exact value, and a round trip comes back within the rounding it went through', () => {
    fc.assert(
      fc.property(amount, rate, (a, r) => {
        const there = convertAmount(a, EUR, r);
        const exact = a.times(r.rate);
        if (there.minus(exact).abs().gt('0.005')) return false;
        // Back: the error of the way there (≤ 0,005 USD) is worth ≤ 0,005 / rate EUR, plus the 0,005 of the way back.
        const back = convertAmount(there, r, EUR);
        const bound = money('0.005').div(r.rate).plus('0.005');
        return back.minus(a).abs().lte(bound);
      }),
    );
  });
});

describe('parseRate', () => {
  it.each([
    ['1,085', '1.085'],
    [' 1.0850 ', '1.085'],
    [1.085, '1.085'],
    ['162,35', '162.35'],
    ['1 000', '1000'],
    ['0,000001', '0.000001'],
    [1e-6, '0.000001'],
    ['1,2345670', '1.234567'],
  ])('reads %j as %s', (typed, rate) => {
    expect(parseRate(typed)).toEqual({ rate });
  });

  it.each([
    ['abc', 'doit être un nombre'],
    ['', 'doit être un nombre'],
    [null, 'doit être un nombre'],
    [Number.NaN, 'doit être un nombre'],
    ['1,2,3', 'doit être un nombre'],
    ['1e3', 'doit être un nombre'],
    [0, 'supérieur à 0'],
    ['-1,5', 'supérieur à 0'],
    ['1,0000001', '6 décimales au plus'],
    [0.1 + 0.2, '6 décimales au plus'],
    ['2000000000', 'ne peut dépasser'],
  ])('refuses %j', (typed, message) => {
    const parsed = parseRate(typed);
    expect('error' in parsed && parsed.error).toContain(message);
  });
});

describe('formatRate', () => {
  it.each([
    ['1.085', '1,0850'],
    ['1', '1,0000'],
    ['0.921659', '0,921659'],
    ['162.35', '162,3500'],
  ])('%s → %s', (rate, shown) => expect(formatRate(rate)).toBe(shown));

  it('reads like a bank quote', () => expect(formatExchangeRate('EUR', 'USD', '1.085')).toBe('1 EUR = 1,0850 USD'));
});
