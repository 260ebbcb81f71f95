import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkParisRule, parisDateOf, parisDayByRule, parisToday } from '../../src/shared/paris-date';

describe('parisToday (formatted once an hour)', () => {
  it('turns at midnight in Paris, winter and summer, whatever the order of the calls', () => {
    const at = (iso: string) => parisToday(new Date(iso));
    expect(at('2026-01-15T22:59:59.999Z')).toBe('2026-01-15'); // 23:59 in Paris (UTC+1)
    expect(at('2026-01-15T23:00:00.000Z')).toBe('2026-01-16');
    expect(at('2026-01-15T22:30:00.000Z')).toBe('2026-01-15'); // back in an earlier hour
    expect(at('2026-07-01T21:59:59.999Z')).toBe('2026-07-01'); // 23:59 in Paris (UTC+2)
    expect(at('2026-07-01T22:00:00.000Z')).toBe('2026-07-02');
    expect(at('2026-07-01T22:59:00.000Z')).toBe('2026-07-02'); // same hour, kept
    expect(at('2026-03-29T00:59:00.000Z')).toBe('2026-03-29'); // the night of the change to summer time
    expect(at('2026-10-24T22:00:00.000Z')).toBe('2026-10-25'); // midnight before the change back (UTC+2)
  });
});

describe('parisDateOf', () => {
  it.each([
    ['2026-11-23T23:30:00.000Z', '2026-11-24'], // 00:30 in Paris: the UTC text says the 23rd
    ['2026-11-23T22:59:59.000Z', '2026-11-23'],
    ['2026-07-01T22:15:00Z', '2026-07-02'], // summer, UTC+2
    ['2026-07-01T21:45:00Z', '2026-07-01'],
    ['2026-12-31T23:00:00.000Z', '2027-01-01'], // a new year in Paris an hour before London
  ])('%s is %s in Paris', (instant, day) => {
    expect(parisDateOf(instant)).toBe(day);
    expect(parisDateOf(new Date(instant))).toBe(day);
  });

  it('is the UTC day or the next one, and agrees with parisToday', () => {
    const range = { min: new Date('2000-01-01T00:00:00Z').getTime(), max: new Date('2100-01-01T00:00:00Z').getTime() };
    fc.assert(
      fc.property(fc.integer(range), (ms) => {
        const instant = new Date(ms);
        const utcDay = instant.toISOString().slice(0, 10);
        const nextDay = new Date(ms + 86_400_000).toISOString().slice(0, 10);
        const day = parisDateOf(instant.toISOString());
        expect([utcDay, nextDay]).toContain(day);
        // Paris is 1 or 2 hours ahead: two hours later in UTC is never an earlier day than Paris's.
        expect(new Date(ms + 2 * 3_600_000).toISOString().slice(0, 10) >= day).toBe(true);
        expect(parisToday(instant)).toBe(day);
      }),
    );
  });
});

describe('the EU summer-time rule against the zone database', () => {
  const database = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });

  it('gives the database’s Paris day for any instant from 1997 to 2037, and around each change of the hour', () => {
    const range = { min: Date.UTC(1997, 0, 1), max: Date.UTC(2037, 11, 31) };
    fc.assert(
      fc.property(fc.integer(range), (ms) => {
        expect(parisDayByRule(new Date(ms))).toBe(database.format(new Date(ms)));
      }),
      { numRuns: 20_000 },
    );
    // Midnight in Paris falls at 22:00 or 23:00 UTC: every such hour edge of 2024–2030, to the millisecond.
    for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2031, 0, 1); ms += 86_400_000)
      for (const hour of [21, 22, 23])
        for (const edge of [-1, 0]) {
          const instant = new Date(ms + hour * 3_600_000 + edge);
          expect(parisDayByRule(instant)).toBe(database.format(instant));
        }
  });

  it('holds today, so that the rule is used; the check says so', () => {
    expect(checkParisRule(new Date('2026-11-29T23:30:00Z'))).toBe(true);
    expect(checkParisRule()).toBe(true);
  });
});
