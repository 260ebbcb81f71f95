import { describe, expect, it } from 'vitest';
import { firstDayAfter, monthSlices } from '../../src/server/db/queries/month-slices';

describe('monthSlices', () => {
  it('reads whole months from the summaries and the days at the edges from the documents', () => {
    expect(monthSlices('2026-01-01', '2026-12-31')).toEqual({ months: { first: '2026-01', last: '2026-12' }, edges: [] });
    expect(monthSlices('2026-01-15', '2026-03-10')).toEqual({
      months: { first: '2026-02', last: '2026-02' },
      edges: [
        { from: '2026-01-15', to: '2026-01-31' },
        { from: '2026-03-01', to: '2026-03-10' },
      ],
    });
    expect(monthSlices('2026-12-15', '2027-01-31')).toEqual({
      months: { first: '2027-01', last: '2027-01' },
      edges: [{ from: '2026-12-15', to: '2026-12-31' }],
    });
    // February of a leap year, whole; a month less its last day, not.
    expect(monthSlices('2024-02-01', '2024-02-29')).toEqual({ months: { first: '2024-02', last: '2024-02' }, edges: [] });
    expect(monthSlices('2026-02-01', '2026-02-27')).toEqual({ edges: [{ from: '2026-02-01', to: '2026-02-27' }] });
  });

  it('reads the documents alone inside one month, and nothing for a period that ends before it begins', () => {
    expect(monthSlices('2026-01-15', '2026-02-10')).toEqual({ edges: [{ from: '2026-01-15', to: '2026-02-10' }] });
    expect(monthSlices('2026-03-01', '2026-02-01')).toEqual({ edges: [] });
  });

  it('gives the first day after a month, across a year', () => {
    expect(firstDayAfter('2026-02')).toBe('2026-03-01');
    expect(firstDayAfter('2026-12')).toBe('2027-01-01');
  });
});
