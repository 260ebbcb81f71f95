import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidCharacterAt } from '../../src/server/input-characters';

/** The path of the first invalid string or key, as a reader walking the input in order would name it. */
function firstInvalid(value: unknown, path: string[] = []): { path: string[]; kind: 'nul' | 'surrogate' } | null {
  const kindOf = (text: string) => (text.includes('\u0000') ? 'nul' : /[\ud800-\udfff]/u.test(text) ? 'surrogate' : null);
  if (typeof value === 'string') {
    const kind = kindOf(value);
    return kind ? { path, kind } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, item] of entries) {
    const kind = Array.isArray(value) ? null : kindOf(key);
    if (kind) return { path, kind };
    const found = firstInvalid(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

describe('invalid characters in an input', () => {
  it.each([
    [{ name: 'Café' }, null],
    [{ name: 'Ca\u0000fé' }, { path: ['name'], kind: 'nul' }],
    [{ lines: [{ label: 'ok' }, { label: '\ud800' }] }, { path: ['lines', '1', 'label'], kind: 'surrogate' }],
    [{ emoji: '💶 \ud83d\udcb6' }, null],
    [{ 'cl\u0000é': 1 }, { path: [], kind: 'nul' }],
    ['\u0000', { path: [], kind: 'nul' }],
  ])('finds %j', (input, expected) => {
    expect(invalidCharacterAt(input)).toEqual(expected);
  });

  it('finds the first one, or none, in any JSON input', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '\u0000', '\ud800', '\udc00', '💶'), maxLength: 4 });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 3 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 3 }),
    })).value;
    fc.assert(
      fc.property(json, (input) => {
        expect(invalidCharacterAt(input)).toEqual(firstInvalid(input));
      }),
      { numRuns: 2000 },
    );
  });
});
