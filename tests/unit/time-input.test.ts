import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTime, normalizeTime, parseTime, secondsToTime, stepTime, timeToSeconds } from '../../src/shared/time-input';

describe('typed times (SPEC §5: hh:mm[:ss] with optional am/pm)', () => {
  it.each([
    ['9h30', '09:30'],
    ['9 h 30', '09:30'],
    ['09:30', '09:30'],
    ['9:30', '09:30'],
    ['9:30 pm', '21:30'],
    ['9:30PM', '21:30'],
    ['9:30 p.m.', '21:30'],
    ['12:00 am', '00:00'],
    ['12:15 pm', '12:15'],
    ['21:30:05', '21:30:05'],
    ['21:30:00', '21:30'],
    ['9 am', '09:00'],
    ['14h', '14:00'],
    ['14', '14:00'],
    ['0:00', '00:00'],
    ['23:59:59', '23:59:59'],
    ['  08:05  ', '08:05'],
  ])('%s → %s', (typed, canonical) => {
    expect(normalizeTime(typed)).toBe(canonical);
  });

  it.each([['25:00'], ['24:00'], ['9:60'], ['9:30:60'], ['13 pm'], ['0 am'], ['9:3'], ['abc'], [''], ['9h30h'], ['-1:00'], ['9:30 xm']])(
    '%s is no time',
    (typed) => {
      expect(parseTime(typed)).toBeNull();
    },
  );

  it('seconds since midnight', () => {
    expect(timeToSeconds('01:02:03')).toBe(3723);
    expect(secondsToTime(3723)).toBe('01:02:03');
    expect(Number.isNaN(timeToSeconds('25:00'))).toBe(true);
  });

  it.each([
    [{ hours: 9, minutes: 32, seconds: 0 }, 'minutes', 1, '09:35'],
    [{ hours: 9, minutes: 32, seconds: 0 }, 'minutes', -1, '09:30'],
    [{ hours: 9, minutes: 55, seconds: 0 }, 'minutes', 1, '09:00'],
    [{ hours: 9, minutes: 0, seconds: 0 }, 'minutes', -1, '09:55'],
    [{ hours: 9, minutes: 0, seconds: 55 }, 'seconds', 1, '09:00'],
    [{ hours: 9, minutes: 0, seconds: 0 }, 'seconds', 1, '09:00:05'],
    [{ hours: 23, minutes: 0, seconds: 0 }, 'hours', 1, '00:00'],
  ] as const)('the picker steps minutes and seconds by 5 (SPEC §9): %o %s %i → %s', (t, part, dir, expected) => {
    expect(formatTime(stepTime(t, part, dir))).toBe(expected);
  });
});

const timeOfDay = fc.record({
  hours: fc.integer({ min: 0, max: 23 }),
  minutes: fc.integer({ min: 0, max: 59 }),
  seconds: fc.integer({ min: 0, max: 59 }),
});

describe('time parser properties', () => {
  it('every canonical time reads back as itself', () => {
    fc.assert(
      fc.property(timeOfDay, (t) => {
        expect(parseTime(formatTime(t))).toEqual(t);
      }),
    );
  });

  it('the French `9h30` and the am/pm forms say the same time as hh:mm', () => {
    fc.assert(
      fc.property(timeOfDay, (t) => {
        const mm = String(t.minutes).padStart(2, '0');
        const twelve = t.hours % 12 === 0 ? 12 : t.hours % 12;
        const meridiem = t.hours < 12 ? 'am' : 'pm';
        const expected = { ...t, seconds: 0 };
        expect(parseTime(`${t.hours}h${mm}`)).toEqual(expected);
        expect(parseTime(`${twelve}:${mm} ${meridiem}`)).toEqual(expected);
      }),
    );
  });

  it('canonical strings sort as the times do', () => {
    fc.assert(
      fc.property(timeOfDay, timeOfDay, (a, b) => {
        const byText = Math.sign(formatTime(a).localeCompare(formatTime(b)));
        const bySeconds = Math.sign(timeToSeconds(formatTime(a)) - timeToSeconds(formatTime(b)));
        expect(byText).toBe(bySeconds);
      }),
    );
  });

  it('any text either fails or gives a valid time of day', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const t = parseTime(text);
        if (t === null) return;
        expect(t.hours).toBeGreaterThanOrEqual(0);
        expect(t.hours).toBeLessThan(24);
        expect(t.minutes).toBeLessThan(60);
        expect(t.seconds).toBeLessThan(60);
      }),
    );
  });

  it('a step always lands on a multiple of 5', () => {
    fc.assert(
      fc.property(
        timeOfDay,
        fc.constantFrom('minutes' as const, 'seconds' as const),
        fc.constantFrom(1 as const, -1 as const),
        (t, part, dir) => {
          expect(stepTime(t, part, dir)[part] % 5).toBe(0);
        },
      ),
    );
  });
});
