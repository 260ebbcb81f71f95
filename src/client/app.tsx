import { useEffect, useState, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { ui } from './stores/ui';
import { confirmState } from './stores/confirm';
import { whenIdle } from './lib/when-idle';
import { routes, type AppRoute } from './routes';
import { usePageTitle } from './lib/page-title';
import { lazyPage, useLazyComponent } from './lib/lazy-page';
import { LazyBoundary, PageSpinner } from './components/page-loading';
import { ShellSkeleton } from './components/shell-skeleton';
import { skeletonOf } from './page-skeletons';
import { AuthLayout } from './layouts/auth-layout';
import { PublicLayout } from './layouts/public-layout';
import { Snackbar } from './components/snackbar';
import { UpdateNotice } from './components/update-notice';
import { defined } from '../shared/defined';

// The app shell (drawer, top bar) and its global overlays (search, settings panel, help, feedback, confirm) come in
// their own chunks: the login and register pages never download them.
const shell = lazyPage(
  () => import('./layouts/main-layout'),
  (m) => m.MainLayout,
);
// The data layer (tRPC, TanStack Query, superjson) and the session guard too: the login page posts without them.
const dataLayer = lazyPage(
  () => import('./data-layer'),
  (m) => m.DataLayer,
);
const overlays = lazyPage(
  () => import('./components/global-overlays'),
  (m) => m.GlobalOverlays,
);

/** The login form's height (lead, two fields, button, links), in px: its card keeps that size while the form downloads. */
const AUTH_FORM_HEIGHT = 285;

/**
 * Starts the session's, the settings' and the page's requests for `href` (route-data.ts), then the download of
 * `route`'s code. Over HTTP/1.1's six connections a request waits behind every file asked before it, and a page's code
 * is tens of files: the data leaves first, the code right behind it (tRPC sends its batch on the next timer tick, hence
 * the timeout). Settles once both are in, with whether all the code came (preloadRouteCode).
 */
function startRouteDataAndCode(href: string, route: AppRoute): Promise<boolean> {
  return import('./data-layer').then(
    (layer) => {
      const data = layer.startRouteData(href);
      const code = new Promise<boolean>((resolve) => setTimeout(() => resolve(preloadRouteCode(route)), 0));
      return Promise.all([code, data]).then(([allIn]) => allIn);
    },
    () => preloadRouteCode(route),
  );
}

/** Whether the page at this route draws its own data behind the session check (its data starts with the navigation). */
const loadsDataAtNavigation = (route: AppRoute) => route.requiresAuth && !route.plainFetch && !route.redirect;

/** What RoutePage needs of a lazy part, whatever its props. */
interface RoutePart {
  preload: () => Promise<unknown>;
  loaded?: () => unknown;
}

/** The lazy parts `route` draws with: the data layer, the shell of a main page, the page itself. */
function routeParts(route: AppRoute): RoutePart[] {
  return [route.plainFetch ? undefined : dataLayer, route.layout === 'main' ? shell : undefined, route.page].filter(
    (part) => part !== undefined,
  );
}

/** Downloads what `route` draws with; true once all of it is in, false if a download failed. */
function preloadRouteCode(route: AppRoute): Promise<boolean> {
  return Promise.all(routeParts(route).map((part) => part.preload())).then((parts) => parts.every(Boolean));
}

/** Whether a lazy part's code is in (or there is no such part): drawn then, it does not suspend. */
const codeIn = (part: RoutePart | undefined) => part === undefined || part.loaded?.() !== undefined;

/**
 * Called once, before the first render: the page opened from the address bar starts its data and its code as soon as
 * the app's first file has run, not after React has drawn the skeleton and run its effects. Only an exact path (every
 * main page has one); an address with parameters starts from its page's effect as before. Settles once the page's code
 * and data are in (or could not be had: the page then shows its notice as before), so that the first render draws the
 * page with its data rather than its skeleton and then the page again.
 */
export function startOpeningPage(): Promise<unknown> {
  const { pathname, search } = window.location;
  const route = routes.find((candidate) => candidate.path === pathname);
  if (!route || !loadsDataAtNavigation(route)) return Promise.resolve();
  return startRouteDataAndCode(pathname + search, route);
}

function RoutePage({ route }: { route: AppRoute }) {
  usePageTitle(route.title);
  const main = route.layout === 'main';
  const needsData = !route.plainFetch;
  const [location] = useLocation();
  const search = useSearch();
  // Each drawn as soon as its code is there, not after a Suspense retry (lib/lazy-page.ts).
  const DataLayer = useLazyComponent(dataLayer);
  const Shell = useLazyComponent(shell);
  const Page = useLazyComponent(route.page);
  const [downloadFailed, setDownloadFailed] = useState(false);
  useEffect(() => {
    // The page's data starts with the navigation, not once the page has drawn; behind the guard, the page and the shell
    // download while the session is being checked, not after. Both ask again for nothing already asked.
    const code = loadsDataAtNavigation(route)
      ? startRouteDataAndCode(search ? `${location}?${search}` : location, route)
      : preloadRouteCode(route);
    void code.then((allIn) => !allIn && setDownloadFailed(true));
  }, [route, location, search]);
  if (route.redirect) return <Redirect to={route.redirect} replace />;
  const Component = defined(Page, 'route.page');
  // In the sign-in card, a spinner about as tall as the login form; elsewhere, the page's area.
  const spinner = <PageSpinner height={route.layout === 'auth' ? AUTH_FORM_HEIGHT : undefined} />;
  const withData = (content: ReactNode, fallback: ReactNode) =>
    needsData ? (
      <LazyBoundary fallback={fallback}>
        <DataLayer requiresAuth={route.requiresAuth} fallback={fallback}>
          {content}
        </DataLayer>
      </LazyBoundary>
    ) : (
      content
    );
  // While a part's code downloads, what its Suspense boundary would show is drawn here instead of suspending: React
  // holds a suspended boundary's content back until 300 ms after the last fallback it drew, even when the code and the
  // data came long before (traced: the list drawn 200–300 ms after both were in). A failed download draws the lazy
  // part, whose error shows the reload notice.
  const drawLazy = (part: RoutePart | undefined) => downloadFailed || codeIn(part);
  let page: ReactNode = drawLazy(route.page) ? (
    <LazyBoundary fallback={spinner}>
      <Component />
    </LazyBoundary>
  ) : (
    spinner
  );
  if (main) {
    // The shell and the page's skeleton from the first paint while the data layer, the shell, the session and the
    // page's data come: one skeleton from the address bar to the page, which then takes its place.
    const skeleton = <ShellSkeleton title={route.title} subtitle={route.subtitle} skeleton={skeletonOf(route.path)} />;
    if (!drawLazy(needsData ? dataLayer : undefined) || !drawLazy(shell)) return skeleton;
    return withData(
      <LazyBoundary fallback={skeleton}>
        <Shell title={route.title} subtitle={route.subtitle} can={route.can}>
          {page}
        </Shell>
      </LazyBoundary>,
      skeleton,
    );
  }
  // Outside the shell the layout draws at once, the page's spinner in it while the data layer comes.
  page = withData(page, spinner);
  if (route.layout === 'auth') return <AuthLayout title={route.title}>{page}</AuthLayout>;
  if (route.layout === 'public' && route.path !== '/404') return <PublicLayout>{page}</PublicLayout>;
  return page;
}

/**
 * The overlays are opened from the shell only (and the confirm questions of its pages): once a shell page is shown their
 * chunk downloads when the browser is idle, and they are mounted when one is first asked for.
 */
function LazyOverlays() {
  const { shellShown, settingsPanel, feedback, search, help } = useSnapshot(ui);
  const confirming = useSnapshot(confirmState).open;
  const asked = settingsPanel || feedback || search || help || confirming;
  const [wanted, setWanted] = useState(false);
  if (asked && !wanted) setWanted(true);
  useEffect(() => (shellShown ? whenIdle(() => void overlays.preload()) : undefined), [shellShown]);
  if (!wanted) return null;
  return (
    <LazyBoundary fallback={null}>
      <dataLayer.Component requiresAuth={false}>
        <overlays.Component />
      </dataLayer.Component>
    </LazyBoundary>
  );
}

/** The root shell: the layout comes from route metadata; the global overlays stay mounted once loaded. */
export function App() {
  return (
    <>
      <Switch>
        {routes.map((route) => (
          <Route key={route.path} path={route.path}>
            <RoutePage route={route} />
          </Route>
        ))}
        <Route>
          <Redirect to="/404" replace />
        </Route>
      </Switch>
      <UpdateNotice />
      <Snackbar />
      <LazyOverlays />
    </>
  );
}
