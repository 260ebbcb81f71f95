import { useCallback, useEffect } from 'react';
import { matchRoute, useRouter } from 'wouter';
import { routes } from '../routes';
import { whenIdle } from './when-idle';
import { preloadRouteData } from '../route-data';

/**
 * Starts downloading the page behind a link (on hover or focus), and with `data` its data too, so that the click shows
 * it filled in at once.
 */
export function usePrefetch({ data = false }: { data?: boolean } = {}): (href: string) => void {
  const { parser } = useRouter();
  return useCallback(
    (href: string) => {
      const path = href.split(/[?#]/)[0] ?? href;
      const route = routes.find((candidate) => matchRoute(parser, candidate.path, path)[0]);
      const target = route?.redirect ? routes.find((candidate) => candidate.path === route.redirect) : route;
      void target?.page?.preload();
      if (data && target) preloadRouteData(target.redirect ?? path);
    },
    [parser, data],
  );
}

/** Idle time is for the pages most users open next (the invoice list and the editor): cheap, and never on the login page. */
export function usePrefetchWhenIdle(hrefs: readonly string[]) {
  const prefetch = usePrefetch();
  const key = hrefs.join('\n');
  useEffect(() => {
    const run = () => {
      for (const href of key.split('\n')) prefetch(href);
    };
    return whenIdle(run);
  }, [key, prefetch]);
}
