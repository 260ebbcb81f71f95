/**
 * Times of day as people type them (hh:mm[:ss] with optional am/pm; French habit `9h30`), read into one
 * canonical form: 'HH:MM', or 'HH:MM:SS' when the seconds are not zero. Canonical strings sort as times do.
 */

export interface TimeOfDay {
  hours: number;
  minutes: number;
  seconds: number;
}

/** The time picker's step for minutes and seconds. */
export const TIME_STEP = 5;

const TIME_PATTERN = /^(\d{1,2})(?:\s*[:h]\s*(\d{2})?(?::(\d{2}))?)?\s*(?:(am|pm|a\.m\.|p\.m\.))?$/;

/** The time a text says, or null when it says none (`25:00`, `9:60`, `13 pm`, letters). */
export function parseTime(text: string): TimeOfDay | null {
  const match = TIME_PATTERN.exec(text.trim().toLowerCase().replace(/\s+/g, ' '));
  if (!match) return null;
  const [, h, m, s, meridiem] = match;
  let hours = Number(h);
  const minutes = m === undefined ? 0 : Number(m);
  const seconds = s === undefined ? 0 : Number(s);
  if (minutes > 59 || seconds > 59) return null;
  if (meridiem) {
    // 12 am is midnight, 12 pm noon; '13 pm' means nothing.
    if (hours < 1 || hours > 12) return null;
    const pm = meridiem.startsWith('p');
    hours = (hours % 12) + (pm ? 12 : 0);
  } else if (hours > 23) return null;
  return { hours, minutes, seconds };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'HH:MM', or 'HH:MM:SS' when there are seconds. */
export function formatTime(t: TimeOfDay): string {
  const base = `${pad(t.hours)}:${pad(t.minutes)}`;
  return t.seconds ? `${base}:${pad(t.seconds)}` : base;
}

/** The canonical form of a typed time, or null. */
export function normalizeTime(text: string): string | null {
  const parsed = parseTime(text);
  return parsed ? formatTime(parsed) : null;
}

/** Seconds since midnight of a canonical (or any parsable) time; NaN when unreadable. */
export function timeToSeconds(text: string): number {
  const t = parseTime(text);
  return t ? t.hours * 3600 + t.minutes * 60 + t.seconds : Number.NaN;
}

/** The canonical time `seconds` after midnight (0 ≤ seconds < 86 400). */
export function secondsToTime(total: number): string {
  const s = Math.max(0, Math.min(86_399, Math.floor(total)));
  return formatTime({ hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60 });
}

/** One step of the picker up (+1) or down (-1) on a part, wrapping around as a clock does. */
export function stepTime(t: TimeOfDay, part: 'hours' | 'minutes' | 'seconds', direction: 1 | -1): TimeOfDay {
  if (part === 'hours') return { ...t, hours: (t.hours + direction + 24) % 24 };
  // From an off-step value (09:32) the first step lands on the grid (09:35 or 09:30).
  const value = t[part];
  const next =
    direction === 1 ? Math.floor(value / TIME_STEP) * TIME_STEP + TIME_STEP : Math.ceil(value / TIME_STEP) * TIME_STEP - TIME_STEP;
  return { ...t, [part]: (next + 60) % 60 };
}
