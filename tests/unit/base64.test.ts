import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBase64, isBase64DataUrl } from '../../src/shared/base64';

describe('isBase64', () => {
  it.each([
    ['iVBORw0KGgo=', true],
    ['YQ==', true],
    ['abc+/09', true],
    ['', false],
    ['===', false],
    ['YQ===', false],
    ['Y=Q=', false],
    ['a b', false],
    ['abc-_', false],
    ['é', false],
  ])('%j → %s', (text, expected) => {
    expect(isBase64(text)).toBe(expected);
  });

  it('accepts what Node encodes, and refuses it with any character outside the alphabet put in', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.constantFrom('-', '_', ' ', '\n', '*', 'é'),
        (bytes, at, bad) => {
          const text = Buffer.from(bytes).toString('base64');
          expect(isBase64(text)).toBe(true);
          const i = at % text.length;
          expect(isBase64(text.slice(0, i) + bad + text.slice(i))).toBe(false);
        },
      ),
    );
  });

  it('answers on a payload of several MB instead of overflowing the regular-expression stack', () => {
    const payload = `iVBORw0KGgo${'A'.repeat(12_000_000)}`;
    expect(isBase64(payload)).toBe(true);
    expect(isBase64(`${payload}!`)).toBe(false);
  });
});

describe('isBase64DataUrl', () => {
  it.each([
    ['data:image/png;base64,iVBORw0KGgo=', ['image/png'], true],
    ['data:image/jpeg;base64,/9j/4AAQ', ['image/png', 'image/jpeg'], true],
    ['data:image/svg+xml;base64,PHN2Zz4=', ['image/png', 'image/jpeg'], false],
    ['data:image/png,iVBORw0KGgo=', ['image/png'], false],
    ['data:image/png;base64,', ['image/png'], false],
    ['xdata:image/png;base64,iVBO', ['image/png'], false],
  ])('%s', (url, types, expected) => {
    expect(isBase64DataUrl(url, types)).toBe(expected);
  });
});
