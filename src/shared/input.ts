/** SPEC §5 numeric-only input: keeps digits and the first dot; every later dot goes. */
export function numericOnly(value: string): string {
  const kept = value.replace(/[^\d.]/g, '');
  const first = kept.indexOf('.');
  return first === -1 ? kept : kept.slice(0, first + 1) + kept.slice(first + 1).replace(/\./g, '');
}

/** SPEC §5 comma-to-dot input: a French decimal comma becomes a dot. */
export function commaToDot(value: string): string {
  return value.replace(/,/g, '.');
}

export interface ParsedTime {
  hours: number;
  minutes: number;
  seconds: number;
}

/** SPEC §5 time input: hh:mm[:ss] with optional am/pm; null when it is not a time of day. */
export function parseTime(value: string): ParsedTime | null {
  const match = /^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?\s*$/i.exec(value);
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] ? Number(match[3]) : 0;
  const meridiem = match[4]?.toLowerCase().replace(/\./g, '');
  if (minutes > 59 || seconds > 59) return null;
  if (meridiem) {
    if (hours < 1 || hours > 12) return null;
    if (meridiem === 'am') hours = hours === 12 ? 0 : hours;
    else hours = hours === 12 ? 12 : hours + 12;
  } else if (hours > 23) return null;
  return { hours, minutes, seconds };
}

/** 'hh:mm:ss', two digits each. */
export const formatTime = (t: ParsedTime): string => [t.hours, t.minutes, t.seconds].map((n) => String(n).padStart(2, '0')).join(':');
