import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '../../src/server/bounded-memo';

describe('BoundedMemo', () => {
  it('keeps a short key, never a long one, and gives the value back either way', () => {
    const memo = new BoundedMemo<number>(3, 4);
    expect(memo.remember('abcd', 1)).toBe(1);
    expect(memo.remember('abcde', 2)).toBe(2);
    expect(memo.get('abcd')).toBe(1);
    expect(memo.get('abcde')).toBeUndefined();
    expect(memo.size).toBe(1);
  });

  it('is emptied when full rather than grown: a new key past the bound is kept alone', () => {
    const memo = new BoundedMemo<boolean>(2);
    memo.remember('a', false);
    memo.remember('b', true);
    expect(memo.get('a')).toBe(false);
    memo.remember('c', true);
    expect(memo.size).toBe(1);
    expect(memo.get('a')).toBeUndefined();
    expect(memo.get('c')).toBe(true);
  });

  it('never holds more than its bound, and what it holds is what was last remembered under each key', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.tuple(fc.string({ maxLength: 3 }), fc.integer())), (max, writes) => {
        const memo = new BoundedMemo<number>(max);
        const last = new Map<string, number>();
        for (const [key, value] of writes) {
          memo.remember(key, value);
          last.set(key, value);
          expect(memo.size).toBeLessThanOrEqual(max);
        }
        for (const [key, value] of last) {
          const held = memo.get(key);
          if (held !== undefined) expect(held).toBe(value);
        }
      }),
    );
  });
});
