import { describe, expect, it } from 'vitest';
import { formatDateLong, formatDateShort } from '../../src/shared/format';

// formatDateShort writes the date itself (no Intl formatter on a page's first draw): it must give what fr-FR does.
const frenchShort = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });

describe('French dates', () => {
  it('a short date is what fr-FR writes, for every day of the years sampled', () => {
    for (const year of [1000, 1970, 2000, 2024, 2026, 2100, 9999])
      for (let month = 1; month <= 12; month++)
        for (let day = 1; day <= new Date(Date.UTC(year, month, 0)).getUTCDate(); day++) {
          const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          expect(formatDateShort(iso), iso).toBe(frenchShort.format(new Date(`${iso}T00:00:00Z`)));
        }
  });

  it('a day that does not exist or a text that is no date gives nothing', () => {
    for (const bad of ['2026-02-30', '2026-13-01', '2026-00-10', '22/11/2026', '2026-11-2', '']) expect(formatDateShort(bad), bad).toBe('');
    expect(formatDateLong('2026-02-29')).toBe('');
  });

  it('a long date names the month', () => {
    expect(formatDateLong('2026-11-22')).toBe('22 novembre 2026');
    expect(formatDateShort('2026-11-22')).toBe('22/11/2026');
  });
});
