import { createTRPCQueryUtils } from '@trpc/react-query';
import { parisToday } from '../shared/paris-date';
import { routeQueries, SESSION_QUERIES, type RouteQuery } from '../shared/route-queries';
import { queryClient, trpcClient } from './trpc';

/**
 * A route's data loader: the queries its page asks for on its first render, with the same inputs
 * (shared/route-queries.ts), started at navigation — while the page's code is still downloading and the session is being
 * checked — instead of once the page has drawn. The page then finds them in flight or answered. On a fresh load the
 * server has already named the same request in the page's HTML: the browser asked for it before any script ran, and
 * the request issued here takes that answer.
 */
const utils = createTRPCQueryUtils({ queryClient, client: trpcClient });

/** An error here is the page's to show when it asks again (its own query retries on mount): the loader stays quiet. */
const quiet = { meta: { silent: true } } as const;

/** The session and the settings are kept for the tab's life; the guard reads them with the same rule. */
const KEPT = new Set(['auth.me', 'settings.get']);

type Prefetch = (input: unknown, options: object) => Promise<void>;

/** Starts one query, in the same batch as the others started in this tick; settles once answered (or failed). */
function prefetch({ path, input, fresh }: RouteQuery): Promise<void> {
  const procedure = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], utils) as { prefetch: Prefetch };
  const staleTime = fresh ? 0 : KEPT.has(path) && input === undefined ? Number.POSITIVE_INFINITY : undefined;
  return procedure.prefetch(input, staleTime === undefined ? quiet : { ...quiet, staleTime });
}

const viewer = () => ({ today: parisToday(), wide: window.matchMedia('(min-width: 960px)').matches });

function pageQueries(href: string): RouteQuery[] {
  const url = new URL(href, window.location.origin);
  return routeQueries(url.pathname, Object.fromEntries(url.searchParams), viewer());
}

/**
 * Starts, in one tick (one batched request), what every page needs — the session, the settings, the plan the shell
 * shows — and what the page at `href` needs. Asked again for a route whose data is fresh, it asks nothing. Settles
 * once every answer is in the cache (a failed one too: the page shows its error when it asks again).
 */
export function startRouteData(href: string): Promise<unknown> {
  return Promise.all([...SESSION_QUERIES, ...pageQueries(href)].map(prefetch));
}

/** The data of the page behind a link, asked for on hover or focus: a click then shows it at once. */
export function preloadRouteData(href: string) {
  for (const query of pageQueries(href)) prefetch(query);
}
