import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactAccountCode, isValidBic, isValidIban, printedIban } from '../../src/shared/iban';
import { mod97CheckDigits } from '../../src/shared/mod97';

describe('IBAN (ISO 13616)', () => {
  it.each([
    // The examples published by the European Committee for Banking Standards and the banks.
    'GB82 WEST 1234 5698 7654 32',
    'FR14 2004 1010 0505 0001 3M02 606',
    'FR76 3000 6000 0112 3456 7890 189',
    'DE89 3704 0044 0532 0130 00',
    'BE71 0961 2345 6769',
    'fr7630006000011234567890189',
  ])('%s is valid', (iban) => {
    expect(isValidIban(iban)).toBe(true);
  });

  it.each([
    ['a wrong check digit', 'FR76 3000 6000 0112 3456 7890 188'],
    ['two digits swapped', 'FR76 3000 6000 0112 3456 7890 198'],
    ['too short', 'FR76 3000 6000 01'],
    ['too long', `FR76${'1'.repeat(31)}`],
    ['no country', '7630006000011234567890189'],
    ['a dash', 'FR76-3000-6000-0112-3456-7890-189'],
    ['empty', ''],
  ])('%s is refused', (_why, iban) => {
    expect(isValidIban(iban)).toBe(false);
  });

  it('accepts every IBAN built with its check digits, and catches any digit changed in it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{2}$/), fc.stringMatching(/^[0-9]{11,30}$/), fc.nat(), fc.nat(9), (country, bban, at, digit) => {
        const iban = `${country}${mod97CheckDigits(bban, country)}${bban}`;
        expect(isValidIban(iban)).toBe(true);
        const i = 2 + (at % (iban.length - 2));
        fc.pre(iban[i] !== String(digit));
        expect(isValidIban(`${iban.slice(0, i)}${digit}${iban.slice(i + 1)}`)).toBe(false);
      }),
    );
  });

  it('keeps the electronic form (no spaces, upper case) and prints the paper form (groups of four)', () => {
    expect(compactAccountCode(' fr76 3000\t6000 0112 3456 7890 189 ')).toBe('FR7630006000011234567890189');
    expect(printedIban('FR7630006000011234567890189')).toBe('FR76 3000 6000 0112 3456 7890 189');
    expect(printedIban('be71096123456769')).toBe('BE71 0961 2345 6769');
  });
});

describe('BIC (ISO 9362)', () => {
  it.each(['BNPAFRPP', 'BNPAFRPPXXX', 'socg frpp', 'AGRIFRPP882'])('%s is valid', (bic) => {
    expect(isValidBic(bic)).toBe(true);
  });
  it.each(['BNPAFRP', 'BNPAFRPPXX', '1NPAFRPP', 'BNPA-FR-PP', ''])('%s is refused', (bic) => {
    expect(isValidBic(bic)).toBe(false);
  });
});
