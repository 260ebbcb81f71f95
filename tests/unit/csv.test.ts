import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOM, frenchNumber, headerKey, parseCsv, toCsv } from '../../src/shared/csv';

describe('CSV', () => {
  it('reads what French Excel writes: BOM, semicolons, quotes, CRLF, a line break inside a field', () => {
    const text = `${BOM}Nom;Ville;Note\r\n"Dupont ; Fils";Paris;"Dit ""le bon""\r\nclient"\r\nMartin;Lyon;\r\n\r\n`;
    const parsed = parseCsv(text);
    expect(parsed.header).toEqual(['Nom', 'Ville', 'Note']);
    expect(parsed.separator).toBe(';');
    expect(parsed.rows).toEqual([
      { line: 2, cells: ['Dupont ; Fils', 'Paris', 'Dit "le bon"\r\nclient'] },
      { line: 4, cells: ['Martin', 'Lyon', ''] },
    ]);
  });

  it('accepts commas when the file uses them, and LF lines', () => {
    expect(parseCsv('a,b\n1,2\n').rows).toEqual([{ line: 2, cells: ['1', '2'] }]);
  });

  it('round-trips any table', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', ';', '"', '\n', ' ', '1', ',') });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text, text), { minLength: 1, maxLength: 20 }), (rows) => {
        const header = ['A', 'B', 'C'];
        const nonEmpty = rows.filter((r) => r.some((c) => c.trim() !== ''));
        const parsed = parseCsv(toCsv(header, nonEmpty));
        expect(parsed.header).toEqual(header);
        expect(parsed.rows.map((r) => r.cells)).toEqual(nonEmpty.map((r) => r.map((c) => c.replace(/\r(?!\n)/g, '\r'))));
      }),
    );
  });

  it.each([
    ['1 234,50', 1234.5],
    ['12.5', 12.5],
    ['', undefined],
    ['douze', Number.NaN],
  ])('frenchNumber(%j) = %s', (text, expected) => {
    expect(frenchNumber(text)).toEqual(expected);
  });

  it('compares headers without case or accents', () => {
    expect(headerKey('E-mail')).toBe(headerKey('EMAIL'));
    expect(headerKey('Délai de paiement')).toBe('delaidepaiement');
  });
});
