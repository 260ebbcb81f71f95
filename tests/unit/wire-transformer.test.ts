import fc from 'fast-check';
import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { transformer } from '../../src/server/wire-transformer';

/** What each side sends: the same text, or the same refusal. */
function wireOf(serialize: (value: unknown) => unknown, value: unknown): string {
  try {
    return JSON.stringify(serialize(value));
  } catch (error) {
    return `throws ${error instanceof Error ? error.message : String(error)}`;
  }
}

const ours = (value: unknown) => wireOf((v) => transformer.serialize(v), value);
const superjsons = (value: unknown) => wireOf((v) => superjson.serialize(v), value);

describe('the server’s wire transformer', () => {
  const shared = { id: 1 };
  const sparse: unknown[] = [1];
  sparse[2] = 3;
  const nullPrototype = Object.assign(Object.create(null) as object, { a: 'b' });
  const withKey = (key: string, value: unknown) => Object.assign([1, 2], { [key]: value });
  const hiddenToJson = Object.defineProperty({ a: 1 }, 'toJSON', { value: () => 'T', enumerable: false });
  class Listed extends Array<number> {
    toJSON() {
      return 'sub';
    }
  }
  const examples: [string, unknown][] = [
    ['a profile', { id: 7, email: 'a@b.fr', verified_at: null, organization: { id: 1, name: 'Atelier' } }],
    [
      'a list page',
      {
        items: [
          { id: 1, total: '12.00' },
          { id: 2, total: '0.00' },
        ],
        total: 2,
        page: 1,
      },
    ],
    ['a date', { at: new Date('2026-12-01T10:00:00Z') }],
    ['undefined in an object', { a: undefined, b: 1 }],
    ['undefined alone', undefined],
    ['-0', { n: -0 }],
    ['NaN and Infinity', [Number.NaN, Number.POSITIVE_INFINITY]],
    ['a bigint', { n: 12n }],
    ['a Map and a Set', { m: new Map([['a', 1]]), s: new Set([1]) }],
    ['one object twice', { a: shared, b: shared }],
    ['a sparse array', sparse],
    ['an object without prototype', nullPrototype],
    ['a class instance', { e: new URL('https://facturier.fr/') }],
    ['a key superjson refuses', JSON.parse('{"__proto__": {"x": 1}}')],
    ['a key named constructor', { constructor: 'x' }],
    ['an array with a date under another key', withKey('extra', new Date(0))],
    ['an array with undefined under another key', withKey('extra', undefined)],
    ['an array with a key superjson refuses', withKey('constructor', 'x')],
    ['a match, whose groups are undefined', { m: /b/.exec('abc') }],
    ['a hidden toJSON', hiddenToJson],
    ['an array of a subclass', { list: Listed.from([1]) }],
    ['a string alone', 'texte'],
    ['null', null],
  ];

  it.each(examples)('sends %s as superjson does', (_name, value) => {
    expect(ours(value)).toBe(superjsons(value));
  });

  it('sends plain JSON without superjson’s meta, and reads back what it sent', () => {
    const profile = { id: 7, name: 'Atelier', tags: ['a', 'b'], rate: 20.5, verified: false, none: null };
    const wire = transformer.serialize(profile);
    expect(wire).toEqual({ json: profile });
    expect(transformer.deserialize(JSON.parse(JSON.stringify(wire)))).toEqual(profile);
    expect(transformer.deserialize(superjson.serialize({ at: new Date(0) }))).toEqual({ at: new Date(0) });
  });

  it('sends any value as superjson does, byte for byte', () => {
    const anything = fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withSparseArray: true,
      withObjectString: true,
      withBoxedValues: true,
      withTypedArray: true,
    });
    fc.assert(
      fc.property(fc.oneof(anything, fc.jsonValue()), (value) => {
        expect(ours(value)).toBe(superjsons(value));
      }),
      { numRuns: 500 },
    );
  });
});
