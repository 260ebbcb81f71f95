import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parisOffsetFromDatabase, parisToUtc } from '../../src/server/services/paris-time';
import { parisOffsetByRule } from '../../src/shared/paris-date';

const HOUR = 3_600_000;

describe('Paris wall-clock times to instants (by the EU rule, checked against the zone database)', () => {
  it.each([
    ['2026-01-15', '00:00', '2026-01-14T23:00:00.000Z'], // winter, UTC+1
    ['2026-07-01', '00:00', '2026-06-30T22:00:00.000Z'], // summer, UTC+2
    ['2026-12-01', '00:00', '2026-11-30T23:00:00.000Z'], // a month's start, as the plan's usage counts it
    ['2026-03-29', '01:59', '2026-03-29T00:59:00.000Z'], // the last minute before the change to summer time
    ['2026-03-29', '03:00', '2026-03-29T01:00:00.000Z'], // the first minute after it
    ['2026-10-25', '01:59', '2026-10-24T23:59:00.000Z'], // still summer time
    ['2026-10-25', '03:00', '2026-10-25T02:00:00.000Z'], // winter time again
    ['2026-10-26', '10:00', '2026-10-26T09:00:00.000Z'],
  ])('%s %s in Paris is %s', (date, time, instant) => {
    expect(parisToUtc(date, time).toISOString()).toBe(instant);
  });

  it('gives the zone database’s offset for any instant from 1997 to 2037, and at each change of the hour to the millisecond', () => {
    const range = { min: Date.UTC(1997, 0, 1), max: Date.UTC(2037, 11, 31) };
    fc.assert(
      fc.property(fc.integer(range), (ms) => {
        expect(parisOffsetByRule(ms)).toBe(parisOffsetFromDatabase(ms));
      }),
      { numRuns: 5_000 },
    );
    for (let year = 2020; year <= 2035; year++)
      for (const month of [2, 9]) {
        // The changes fall on the last Sunday of March and of October at 01:00 UTC.
        const last = new Date(Date.UTC(year, month + 1, 0));
        const change = Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1);
        for (const edge of [-1, 0, 1]) expect(parisOffsetByRule(change + edge)).toBe(parisOffsetFromDatabase(change + edge));
        expect(parisOffsetByRule(change - 1) - parisOffsetByRule(change)).toBe(month === 2 ? -HOUR : HOUR);
      }
  });

  it('is the wall-clock time back in Paris, to the minute, for any time that exists there once', () => {
    const range = { min: Date.UTC(2000, 0, 1), max: Date.UTC(2037, 0, 1) };
    fc.assert(
      fc.property(fc.integer(range), (ms) => {
        const minute = Math.floor(ms / 60_000) * 60_000;
        // Around the change back to winter time each wall-clock time comes twice, an hour apart (summer time, then
        // winter time): either instant is it, so both are left out, the one before the change as the one after.
        const wall = (instant: number) => instant + parisOffsetFromDatabase(instant);
        fc.pre(wall(minute - HOUR) !== wall(minute) && wall(minute + HOUR) !== wall(minute));
        const shown = new Date(wall(minute)).toISOString();
        expect(parisToUtc(shown.slice(0, 10), shown.slice(11, 16)).getTime()).toBe(minute);
      }),
      // 25 October 2015, 02:00 in Paris twice: at 00:00 UTC (summer time) and at 01:00 UTC (winter time).
      { numRuns: 2_000, examples: [[Date.UTC(2015, 9, 25, 0)], [Date.UTC(2015, 9, 25, 1)]] },
    );
  });
});
