import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOM,
  frenchNumber,
  headerKey,
  keepAsText,
  neutralizeFormula,
  parseCsv,
  toCsv,
  unguardFormula,
  unwrapText,
} from '../../src/shared/csv';

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

  it.each([
    ['=HYPERLINK("http://x.example";"clic")', '\'=HYPERLINK("http://x.example";"clic")'],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['+33 6 12 34 56 78', "'+33 6 12 34 56 78"],
    ['-2+3', "'-2+3"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', "'\rcmd"],
    ['-12,50', '-12,50'],
    ['+4.5', '+4.5'],
    ['Danone', 'Danone'],
    ['', ''],
  ])('neutralizeFormula(%j) = %j: formulas become text, numbers stay numbers', (value, expected) => {
    expect(neutralizeFormula(value)).toBe(expected);
  });

  it('never writes a cell a spreadsheet runs as a formula, and the import takes the apostrophe back off', () => {
    const text = fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', 'a', '1', ',', ';', '"', "'") });
    fc.assert(
      fc.property(text, (value) => {
        const [cell] = parseCsv(toCsv(['A'], [[value]])).rows[0]?.cells ?? [''];
        const plainNumber = /^[-+]?\d+([.,]\d+)?$/.test(value);
        if (!plainNumber) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        if (!/^'[=+\-@\t\r]/.test(value)) expect(unguardFormula(cell ?? '') ?? cell).toBe(value);
      }),
    );
  });

  it.each([
    ['01000', '="01000"'],
    ['00042', '="00042"'],
    ['552 032 534 00013', '="552 032 534 00013"'],
    ['04 74 00 00 00', '="04 74 00 00 00"'],
    ['2026-001', '="2026-001"'],
    ['1E5', '="1E5"'],
    ['KIT', 'KIT'],
    ['', ''],
    ['+33 4 74 00 00 00', "'+33 4 74 00 00 00"],
    ['=HYPERLINK("x")', '\'=HYPERLINK("x")'],
    ['0" & A1 & "', '0" & A1 & "'],
  ])('keepAsText(%j) = %j: codes stay text in Excel, formulas stay neutralised', (value, expected) => {
    expect(keepAsText(value)).toBe(expected);
  });

  it('writes code columns so Excel keeps them, and reads them back as they were; never lets a formula through', () => {
    const code = fc.string({ unit: fc.constantFrom('0', '1', '9', ' ', '-', '/', 'A', '"', '=', '+', '&', ';', "'") });
    fc.assert(
      // A blank row is skipped by the reader, whatever it holds: only rows with some text are compared.
      fc.property(
        code.filter((value) => value.trim() !== ''),
        (value) => {
          const [cell] = parseCsv(toCsv(['Code'], [[value]], new Set([0]))).rows[0]?.cells ?? [''];
          const read = unwrapText(cell ?? '') ?? unguardFormula(cell ?? '') ?? cell;
          // A formula other than our constant string `="…"` (digits, letters, spaces, . , / : -) never comes out.
          if (cell?.startsWith('=')) expect(cell).toMatch(/^="[0-9][0-9A-Za-z .,/:-]*"$/);
          else if (!/^[-+]?\d+([.,]\d+)?$/.test(value)) expect(cell).not.toMatch(/^[+\-@\t\r]/);
          if (!/^'[=+\-@\t\r]/.test(value) && !/^="/.test(value)) expect(read).toBe(value);
        },
      ),
    );
    expect(unwrapText('="0" & CMD()&"0"')).toBeNull();
    expect(unwrapText('="01000"')).toBe('01000');
  });

  it('compares headers without case or accents', () => {
    expect(headerKey('E-mail')).toBe(headerKey('EMAIL'));
    expect(headerKey('Délai de paiement')).toBe('delaidepaiement');
  });
});
