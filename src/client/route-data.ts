import { createTRPCQueryUtils } from '@trpc/react-query';
import { LIST_BASES } from '../shared/status';
import type { DocumentType, ListType } from '../shared/schemas/document';
import { parisToday } from '../shared/paris-date';
import { queryClient, trpcClient } from './trpc';
import { customerListInput, documentListInput, expenseFilters, itemListInput, pageOf } from './lib/list-inputs';
import { agendaView, period } from './routes/appointments/agenda-period';
import { openingPeriod, periodOf } from './routes/reports/report-period';
import { addDays } from './routes/appointments/calendar-dates';

/**
 * A route's data loader: the queries its page asks for on its first render, with the same inputs (lib/list-inputs.ts),
 * started at navigation — while the page's code is still downloading and the session is being checked — instead of
 * once the page has drawn. The page then finds them in flight or answered.
 */
type Loader = (utils: Utils, query: Record<string, string>) => void;
type Utils = ReturnType<typeof createTRPCQueryUtils<import('../server/routers/_app').AppRouter>>;

const utils = createTRPCQueryUtils({ queryClient, client: trpcClient });

/** An error here is the page's to show when it asks again (its own query retries on mount): the loader stays quiet. */
const quiet = { meta: { silent: true } } as const;

const wide = () => window.matchMedia('(min-width: 960px)').matches;

const documentList =
  (type: DocumentType): Loader =>
  (u, query) =>
    void u.documents.list.prefetch(documentListInput(type, query), quiet);

const LOADERS: Record<string, Loader> = {
  '/': (u) => {
    const today = parisToday();
    void u.figures.dashboard.prefetch(undefined, quiet);
    void u.appointments.list.prefetch({ from: today, to: addDays(today, 14), status: 'planned' }, quiet);
    // The first steps' card reads what is already there.
    const fresh = { ...quiet, staleTime: 0 };
    void u.organization.get.prefetch(undefined, fresh);
    void u.customers.list.prefetch({ per_page: 1, archived: 'include' }, fresh);
    void u.documents.list.prefetch({ type: 'invoice', per_page: 1 }, fresh);
    void u.emailSettings.get.prefetch(undefined, fresh);
  },
  '/customers': (u, query) => void u.customers.list.prefetch(customerListInput(query), quiet),
  '/items': (u, query) => {
    void u.items.list.prefetch(itemListInput(query), quiet);
    void u.taxes.list.prefetch(undefined, quiet);
  },
  '/expenses': (u, query) => void u.expenses.list.prefetch({ ...expenseFilters(query), ...pageOf(query) }, quiet),
  '/appointments': (u, query) => {
    const { view, date } = agendaView(query, wide(), parisToday());
    const { from, to } = period(view, date);
    void u.appointments.list.prefetch({ from, to }, quiet);
  },
  // The period the page opens on (reports/period-picker.tsx).
  '/reports': (u) => {
    const { range, compared, group } = periodOf(openingPeriod(parisToday()));
    void u.reports.turnover.prefetch({ ...range, group }, quiet);
    if (compared) void u.reports.turnover.prefetch({ ...compared, group }, quiet);
    void u.reports.customers.prefetch(range, quiet);
    void u.reports.items.prefetch(range, quiet);
    void u.reports.tags.prefetch(range, quiet);
    void u.reports.vat.prefetch(range, quiet);
    void u.reports.margin.prefetch(range, quiet);
    void u.reports.receivables.prefetch(undefined, quiet);
    void u.organization.get.prefetch(undefined, quiet);
  },
  '/settings/document': (u) => void u.settings.get.prefetch({ key: 'document' }, quiet),
  ...Object.fromEntries(
    (Object.entries(LIST_BASES) as [ListType, string][])
      .filter(([type]) => type !== 'recurring')
      .map(([type, base]) => [base, documentList(type as DocumentType)]),
  ),
};

/**
 * Starts, in one tick (one batched request), what every page needs — the session, the settings, the plan the shell
 * shows — and what the page at `href` needs. Asked again for a route whose data is fresh, it asks nothing.
 */
export function startRouteData(href: string) {
  const url = new URL(href, window.location.origin);
  void utils.auth.me.prefetch(undefined, { ...quiet, staleTime: Number.POSITIVE_INFINITY });
  void utils.settings.get.prefetch(undefined, { ...quiet, staleTime: Number.POSITIVE_INFINITY });
  void utils.subscription.get.prefetch(undefined, quiet);
  LOADERS[url.pathname]?.(utils, Object.fromEntries(url.searchParams));
}

/** The data of the page behind a link, asked for on hover or focus: a click then shows it at once. */
export function preloadRouteData(href: string) {
  const url = new URL(href, window.location.origin);
  LOADERS[url.pathname]?.(utils, Object.fromEntries(url.searchParams));
}
