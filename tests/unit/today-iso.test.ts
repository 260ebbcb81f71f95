import { describe, expect, it } from 'vitest';
import { todayIso } from '../../src/server/services/document-record';

describe('todayIso (formatted once an hour)', () => {
  it('turns at midnight in Paris, winter and summer, whatever the order of the calls', () => {
    const at = (iso: string) => todayIso(new Date(iso));
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
