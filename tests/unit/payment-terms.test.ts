import { describe, expect, it } from 'vitest';
import { longDefaultTermWarning, longPaymentTermWarning, paymentTermLimits } from '../../src/shared/payment-terms';

describe('B2B payment term caps (C. com. L441-10 I)', () => {
  it.each([
    // date, 60 days, 45 days then end of month, end of month then 45 days, the later of the two
    ['2026-01-15', '2026-03-16', '2026-03-31', '2026-03-17', '2026-03-31'],
    ['2026-01-10', '2026-03-11', '2026-02-28', '2026-03-17', '2026-03-17'],
    ['2026-11-02', '2027-01-01', '2026-12-31', '2027-01-14', '2027-01-14'],
    ['2024-01-10', '2024-03-10', '2024-02-29', '2024-03-16', '2024-03-16'],
    ['2026-12-31', '2027-03-01', '2027-02-28', '2027-02-14', '2027-02-28'],
  ])('invoice of %s: 60 days %s, 45 days end of month %s or %s, agreed at most %s', (date, sixty, a, b, agreed) => {
    expect(paymentTermLimits(date)).toEqual({
      sixtyDays: sixty,
      endOfMonthAfter45Days: a,
      fortyFiveDaysAfterEndOfMonth: b,
      agreedEndOfMonth: agreed,
    });
  });

  it.each([
    ['2026-01-15', '2026-03-16', 'company', null],
    ['2026-01-15', '2026-02-14', 'company', null],
    ['2026-01-15', '2026-03-17', 'individual', null],
    ['2026-01-15', null, 'company', null],
    ['2026-01-15', '2026-03-17', null, null],
  ] as const)('says nothing for %s due %s (%s)', (date, maturity, customerType, expected) => {
    expect(longPaymentTermWarning({ date, maturity, customerType })).toBe(expected);
  });

  it('past 60 days but within an agreed 45 days end of month: allowed only if the contract says so', () => {
    expect(longPaymentTermWarning({ date: '2026-01-15', maturity: '2026-03-31', customerType: 'company' })).toBe(
      'Délai de paiement supérieur à 60 jours (C. com. L441-10) : échéance au 31/03/2026, après le 16/03/2026 ; admis seulement si « 45 jours fin de mois » (au plus le 31/03/2026) est expressément convenu au contrat',
    );
  });

  it('past both caps: over the legal limit', () => {
    expect(longPaymentTermWarning({ date: '2026-01-15', maturity: '2026-04-01', customerType: 'company' })).toBe(
      'Délai de paiement supérieur à 60 jours (C. com. L441-10) : échéance au 01/04/2026, au-delà des plafonds légaux entre entreprises (60 jours : 16/03/2026 ; 45 jours fin de mois : 31/03/2026)',
    );
  });

  it('warns about a business customer’s default term over 60 days, not an individual’s', () => {
    expect(longDefaultTermWarning(60, 'company')).toBeNull();
    expect(longDefaultTermWarning(61, 'company')).toMatch(/^Délai de paiement supérieur à 60 jours \(C\. com\. L441-10\)/);
    expect(longDefaultTermWarning(90, 'individual')).toBeNull();
    expect(longDefaultTermWarning(Number.NaN, 'company')).toBeNull();
  });
});
