import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frenchVatNumber, isValidSiren, isValidSiret, luhnValid, siretOrSirenError, vatNumberError } from '../../src/shared/identifiers';
import { defined } from '../../src/shared/defined';

// Public SIRENs of well-known companies (annuaire-entreprises.data.gouv.fr).
const companies = [
  { name: 'Danone', siren: '552032534' },
  { name: 'Air France', siren: '420495178' },
  { name: 'Google France', siren: '443061841' },
  { name: 'SNCF Voyageurs', siren: '519037584' },
];

describe('SIREN', () => {
  it.each(companies)('$name ($siren) is valid', ({ siren }) => {
    expect(isValidSiren(siren)).toBe(true);
    expect(isValidSiren(`${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}`)).toBe(true);
  });

  it.each(['552032535', '12345678', '1234567890', 'ABCDEFGHI', ''])('%s is not', (siren) => {
    expect(isValidSiren(siren)).toBe(false);
  });
});

describe('SIRET', () => {
  it.each([
    ['Danone head office', '55203253400646'],
    ['Air France head office', '42049517800014'],
    ['a La Poste SIRET (no Luhn: its digits sum to a multiple of 5)', '35600000049837'],
  ])('%s %s is valid', (_name, siret) => {
    expect(isValidSiret(siret)).toBe(true);
  });

  it.each(['55203253400647', '35600000000049', '5520325340064', '552032534006460'])('%s is not', (siret) => {
    expect(isValidSiret(siret)).toBe(false);
  });

  it('explains what is wrong, in French', () => {
    expect(siretOrSirenError('552 032 534')).toBeNull();
    expect(siretOrSirenError('552 032 535')).toMatch(/SIREN invalide/);
    expect(siretOrSirenError('55203253400647')).toMatch(/SIRET invalide/);
    expect(siretOrSirenError('1234')).toBe('Le SIREN compte 9 chiffres, le SIRET 14');
    expect(siretOrSirenError('55203253A')).toBe('Le SIREN/SIRET ne contient que des chiffres');
  });
});

describe('intra-community VAT numbers', () => {
  it('computes Danone’s published VAT number from its SIREN', () => {
    expect(frenchVatNumber('552 032 534')).toBe('FR27552032534');
  });

  it.each(companies)('computes a VAT number from the SIREN of $name that validates, however typed', ({ siren }) => {
    const vat = frenchVatNumber(siren);
    expect(vat).toMatch(new RegExp(`^FR\\d{2}${siren}$`));
    expect(vatNumberError(vat)).toBeNull();
    expect(vatNumberError(`${vat.slice(0, 4)} ${vat.slice(4)}`.toLowerCase())).toBeNull();
  });

  it.each([
    ['DE129273398', null],
    ['BE0403170701', null],
    ['IT00743110157', null],
    ['ESA28015865', null],
    ['NL004495445B01', null],
    ['FR00552032534', /la clé ne correspond pas/],
    ['FR2755203253', /pour le pays FR/],
    ['DE12927339', /pour le pays DE/],
    ['US123456789', /code pays/],
    ['552032534', /code pays/],
  ])('%s → %s', (vat, expected) => {
    const error = vatNumberError(vat);
    if (expected === null) expect(error).toBeNull();
    else expect(error).toMatch(expected);
  });

  it('every valid SIREN gives a VAT number that validates', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), (n) => {
        // Complete 8 random digits with the Luhn digit that makes a valid SIREN.
        const body = String(n).padStart(8, '0');
        const check = defined([...'0123456789'].find((d) => luhnValid(body + d)));
        const siren = body + check;
        expect(isValidSiren(siren)).toBe(true);
        expect(vatNumberError(frenchVatNumber(siren))).toBeNull();
      }),
    );
  });
});
