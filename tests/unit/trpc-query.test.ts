import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trpcQuery } from '../../src/server/http/trpc-query';

const asParser = (search: string) => {
  const params = new URLSearchParams(search);
  return { batch: params.get('batch'), input: params.get('input') };
};

describe('the tRPC door’s query string', () => {
  it.each([
    ['', { batch: null, input: null }],
    ['?', { batch: null, input: null }],
    ['?batch=1', { batch: '1', input: null }],
    [
      `?input=${encodeURIComponent('{"json":{"q":"Café + thé","page":2}}')}`,
      { batch: null, input: '{"json":{"q":"Café + thé","page":2}}' },
    ],
    ['?batch=1&input=%7B%220%22%3A%7B%22json%22%3Anull%7D%7D', { batch: '1', input: '{"0":{"json":null}}' }],
    ['?input=a+b&input=second', { batch: null, input: 'a b' }],
    ['?input', { batch: null, input: '' }],
    ['?%69nput=encoded-name', { batch: null, input: 'encoded-name' }],
    ['?input=100%', { batch: null, input: '100%' }],
    ['?input=%E9t%E9', { batch: null, input: '\ufffdt\ufffd' }],
    ['?input=%ED%A0%80', { batch: null, input: '\ufffd\ufffd\ufffd' }],
    ['?&&batch=1&&', { batch: '1', input: null }],
  ])('reads %j as URLSearchParams does', (search, expected) => {
    expect(trpcQuery(search)).toEqual(expected);
    expect(asParser(search)).toEqual(expected);
  });

  it('reads any query string as URLSearchParams does', () => {
    const piece = fc.oneof(
      fc.constantFrom('batch', 'input', '=', '&', '+', '%', '%2', '%41', '%C3%A9', '%E9', '%ED%A0%80', '%F0%9F%92%B6', '?', '1'),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }).map(encodeURIComponent),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, mark) => {
        const search = `${mark ? '?' : ''}${pieces.join('')}`;
        expect(trpcQuery(search)).toEqual(asParser(search));
      }),
      { numRuns: 3000 },
    );
  });
});
