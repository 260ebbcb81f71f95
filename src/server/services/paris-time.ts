import { parisOffsetByRule, parisRuleHolds } from '../../shared/paris-date';

/** Made once, at first use: building an Intl.DateTimeFormat costs far more than formatting with it. */
let parisParts: Intl.DateTimeFormat | undefined;

/**
 * Offset of Paris from UTC, in milliseconds, at an instant (+1 h in winter, +2 h in summer): by the EU rule while it
 * gives the zone database's answers (shared/paris-date.ts, checked at start), else from the database. Formatting to
 * parts twice cost 30 µs of every plan-usage read (the month's start in Paris), a tenth of the request
 * (`npm run bench -- scale`).
 */
function parisOffsetMs(instant: number): number {
  return parisRuleHolds() ? parisOffsetByRule(instant) : parisOffsetFromDatabase(instant);
}

/** The offset as the zone database gives it, to the second. */
export function parisOffsetFromDatabase(instant: number): number {
  parisParts ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const parts = parisParts.formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a Paris wall-clock date and time name ('2026-10-26', '10:00' → 09:00Z), across daylight-saving changes. */
export function parisToUtc(date: string, time: string): Date {
  const [h = 0, m = 0, s = 0] = time.split(':').map(Number);
  const [y = 1970, mo = 1, d = 1] = date.split('-').map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, m, s);
  const first = wall - parisOffsetMs(wall);
  // Near a change the offset at the guess may differ from the one at the answer: one more pass settles it.
  return new Date(wall - parisOffsetMs(first));
}
