import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Redirect, Route, Switch } from 'wouter';
import { useSnapshot } from 'valtio';
import { applyDisplay } from './stores/display';
import { ui } from './stores/ui';
import { queryClient, trpc, trpcClient } from './trpc';
import { routes, type AppRoute } from './routes';
import { usePageTitle } from './lib/page-title';
import { lazyPage } from './lib/lazy-page';
import { FullPageSpinner, RequireAuth } from './components/guard';
import { LazyBoundary, PageSpinner } from './components/page-loading';
import { AuthLayout } from './layouts/auth-layout';
import { PublicLayout } from './layouts/public-layout';
import { Snackbar } from './components/snackbar';
import { UpdateNotice } from './components/update-notice';
import { defined } from '../shared/defined';

// The app shell (drawer, top bar) and its global overlays (search, settings panel, help, feedback, confirm) come in
// their own chunks: the login and register pages never download them (issue 22).
const shell = lazyPage(
  () => import('./layouts/main-layout'),
  (m) => m.MainLayout,
);
const overlays = lazyPage(
  () => import('./components/global-overlays'),
  (m) => m.GlobalOverlays,
);

/** The login form's height (lead, two fields, button, links), in px: its card keeps that size while the form downloads. */
const AUTH_FORM_HEIGHT = 285;

function RoutePage({ route }: { route: AppRoute }) {
  usePageTitle(route.title);
  const main = route.layout === 'main';
  useEffect(() => {
    // Behind the guard, the page and the shell download while the session is being checked, not after.
    if (main) void shell.preload();
    void route.page?.preload();
  }, [main, route]);
  if (route.redirect) return <Redirect to={route.redirect} replace />;
  const { Component } = defined(route.page, 'route.page');
  // In the sign-in card, a spinner about as tall as the login form; elsewhere, the page's area.
  let page: ReactNode = (
    <LazyBoundary fallback={<PageSpinner height={route.layout === 'auth' ? AUTH_FORM_HEIGHT : undefined} />}>
      <Component />
    </LazyBoundary>
  );
  if (route.layout === 'auth') page = <AuthLayout title={route.title}>{page}</AuthLayout>;
  if (main)
    page = (
      // The guard's own spinner while the shell downloads: one spinner from the address bar to the page, no jump.
      <LazyBoundary fallback={<FullPageSpinner />}>
        <shell.Component title={route.title} subtitle={route.subtitle} can={route.can}>
          {page}
        </shell.Component>
      </LazyBoundary>
    );
  if (route.layout === 'public' && route.path !== '/404') page = <PublicLayout>{page}</PublicLayout>;
  return route.requiresAuth ? <RequireAuth>{page}</RequireAuth> : page;
}

/** The overlays are opened from the shell only: they are mounted once a shell page has been shown. */
function LazyOverlays() {
  const { shellShown } = useSnapshot(ui);
  if (!shellShown) return null;
  return (
    <LazyBoundary fallback={null}>
      <overlays.Component />
    </LazyBoundary>
  );
}

/** The root shell (SPEC §2): the layout comes from route metadata; the global overlays stay mounted once loaded. */
export function App() {
  useEffect(() => applyDisplay(), []);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
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
      </QueryClientProvider>
    </trpc.Provider>
  );
}
