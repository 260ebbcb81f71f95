/**
 * A small iCalendar (RFC 5545) writer: the feed calendars subscribe to and the file of one appointment. Times are
 * Paris wall-clock with TZID=Europe/Paris and its VTIMEZONE, so a 10:00 meeting stays at 10:00 on either side of a
 * daylight-saving change; text is escaped (§3.3.11) and lines folded at 75 octets (§3.1).
 */

export interface IcsEvent {
  uid: string;
  sequence: number;
  /** 'YYYY-MM-DD' */
  date: string;
  /** 'HH:MM[:SS]', null with `end` for an all-day event. */
  start: string | null;
  end: string | null;
  summary: string;
  location: string;
  description: string;
  status: 'planned' | 'done' | 'cancelled';
  /** ISO instant of the last change (DTSTAMP/LAST-MODIFIED). */
  updatedAt: string;
  organizer?: { name: string; email: string };
  attendee?: { name: string; email: string };
}

export const PARIS_TZID = 'Europe/Paris';

/** Europe/Paris since 1996 (EU rule): CEST from the last Sunday of March, CET from the last Sunday of October. */
const PARIS_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${PARIS_TZID}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** TEXT values: backslash, semicolon, comma and line breaks escaped. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** One content line folded into lines of at most 75 octets, never splitting a UTF-8 character. */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    // Continuation lines begin with a space, which counts in their 75 octets.
    const limit = parts.length === 0 ? 75 : 74;
    if (size + bytes > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

const compactDate = (date: string) => date.replaceAll('-', '');
const localDateTime = (date: string, time: string) => {
  const [h = '00', m = '00', s = '00'] = time.split(':');
  return `${compactDate(date)}T${h}${m}${s}`;
};
const utcStamp = (iso: string) => `${iso.slice(0, 19).replace(/[-:]/g, '')}Z`;
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** Parameter values with characters that need quoting (RFC 5545 §3.2). */
const param = (value: string) => `"${value.replace(/"/g, "'")}"`;

const STATUS: Record<IcsEvent['status'], string> = { planned: 'CONFIRMED', done: 'CONFIRMED', cancelled: 'CANCELLED' };

function eventLines(e: IcsEvent): string[] {
  const lines = [
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `SEQUENCE:${e.sequence}`,
    `DTSTAMP:${utcStamp(e.updatedAt)}`,
    `LAST-MODIFIED:${utcStamp(e.updatedAt)}`,
  ];
  if (e.start === null || e.end === null)
    lines.push(`DTSTART;VALUE=DATE:${compactDate(e.date)}`, `DTEND;VALUE=DATE:${compactDate(nextDay(e.date))}`);
  else
    lines.push(`DTSTART;TZID=${PARIS_TZID}:${localDateTime(e.date, e.start)}`, `DTEND;TZID=${PARIS_TZID}:${localDateTime(e.date, e.end)}`);
  lines.push(`SUMMARY:${escapeText(e.summary)}`);
  if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`);
  if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`);
  lines.push(`STATUS:${STATUS[e.status]}`);
  if (e.organizer) lines.push(`ORGANIZER;CN=${param(e.organizer.name)}:mailto:${e.organizer.email}`);
  if (e.attendee)
    lines.push(`ATTENDEE;CN=${param(e.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:${e.attendee.email}`);
  lines.push('END:VEVENT');
  return lines;
}

/** A whole VCALENDAR: PUBLISH for a feed or a download, REQUEST for an invitation. */
export function writeCalendar(events: IcsEvent[], options: { name?: string; method?: 'PUBLISH' | 'REQUEST' } = {}): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Facturier//Rendez-vous//FR',
    'CALSCALE:GREGORIAN',
    `METHOD:${options.method ?? 'PUBLISH'}`,
  ];
  if (options.name) lines.push(`X-WR-CALNAME:${escapeText(options.name)}`, `X-WR-TIMEZONE:${PARIS_TZID}`);
  if (events.some((e) => e.start !== null)) lines.push(...PARIS_VTIMEZONE);
  for (const e of events) lines.push(...eventLines(e));
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
