import { describe, expect, it } from 'vitest';
import { deName, elides, fillWithElision, isPlural, percentText, plural, pluralWord, theNoun, unitWord } from '../../src/shared/french';
import { formatAmountInput } from '../../src/shared/format';
import { formatTaxRate } from '../../src/shared/totals';
import { renderEmailTemplate } from '../../src/shared/email-template';
import { statusLabel } from '../../src/shared/status';
import { addressSchema, FRENCH_POSTCODE_MESSAGE } from '../../src/shared/schemas/customer';

describe('elision of « de »', () => {
  it.each([
    ['Atelier', 'd’Atelier'],
    ['  Équinoxe ', 'd’Équinoxe'],
    ['Yves Rocher', 'd’Yves Rocher'],
    ['œuvre', 'd’œuvre'],
    ['Boulangerie', 'de Boulangerie'],
    ['Hôtel du Lac', 'de Hôtel du Lac'],
    ['3 Suisses', 'de 3 Suisses'],
  ])('deName(%j) = %j', (name, expected) => expect(deName(name)).toBe(expected));

  it.each([
    ['Facture {n} de {org}', { org: 'Atelier' }, 'Facture F1 d’Atelier'],
    ['Facture {n} de {org}', { org: 'Dupont' }, 'Facture F1 de Dupont'],
    ['De {org}', { org: 'Atelier' }, 'D’Atelier'],
    ['Monde {org}', { org: 'Atelier' }, 'Monde Atelier'],
    ['Inde {org}', { org: 'Atelier' }, 'Inde Atelier'],
    ['x {unknown} de {org}', { org: 'Ardèche' }, 'x {unknown} d’Ardèche'],
  ])('fillWithElision(%j)', (template, values: Record<string, string>, expected) =>
    expect(fillWithElision(template, (name) => (name === 'n' ? 'F1' : (values[name] ?? null)))).toBe(expected),
  );

  it('elides in a mail subject, and inserts a value as is', () => {
    expect(
      renderEmailTemplate('Facture {document_number} de {organization_name}', {
        document_number: 'F2026-0001',
        organization_name: 'Atelier Durand',
      }),
    ).toBe('Facture F2026-0001 d’Atelier Durand');
    expect(renderEmailTemplate('de {customer_name}', { customer_name: '{link}', link: 'x' })).toBe('de {link}');
  });

  it.each([
    ['devis', false, 'le devis'],
    ['proforma', true, 'la proforma'],
    ['avoir', false, 'l’avoir'],
    ['facture', true, 'la facture'],
  ])('theNoun(%j, %j) = %j', (noun, feminine, expected) => expect(theNoun(noun, feminine)).toBe(expected));

  it('elides() answers for vowels only', () => {
    expect([elides('avoir'), elides('Hélène'), elides(''), elides('Zoé')]).toEqual([true, false, false, false]);
  });
});

describe('plurals (from 2, as French counts)', () => {
  it.each([
    [0, 'jour', '0 jour'],
    [1, 'jour', '1 jour'],
    [2, 'jour', '2 jours'],
    [-3, 'jour', '-3 jours'],
    ['1,5', 'jour', '1,5 jour'],
    ['2,5', 'jour', '2,5 jours'],
  ])('plural(%j, %j) = %j', (n, word, expected) => expect(plural(n, word)).toBe(expected));

  it('takes an irregular plural and a shown count', () => {
    expect(plural(3, 'cheval', 'chevaux')).toBe('3 chevaux');
    expect(plural(1200, 'ligne', undefined, '1 200')).toBe('1 200 lignes');
    expect(pluralWord(1, 'ligne lue', 'lignes lues')).toBe('ligne lue');
    expect(isPlural('abc')).toBe(false);
  });

  it.each([
    [2, 'jour', 'jours'],
    ['1', 'jour', 'jour'],
    [3, 'forfait', 'forfaits'],
    [3, 'mois', 'mois'],
    [5, 'kg', 'kg'],
    [5, 'h', 'h'],
    [5, 'm²', 'm²'],
    [5, 'pce', 'pce'],
    [5, 'Jour', 'Jour'],
  ])('unitWord(%j, %j) = %j', (q, unit, expected) => expect(unitWord(q, unit)).toBe(expected));
});

describe('numbers the French way', () => {
  it.each([
    [20, '20,00\u202f%'],
    [5.5, '5,50\u202f%'],
    [0, '0,00\u202f%'],
  ])('formatTaxRate(%j) = %j', (rate, expected) => expect(formatTaxRate(rate)).toBe(expected));

  it('percentText puts a narrow no-break space before %', () => expect(percentText('5')).toBe('5\u202f%'));

  it.each([
    ['1200.5', '1\u202f200,50'],
    ['1200,5', '1\u202f200,50'],
    ['1 200,5', '1\u202f200,50'],
    ['12.3456', '12,3456'],
    ['-1234567', '-1\u202f234\u202f567,00'],
    ['0', '0,00'],
    ['', ''],
    ['abc', 'abc'],
    ['12,3,4', '12,3,4'],
  ])('formatAmountInput(%j) = %j', (typed, expected) => expect(formatAmountInput(typed)).toBe(expected));
});

describe('credit notes and statuses', () => {
  it('an issued credit note is « Émis », an estimate still « En attente »', () => {
    expect(statusLabel('pending', 'credit')).toBe('Émis');
    expect(statusLabel('done', 'credit')).toBe('Soldé');
    expect(statusLabel('pending', 'estimate')).toBe('En attente');
    expect(statusLabel('pending')).toBe('En attente');
  });
});

describe('French postcodes', () => {
  it.each([
    ['75011', 'France', null],
    ['97400', 'France', null],
    ['', 'France', null],
    ['7501', 'France', FRENCH_POSTCODE_MESSAGE],
    ['75O11', '', FRENCH_POSTCODE_MESSAGE],
    ['750 11', 'france', FRENCH_POSTCODE_MESSAGE],
    ['1204', 'Suisse', null],
    ['M5H', 'Canada', null],
  ])('postcode %j in %j', (postal_code, country, message) => {
    const result = addressSchema.safeParse({ postal_code, country });
    expect(result.success ? null : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)[0]).toBe(
      message === null ? null : `postal_code: ${message}`,
    );
  });
});
