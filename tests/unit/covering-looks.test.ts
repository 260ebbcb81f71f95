import { describe, expect, it } from 'vitest';
import { coveringLooks, LOOKS, look, PHONE_LOOKS, WIDE_LOOKS } from '../helpers/browser';

const names = (looks: readonly { name: string }[]) => looks.map((l) => l.name);

describe('coveringLooks', () => {
  it.each([
    ['all four', LOOKS, ['light-wide', 'dark-phone']],
    ['wide only', WIDE_LOOKS, ['light-wide', 'dark-wide']],
    ['phone only', PHONE_LOOKS, ['light-phone', 'dark-phone']],
    ['one', [look('dark', 'wide')], ['dark-wide']],
    ['light in both sizes', [look('light', 'wide'), look('light', 'phone')], ['light-wide', 'light-phone']],
  ])('%s: every theme and size kept at least once', (_, looks, expected) => {
    expect(names(coveringLooks(looks, false))).toEqual(expected);
  });

  it('keeps every look when all are asked for', () => {
    expect(names(coveringLooks(LOOKS, true))).toEqual(names(LOOKS));
  });
});
