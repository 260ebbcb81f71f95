import { frenchDateFormat } from './french-date-format';

/** Calendar arithmetic on 'YYYY-MM-DD' strings, in UTC so no local time zone shifts a day. French week: Monday first. */

const parse = (date: string) => new Date(`${date}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => iso(new Date(parse(date).getTime() + days * 86_400_000));

/** Monday of the week holding `date`. */
export const startOfWeek = (date: string): string => addDays(date, -((parse(date).getUTCDay() + 6) % 7));

export const startOfMonth = (date: string): string => `${date.slice(0, 7)}-01`;

export function addMonths(date: string, months: number): string {
  const d = parse(startOfMonth(date));
  d.setUTCMonth(d.getUTCMonth() + months);
  return iso(d);
}

/** The six (or five) Monday-first weeks a month view shows. */
export function monthGrid(date: string): string[][] {
  const first = startOfMonth(date);
  const month = first.slice(0, 7);
  const weeks: string[][] = [];
  let day = startOfWeek(first);
  while (weeks.length === 0 || day.slice(0, 7) === month) {
    weeks.push(Array.from({ length: 7 }, (_, i) => addDays(day, i)));
    day = addDays(day, 7);
  }
  return weeks;
}

const weekdayShort = frenchDateFormat({ weekday: 'short' });
const weekdayLong = frenchDateFormat({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const monthYear = frenchDateFormat({ month: 'long', year: 'numeric' });
const dayMonth = frenchDateFormat({ day: 'numeric', month: 'short' });

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** 'lun.', 'mar.'… */
export const weekdayName = (date: string) => weekdayShort.format(parse(date));
/** 'Lundi 26 octobre 2026' */
export const longDay = (date: string) => capitalize(weekdayLong.format(parse(date)));
/** 'Octobre 2026' */
export const monthTitle = (date: string) => capitalize(monthYear.format(parse(date)));
/** '26 oct.' */
export const shortDay = (date: string) => dayMonth.format(parse(date));
export const dayNumber = (date: string) => parse(date).getUTCDate();

/** The Monday-first weekday labels of the month view. */
export const WEEKDAYS = ['Lun.', 'Mar.', 'Mer.', 'Jeu.', 'Ven.', 'Sam.', 'Dim.'];
