import { addDays, longDay, monthGrid, monthTitle, shortDay, startOfWeek } from './calendar-dates';

// The agenda's view and period from its address: the page and the route's queries (route-queries.ts) ask for the
// same days, so the appointments asked for at navigation are the ones the page shows.

export type View = 'day' | 'week' | 'month' | 'list';
export const VIEWS: { value: View; label: string; wide?: boolean }[] = [
  { value: 'day', label: 'Jour' },
  { value: 'week', label: 'Semaine', wide: true },
  { value: 'month', label: 'Mois', wide: true },
  { value: 'list', label: 'Liste' },
];
export const LIST_DAYS = 30;

/** The days a view covers and its title. */
export function period(view: View, date: string): { from: string; to: string; title: string } {
  if (view === 'day') return { from: date, to: date, title: longDay(date) };
  if (view === 'week') {
    const from = startOfWeek(date);
    const to = addDays(from, 6);
    return { from, to, title: `Semaine du ${shortDay(from)} au ${shortDay(to)} ${to.slice(0, 4)}` };
  }
  if (view === 'month') {
    const weeks = monthGrid(date);
    return { from: weeks[0]?.[0] ?? date, to: weeks.at(-1)?.[6] ?? date, title: monthTitle(date) };
  }
  return { from: date, to: addDays(date, LIST_DAYS - 1), title: `Du ${shortDay(date)} au ${shortDay(addDays(date, LIST_DAYS - 1))}` };
}

/** The view asked in the address (the week on a wide screen, else the day) and its date (today unless given). */
export function agendaView(query: Record<string, string>, wide: boolean, today: string): { view: View; date: string } {
  const asked = (query.view as View | undefined) ?? (wide ? 'week' : 'day');
  // On a phone the week and month grids do not fit: day or list.
  const view: View = !wide && (asked === 'week' || asked === 'month') ? 'day' : asked;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(query.date ?? '') ? (query.date as string) : today;
  return { view, date };
}
