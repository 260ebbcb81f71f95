import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  failedForTooLong,
  nextAttemptAfter,
  WEBHOOK_RETRY_OFFSETS_MS,
  WEBHOOK_RETRY_WINDOW_MS,
} from '../../src/server/services/webhook-schedule';

const MIN = 60_000;
const H = 60 * MIN;

describe('webhook retry schedule', () => {
  it('is 1 min, 5 min, 30 min, 2 h, 12 h, then every 12 h, the last attempt at 72 h', () => {
    expect(WEBHOOK_RETRY_OFFSETS_MS).toEqual([
      MIN,
      6 * MIN,
      36 * MIN,
      2 * H + 36 * MIN,
      14 * H + 36 * MIN,
      26 * H + 36 * MIN,
      38 * H + 36 * MIN,
      50 * H + 36 * MIN,
      62 * H + 36 * MIN,
      72 * H,
    ]);
    expect(WEBHOOK_RETRY_WINDOW_MS).toBe(72 * H);
  });

  it.each([
    [0, MIN],
    [30_000, MIN],
    [MIN, 6 * MIN],
    [MIN + 40_000, 6 * MIN],
    [5 * H, 14 * H + 36 * MIN],
    [71 * H, 72 * H],
    [72 * H, null],
    [100 * H, null],
  ])('a failure %i ms into the schedule is tried again at %s', (elapsed, next) => {
    const from = Date.parse('2026-11-23T10:00:00Z');
    expect(nextAttemptAfter(from, from + elapsed)).toBe(next === null ? null : from + next);
  });

  it('always answers a planned attempt after now, within the window, and never one before the start', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2e12 }), fc.integer({ min: 0, max: 4 * 24 * 60 * 60_000 }), (from, elapsed) => {
        const next = nextAttemptAfter(from, from + elapsed);
        if (elapsed >= WEBHOOK_RETRY_WINDOW_MS) expect(next).toBeNull();
        else {
          expect(next).not.toBeNull();
          expect(next as number).toBeGreaterThan(from + elapsed);
          expect(WEBHOOK_RETRY_OFFSETS_MS).toContain((next as number) - from);
        }
      }),
    );
  });

  it('turns an endpoint off only after it failed for the whole window', () => {
    const since = Date.parse('2026-11-23T10:00:00Z');
    expect(failedForTooLong(since, since + 72 * H - 1)).toBe(false);
    expect(failedForTooLong(since, since + 72 * H)).toBe(true);
  });
});
