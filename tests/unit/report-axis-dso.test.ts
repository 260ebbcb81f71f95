import { describe, expect, it } from 'vitest';
import { ticks } from '../../src/client/routes/reports/bar-chart';
import { dsoPeriod } from '../../src/shared/reports';

describe('the value axis of the report charts', () => {
  it('ends at or above the largest bar: 2 267 € reaches a 3 k line', () => {
    expect(ticks(0, 2267)).toEqual([0, 1000, 2000, 3000]);
    expect(ticks(0, 2000)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(ticks(-120, 480).at(-1)).toBeGreaterThanOrEqual(480);
    expect(ticks(-120, 480)[0]).toBeLessThanOrEqual(-120);
    expect(ticks(0, 0.3).at(-1)).toBeGreaterThanOrEqual(0.3);
  });
});

describe('the period the DSO is computed on', () => {
  it('none before a first invoice, nor under 30 days of billing history', () => {
    expect(dsoPeriod('2026-11-29', null)).toBeNull();
    expect(dsoPeriod('2026-11-29', '2026-11-29')).toBeNull();
    expect(dsoPeriod('2026-11-29', '2026-11-01')).toBeNull();
    expect(dsoPeriod('2026-11-29', '2026-10-31')).toEqual({ from: '2026-10-31', days: 30 });
  });

  it('since the first invoice when more recent than a year, else the last 365 days', () => {
    expect(dsoPeriod('2026-11-29', '2026-10-30')).toEqual({ from: '2026-10-30', days: 31 });
    expect(dsoPeriod('2026-11-29', '2020-01-01')).toEqual({ from: '2025-11-30', days: 365 });
  });
});
