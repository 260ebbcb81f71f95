import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Redirect, Route, Switch } from 'wouter';
import { applyDisplay } from './stores/display';
import { queryClient, trpc, trpcClient } from './trpc';
import { routes, type AppRoute } from './routes';
import { usePageTitle } from './lib/page-title';
import { RequireAuth } from './components/guard';
import { AuthLayout } from './layouts/auth-layout';
import { MainLayout } from './layouts/main-layout';
import { Snackbar } from './components/snackbar';
import { ConfirmDialog } from './components/confirm-dialog';

function RoutePage({ route }: { route: AppRoute }) {
  usePageTitle(route.title);
  const Page = route.component;
  let page: ReactNode = <Page />;
  if (route.layout === 'auth') page = <AuthLayout title={route.title}>{page}</AuthLayout>;
  if (route.layout === 'main') page = <MainLayout title={route.title} subtitle={route.subtitle}>{page}</MainLayout>;
  return route.requiresAuth ? <RequireAuth>{page}</RequireAuth> : page;
}

/** The root shell (SPEC §2): the layout comes from route metadata; the global overlays are always mounted. */
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
        <Snackbar />
        <ConfirmDialog />
      </QueryClientProvider>
    </trpc.Provider>
  );
}
