import { describe, expect, it } from 'vitest';
import { periodAxis, periodKeys, periodLabel } from '../../src/shared/report-period';

describe('the axis of a chart over periods', () => {
  it('writes short months with the year once where it starts, the full month kept for tooltips', () => {
    const keys = periodKeys({ from: '2025-11-01', to: '2026-02-28' }, 'month');
    expect(keys).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(periodAxis(keys)).toEqual({ ticks: ['nov.', 'déc.', 'janv.', 'févr.'], groups: ['2025', null, '2026', null] });
    expect(periodLabel('2026-04')).toBe('avr. 2026');
  });

  it('writes T1… under quarters with their year once, and years as they are', () => {
    expect(periodAxis(['2025-T4', '2026-T1', '2026-T2'])).toEqual({ ticks: ['T4', 'T1', 'T2'], groups: ['2025', '2026', null] });
    expect(periodAxis(['2025', '2026'])).toEqual({ ticks: ['2025', '2026'], groups: [null, null] });
  });
});
