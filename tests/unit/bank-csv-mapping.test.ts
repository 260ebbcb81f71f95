import { describe, expect, it } from 'vitest';
import { amountIn, dateIn, guessMapping, readCsvStatement } from '../../src/server/bank/csv-statement';
import { columnRoles, csvMappingSchema, mappingOfRoles } from '../../src/shared/schemas/bank-csv';

const formats = { date_format: 'DD/MM/YYYY', decimal_separator: ',', encoding: 'utf-8' } as const;

describe('reading a bank CSV with confirmed columns', () => {
  it('reads dates only in the chosen format, telling a wrong shape from an impossible day', () => {
    expect(dateIn('05/11/2026', 'DD/MM/YYYY')).toBe('2026-11-05');
    expect(dateIn('5.11.26', 'DD/MM/YY')).toBe('2026-11-05');
    expect(dateIn('2026-11-05T00:00:00', 'YYYY-MM-DD')).toBe('2026-11-05');
    expect(dateIn('20261105', 'YYYYMMDD')).toBe('2026-11-05');
    expect(dateIn('05/11/2026', 'YYYY-MM-DD')).toBe('shape');
    expect(dateIn('VIR M. DUPONT', 'DD/MM/YYYY')).toBe('shape');
    expect(dateIn('31/11/2026', 'DD/MM/YYYY')).toBe('impossible');
  });

  it('reads amounts with the chosen decimal separator only', () => {
    expect(amountIn('1 234,56', ',')).toBe('1234.56');
    expect(amountIn('1.234,56 €', ',')).toBe('1234.56');
    expect(amountIn('-3,50', ',')).toBe('-3.50');
    expect(amountIn('1,234.56', '.')).toBe('1234.56');
    expect(amountIn('-0,00', ',')).toBe('0.00');
    expect(amountIn('douze', ',')).toBeNull();
  });

  it('guesses the columns of the big French banks’ headers, and from the cells where the header says nothing', () => {
    const rows = [['02/11/2026', '03/11/2026', 'VIR', '', '1 250,00']];
    expect(guessMapping(['Date', 'Date de valeur', 'Libellé', 'Débit', 'Crédit'], rows, 'windows-1252')).toEqual({
      date: 0,
      value_date: 1,
      label: 2,
      details: [],
      amount: null,
      debit: 3,
      credit: 4,
      ...formats,
      encoding: 'windows-1252',
    });
    expect(guessMapping(['Jour', 'Texte', 'Somme'], [['2026-11-02', 'VIR', '12.50']], 'utf-8')).toMatchObject({
      date: 0,
      label: 1,
      amount: 2,
      date_format: 'YYYY-MM-DD',
      decimal_separator: '.',
    });
  });

  it('turns the roles chosen per column into a mapping and back, refusing a role given twice or missing', () => {
    const mapping = csvMappingSchema.parse({ date: 0, label: 2, amount: 3, details: [4], value_date: 1 });
    const roles = columnRoles(mapping, 6);
    expect(roles).toEqual(['date', 'value_date', 'label', 'amount', 'details', 'ignored']);
    expect(mappingOfRoles(roles, formats)).toEqual({ ok: true, mapping });
    expect(mappingOfRoles(['date', 'label', 'label', 'amount'], formats)).toEqual({
      ok: false,
      message: '« Libellé » est choisie pour plusieurs colonnes',
    });
    expect(mappingOfRoles(['date', 'label', 'debit'], formats)).toMatchObject({
      ok: false,
      message: /une colonne Montant, ou une colonne Débit/,
    });
    expect(mappingOfRoles(['date', 'label', 'amount', 'debit'], formats)).toMatchObject({ ok: false, message: /pas les deux/ });
  });

  it('refuses the file when the first line does not read, and lists a later one', () => {
    const mapping = csvMappingSchema.parse({ date: 0, label: 1, amount: 2 });
    const text = 'Date;Libellé;Montant\n02/11/2026;VIR;12,00\nTotal;;12,00';
    const statement = readCsvStatement(text, mapping, 100);
    expect(statement.lines.map((l) => [l.line, l.date, l.amount])).toEqual([[2, '2026-11-02', '12.00']]);
    expect(statement.rejected).toEqual([{ line: 3, reason: 'Date illisible (« Total »)' }]);
    expect(() => readCsvStatement(text, { ...mapping, amount: 1, label: 2 }, 100)).toThrow(
      'Ligne 2, colonne 2 « Libellé » choisie comme montant : « VIR » n’est pas un montant (séparateur décimal « , ») : vérifiez les colonnes du relevé',
    );
  });
});
