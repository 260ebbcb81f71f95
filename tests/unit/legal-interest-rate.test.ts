import { describe, expect, it } from 'vitest';
import { LEGAL_INTEREST_RATES, latePenaltyFloor, latePenaltyRateError, legalInterestRateOn } from '../../src/shared/legal-interest-rate';
import { defaultAppSettings } from '../../src/shared/schemas/settings';

describe('legal interest rate for professional creditors, by half-year (C. monét. fin. L313-2)', () => {
  it.each([
    ['2024-01-01', '5.07', true],
    ['2024-06-30', '5.07', true],
    ['2024-07-01', '4.92', true],
    ['2025-03-15', '3.71', true],
    ['2025-07-01', '2.76', true],
    ['2025-12-31', '2.76', true],
    ['2026-01-01', '2.62', true],
    ['2026-06-30', '2.62', true],
    // Past the last published half-year: the last known rate, flagged as such.
    ['2026-07-01', '2.62', false],
    ['2027-02-10', '2.62', false],
    // Before the table: its first rate.
    ['2023-12-31', '5.07', true],
  ])('on %s the rate is %s %% (current: %s)', (date, rate, current) => {
    const found = legalInterestRateOn(date);
    expect(found.rate).toBe(rate);
    expect(found.current).toBe(current);
  });

  it('lists half-years in order, each starting on 1 January or 1 July, with its arrêté', () => {
    const starts = LEGAL_INTEREST_RATES.map((r) => r.from);
    expect([...starts].sort()).toEqual(starts);
    for (const r of LEGAL_INTEREST_RATES) {
      expect(r.from).toMatch(/^\d{4}-(01|07)-01$/);
      expect(r.source).toMatch(/^arrêté du /);
      expect(r.rate).toMatch(/^\d+\.\d{2}$/);
    }
  });

  it('puts the floor at exactly three times the rate (no float: 3 × 2.76 is 8.28)', () => {
    expect(latePenaltyFloor('2025-09-01').floor).toBe('8.28');
    expect(latePenaltyFloor('2026-02-01').floor).toBe('7.86');
    expect(latePenaltyFloor('2024-02-01').floor).toBe('15.21');
  });
});

describe('late-penalty rate floor (C. com. L441-10 II)', () => {
  it('refuses a rate under the floor, naming the floor and its half-year', () => {
    expect(latePenaltyRateError(8, '2025-10-01')).toBe(
      'Pénalités de retard : au moins 3 × le taux d’intérêt légal (C. com. L441-10), soit 8,28 % (2e semestre 2025)',
    );
    expect(latePenaltyRateError(7.85, '2026-03-01')).toBe(
      'Pénalités de retard : au moins 3 × le taux d’intérêt légal (C. com. L441-10), soit 7,86 % (1er semestre 2026)',
    );
  });

  it('accepts the floor itself and anything above', () => {
    expect(latePenaltyRateError(8.28, '2025-10-01')).toBeNull();
    expect(latePenaltyRateError(7.86, '2026-03-01')).toBeNull();
    expect(latePenaltyRateError(40, '2026-03-01')).toBeNull();
  });

  it('says when the last known rate stands in for a half-year not in the table', () => {
    expect(latePenaltyRateError(5, '2026-11-23')).toBe(
      'Pénalités de retard : au moins 3 × le taux d’intérêt légal (C. com. L441-10), soit 7,86 % (dernier taux publié connu : 1er semestre 2026)',
    );
  });

  it('keeps the default setting above the floor of the latest half-year', () => {
    const last = LEGAL_INTEREST_RATES.at(-1)?.from ?? '';
    expect(latePenaltyRateError(defaultAppSettings().late_penalty_rate, last)).toBeNull();
    expect(latePenaltyRateError(defaultAppSettings().late_penalty_rate, '2027-01-01')).toBeNull();
  });
});
