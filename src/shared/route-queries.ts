import type { DocumentType } from './schemas/document';
import { LIST_TABLE } from './document-types';
import { customerListInput, documentListInput, expenseFilters, itemListInput, pageOf } from './list-inputs';
import { agendaView, period } from './agenda-period';
import { addDays } from './calendar-dates';
import { openingPeriod, periodOf } from './report-period';

// The queries each page of the shell asks for on its first render, with the inputs it reads from its address. The client
// starts them at navigation (src/client/route-data.ts); the server names them in the page's HTML, for the browser to ask
// before any script has run (src/server/http/spa-preloads.ts). One list, so both ask for the very queries the page reads.

/** A procedure's path and its input; `fresh`: asked again even when a recent answer is in the cache. */
export interface RouteQuery {
  path: string;
  input?: unknown;
  fresh?: true;
}

/** What the address does not say: today in Paris, and whether the screen is wide (≥ 960 px). */
export interface Viewer {
  today: string;
  wide: boolean;
}

/** What every page behind the session check needs (the guard, the shell's plan), asked in the same request as the page's. */
export const SESSION_QUERIES: readonly RouteQuery[] = [{ path: 'auth.me' }, { path: 'settings.get' }, { path: 'subscription.get' }];

type Query = Record<string, string>;
type Loader = (query: Query, viewer: Viewer) => RouteQuery[];

const documentList =
  (type: DocumentType): Loader =>
  (query) => [{ path: 'documents.list', input: documentListInput(type, query) }];

const LOADERS: Record<string, Loader> = {
  '/': (_query, { today }) => [
    { path: 'figures.dashboard' },
    { path: 'appointments.list', input: { from: today, to: addDays(today, 14), status: 'planned' } },
    // The first steps' card reads what is already there.
    { path: 'organization.get', fresh: true },
    { path: 'customers.list', input: { per_page: 1, archived: 'include' }, fresh: true },
    { path: 'documents.list', input: { type: 'invoice', per_page: 1 }, fresh: true },
    { path: 'emailSettings.get', fresh: true },
  ],
  '/customers': (query) => [{ path: 'customers.list', input: customerListInput(query) }],
  '/items': (query) => [{ path: 'items.list', input: itemListInput(query) }, { path: 'taxes.list' }],
  '/expenses': (query) => [{ path: 'expenses.list', input: { ...expenseFilters(query), ...pageOf(query) } }],
  '/appointments': (query, { today, wide }) => {
    const { view, date } = agendaView(query, wide, today);
    const { from, to } = period(view, date);
    return [{ path: 'appointments.list', input: { from, to } }];
  },
  // The period the page opens on (reports/period-picker.tsx).
  '/reports': (_query, { today }) => {
    const { range, compared, group } = periodOf(openingPeriod(today));
    return [
      { path: 'reports.turnover', input: { ...range, group } },
      ...(compared ? [{ path: 'reports.turnover', input: { ...compared, group } }] : []),
      { path: 'reports.customers', input: range },
      { path: 'reports.items', input: range },
      { path: 'reports.tags', input: range },
      { path: 'reports.vat', input: range },
      { path: 'reports.margin', input: range },
      { path: 'reports.receivables' },
      { path: 'organization.get' },
    ];
  },
  '/settings/document': () => [{ path: 'settings.get', input: { key: 'document' } }],
  ...Object.fromEntries(
    Object.entries(LIST_TABLE)
      .filter(([type]) => type !== 'recurring')
      .map(([type, info]) => [info.base, documentList(type as DocumentType)]),
  ),
};

/** The page's own queries at `pathname` (none for a page without a loader), in the order the client asks them. */
export function routeQueries(pathname: string, query: Query, viewer: Viewer): RouteQuery[] {
  return LOADERS[pathname]?.(query, viewer) ?? [];
}

/** Whether the page at `pathname` has queries of its own started at navigation. */
export const hasRouteQueries = (pathname: string): boolean => pathname in LOADERS;
