import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compactReference,
  creditorReference,
  invoiceReference,
  isValidCreditorReference,
  printedReference,
} from '../../src/shared/creditor-reference';
import { mod97 } from '../../src/shared/mod97';

/** ISO 7064 MOD 97-10 as the standard states it: the rearranged reference, letters as numbers, one big integer. */
const bigMod97 = (ref: string) =>
  Number(
    BigInt(
      `${ref.slice(4)}${ref.slice(0, 4)}`
        .split('')
        .map((c) => Number.parseInt(c, 36))
        .join(''),
    ) % 97n,
  );

const alphanumeric = fc.stringMatching(/^[A-Z0-9]{1,21}$/);

describe('ISO 11649 creditor reference', () => {
  it.each([
    // The examples of ISO 11649 and of the banks' guides.
    'RF18539007547034',
    'RF18 5390 0754 7034',
    'RF712348231',
    'rf71 2348 231',
    'RF45G72UUR',
    'RF6518K5',
  ])('%s is valid', (ref) => {
    expect(isValidCreditorReference(ref)).toBe(true);
  });

  it.each([
    ['a wrong check digit', 'RF19539007547034'],
    ['two digits swapped', 'RF18539007547043'],
    ['no body', 'RF18'],
    ['a body of 22 characters', `RF00${'1'.repeat(22)}`],
    ['check digits of another body', 'RF35C4'],
    ['another prefix', 'XX18539007547034'],
    ['a character outside A-Z 0-9', 'RF18-539007547034'],
    ['letters in the check digits', 'RFAB539007547034'],
    ['empty', ''],
  ])('%s is refused', (_why, ref) => {
    expect(isValidCreditorReference(ref)).toBe(false);
  });

  it.each([
    ['539007547034', 'RF18539007547034'],
    ['2348231', 'RF712348231'],
    ['FA-2026-0001', 'RF26FA20260001'],
    ['fa 2026/0001', 'RF26FA20260001'],
    ['ACPT-2026-012', 'RF02ACPT2026012'],
  ])('the number %s gives %s', (number, ref) => {
    expect(creditorReference(number)).toBe(ref);
  });

  it('gives none when the number keeps no letter or digit, or more than 21', () => {
    expect(creditorReference('---')).toBeNull();
    expect(creditorReference('')).toBeNull();
    expect(creditorReference('FACTURE-2026-000000000001')).toBeNull();
    expect(creditorReference('FACT-2026-00000000001')?.slice(4)).toBe('FACT202600000000001');
  });

  it('belongs to issued invoices and deposit invoices only: not to drafts, credit notes or quotes', () => {
    expect(invoiceReference({ type: 'invoice', number: 'F2026-0001' })).toBe('RF12F20260001');
    expect(invoiceReference({ type: 'invoice', number: null })).toBeNull();
    expect(invoiceReference({ type: 'credit', number: 'A2026-0001' })).toBeNull();
    expect(invoiceReference({ type: 'estimate', number: 'D2026-0001' })).toBeNull();
  });

  it('prints in groups of four and reads back without spaces', () => {
    expect(printedReference('RF18539007547034')).toBe('RF18 5390 0754 7034');
    expect(printedReference('RF712348231')).toBe('RF71 2348 231');
    expect(compactReference(' rf18 5390 0754 7034 ')).toBe('RF18539007547034');
  });

  it('every reference it derives passes MOD 97-10, as the big-integer definition computes it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (number) => {
        const ref = creditorReference(number);
        fc.pre(ref !== null);
        expect(isValidCreditorReference(ref as string)).toBe(true);
        expect(bigMod97(ref as string)).toBe(1);
        expect(ref?.slice(4)).toBe(number.toUpperCase().replace(/[^A-Z0-9]/g, ''));
      }),
    );
  });

  // A letter counts as two digits, so a letter swapped with a digit can leave the same digits ('B1' and '1B' both read
  // 111): MOD 97-10 promises to catch a changed character or a swap within the same class, which is what is checked.
  const sameClass = (a: string, b: string) => /\d/.test(a) === /\d/.test(b);

  it('detects any character changed for another of its class, and any swap of two different neighbours of a class', () => {
    fc.assert(
      fc.property(alphanumeric, fc.nat(), fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'), (body, at, char) => {
        const ref = creditorReference(body) as string;
        const i = 2 + (at % (ref.length - 2));
        fc.pre(ref[i] !== char && sameClass(ref[i] as string, char));
        expect(isValidCreditorReference(`${ref.slice(0, i)}${char}${ref.slice(i + 1)}`)).toBe(false);
      }),
    );
    fc.assert(
      fc.property(alphanumeric, fc.nat(), (body, at) => {
        const ref = creditorReference(body) as string;
        fc.pre(ref.length > 5);
        const i = 2 + (at % (ref.length - 3));
        const [a, b] = [ref[i] as string, ref[i + 1] as string];
        fc.pre(a !== b && sameClass(a, b));
        expect(isValidCreditorReference(`${ref.slice(0, i)}${b}${a}${ref.slice(i + 2)}`)).toBe(false);
      }),
    );
  });

  it('of the hundred check digits a body can take, only the derived ones pass', () => {
    fc.assert(
      fc.property(alphanumeric, (body) => {
        const accepted = Array.from({ length: 100 }, (_, n) => `RF${String(n).padStart(2, '0')}${body}`).filter(isValidCreditorReference);
        expect(accepted).toEqual([creditorReference(body)]);
      }),
    );
  });

  it('the remainder taken digit by digit is the big integer one', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{1,40}$/), (text) => {
        const big = BigInt(
          text
            .split('')
            .map((c) => Number.parseInt(c, 36))
            .join(''),
        );
        expect(mod97(text)).toBe(Number(big % 97n));
      }),
    );
  });
});
