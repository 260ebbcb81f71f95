import { describe, expect, it } from 'vitest';
import { formatDocumentNumber } from '../../src/shared/numbering';
import { numberingCollisions, seriesMayCollide } from '../../src/shared/numbering-collisions';
import { defaultDocumentTemplate } from '../../src/shared/schemas/template';

const s = (prefix: string, digit_count = 4, suffix = '') => ({ prefix, suffix, digit_count });

describe('seriesMayCollide: two numbering series that may ever produce the same number (CGI art. 242 nonies A)', () => {
  it.each([
    ['the same prefix', s('F{year}-'), s('F{year}-'), true],
    ['the same prefix, other widths (F2026-10000 from both)', s('F{year}-', 4), s('F{year}-', 5), true],
    ['no prefix at all on both', s(''), s(''), true],
    ['a prefix that continues into the other’s digits (F + 20001 = F2 + 0001)', s('F'), s('F2'), true],
    ['a prefix ending in a zero against the padded counter (F0001 = F0 + 001)', s('F', 4), s('F0', 3), true],
    ['{customer_id} may be anything', s('{customer_id}-'), s('X-'), true],
    ['a suffix that repeats the other series’ shape', s('F-', 4, ''), s('F-', 4, '-A'), false],
    ['distinct letters first', s('F{year}-'), s('AV{year}-'), false],
    ['a dash where the other has digits', s('F{year}-'), s('F-'), false],
    ['distinct suffixes', s('{year}-', 4, 'F'), s('{year}-', 4, 'AV'), false],
    ['a month against a quarter', s('F{year}{month}-'), s('F{year}{quarter}-'), false],
    // An unpadded counter never starts with 0: F + 01 cannot come from the series F (width 0).
    ['an unpadded counter against a leading zero', s('F', 0), s('F0', 0), false],
    ['distinct currency placement', s('{currency}-'), s('F-'), false],
    ['{customer_id} against a fixed start after it', s('{customer_id}F'), s('{customer_id}AV'), false],
  ])('%s → %s', (_, x, y, expected) => {
    expect(seriesMayCollide(x, y)).toBe(expected);
    expect(seriesMayCollide(y, x)).toBe(expected);
  });

  it('finds the collision it claims: the numbers really meet', () => {
    const ctx = { date: '2026-03-15' };
    expect(formatDocumentNumber(s('F'), 20001, ctx)).toBe(formatDocumentNumber(s('F2'), 1, ctx));
    expect(formatDocumentNumber(s('F', 4), 1, ctx)).toBe(formatDocumentNumber(s('F0', 3), 1, ctx));
  });
});

describe('numberingCollisions over the six document types', () => {
  it('finds none in the default numbering', () => {
    expect(numberingCollisions(defaultDocumentTemplate().numbering)).toEqual([]);
  });

  it('names both types of a colliding pair in French', () => {
    const numbering = defaultDocumentTemplate().numbering;
    numbering.credit = { ...numbering.invoice };
    const found = numberingCollisions(numbering);
    expect(found.map((c) => c.types)).toEqual([['invoice', 'credit']]);
    expect(found[0]?.message).toBe(
      'Numérotation : les séries « Facture » et « Avoir » peuvent produire le même numéro ; donnez-leur des préfixes ou suffixes distincts (CGI art. 242 nonies A : un numéro unique par document)',
    );
  });

  it('answers quickly even for the longest patterns', () => {
    const numbering = defaultDocumentTemplate().numbering;
    for (const type of Object.keys(numbering) as (keyof typeof numbering)[])
      numbering[type] = s(`{customer_id}${'{year}{month}{day}'.repeat(2)}-${type}-`, 12, '{order}{currency}');
    const started = performance.now();
    expect(numberingCollisions(numbering).length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(20_000); // ~50 ms; a blow-up of the automata would take minutes
  });
});
