import { describe, expect, it } from 'vitest';
import { frequencyLabel, nextOccurrence, occurrencesBetween } from '../../src/shared/recurrence';
import { fillPeriod } from '../../src/shared/recurring-period';

describe('recurrence rules', () => {
  it('monthly on the 31st falls on each month’s last day, and comes back to the 31st', () => {
    expect(occurrencesBetween({ frequency: 'monthly', start_date: '2026-01-31' }, null, '2026-05-31')).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
  });

  it('« le dernier jour du mois » from any day, leap year included', () => {
    const rule = { frequency: 'monthly' as const, start_date: '2028-01-15', month_end: true };
    expect(occurrencesBetween(rule, null, '2028-03-31')).toEqual(['2028-01-31', '2028-02-29', '2028-03-31']);
  });

  it('every N: two weeks, three months, two years', () => {
    expect(occurrencesBetween({ frequency: 'weekly', interval: 2, start_date: '2026-12-21' }, null, '2027-01-31')).toEqual([
      '2026-12-21',
      '2027-01-04',
      '2027-01-18',
    ]);
    expect(occurrencesBetween({ frequency: 'monthly', interval: 3, start_date: '2026-11-30' }, null, '2027-06-30')).toEqual([
      '2026-11-30',
      '2027-02-28',
      '2027-05-30',
    ]);
    expect(occurrencesBetween({ frequency: 'yearly', interval: 2, start_date: '2024-02-29' }, null, '2030-12-31')).toEqual([
      '2024-02-29',
      '2026-02-28',
      '2028-02-29',
      '2030-02-28',
    ]);
  });

  it('ends after a number of occurrences, or at the end date', () => {
    const counted = { frequency: 'quarterly' as const, start_date: '2026-01-15', occurrences: 3 };
    expect(occurrencesBetween(counted, null, '2030-01-01')).toEqual(['2026-01-15', '2026-04-15', '2026-07-15']);
    expect(nextOccurrence(counted, '2026-04-15')).toBe('2026-07-15');
    expect(nextOccurrence(counted, '2026-07-15')).toBeNull();
    expect(nextOccurrence({ frequency: 'weekly', start_date: '2026-01-05', end_date: '2026-01-12' }, '2026-01-12')).toBeNull();
  });

  it('says the frequency in French', () => {
    expect(frequencyLabel({ frequency: 'monthly' })).toBe('Chaque mois');
    expect(frequencyLabel({ frequency: 'weekly', interval: 2 })).toBe('Toutes les 2 semaines');
    expect(frequencyLabel({ frequency: 'quarterly', interval: 2 })).toBe('Tous les 2 trimestres');
    expect(frequencyLabel({ frequency: 'monthly', interval: 1, month_end: true })).toBe('Chaque mois, le dernier jour du mois');
  });
});

describe('period placeholders', () => {
  it('fills {month}, {year} and {period} in French for the occurrence', () => {
    expect(fillPeriod('Abonnement {month} {year}', '2026-11-30', 'monthly')).toBe('Abonnement novembre 2026');
    expect(fillPeriod('Maintenance {period}', '2026-02-15', 'quarterly')).toBe('Maintenance 1er trimestre 2026');
    expect(fillPeriod('Maintenance {period}', '2026-11-15', 'quarterly')).toBe('Maintenance 4e trimestre 2026');
    expect(fillPeriod('Ménage {period}', '2026-08-03', 'weekly')).toBe('Ménage semaine du 03/08/2026');
    expect(fillPeriod('Licence {period}', '2027-01-01', 'yearly')).toBe('Licence 2027');
    expect(fillPeriod('Conseil', '2026-08-03', 'monthly')).toBe('Conseil');
  });
});
