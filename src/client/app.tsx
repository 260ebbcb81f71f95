import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Redirect, Route, Switch } from 'wouter';
import { useSnapshot } from 'valtio';
import { applyDisplay } from './stores/display';
import { ui } from './stores/ui';
import { queryClient, trpc, trpcClient } from './trpc';
import { routes, type AppRoute } from './routes';
import { usePageTitle } from './lib/page-title';
import { RequireAuth } from './components/guard';
import { RoleGate } from './components/role-gate';
import { AuthLayout } from './layouts/auth-layout';
import { MainLayout } from './layouts/main-layout';
import { PublicLayout } from './layouts/public-layout';
import { Snackbar } from './components/snackbar';
import { ConfirmDialog } from './components/confirm-dialog';
import { SettingsPanel } from './components/settings-panel';
import { FeedbackDialog } from './components/feedback-dialog';
import { SearchDialog } from './components/search-dialog';
import { UpdateNotice } from './components/update-notice';
import { HelpDialog } from './components/help-dialog';
import { defined } from '../shared/defined';

function RoutePage({ route }: { route: AppRoute }) {
  usePageTitle(route.title);
  if (route.redirect) return <Redirect to={route.redirect} replace />;
  const Page = defined(route.component, 'route.component');
  // Inside RequireAuth the role is known: a page the role may not use says so instead of a form answering 403.
  let page: ReactNode = route.can ? (
    <RoleGate can={route.can}>
      <Page />
    </RoleGate>
  ) : (
    <Page />
  );
  if (route.layout === 'auth') page = <AuthLayout title={route.title}>{page}</AuthLayout>;
  if (route.layout === 'main')
    page = (
      <MainLayout title={route.title} subtitle={route.subtitle}>
        {page}
      </MainLayout>
    );
  if (route.layout === 'public' && route.path !== '/404') page = <PublicLayout>{page}</PublicLayout>;
  return route.requiresAuth ? <RequireAuth>{page}</RequireAuth> : page;
}

function AppHelp() {
  const { help } = useSnapshot(ui);
  return <HelpDialog topic="app" open={help} onClose={() => (ui.help = false)} />;
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
        <UpdateNotice />
        <SettingsPanel />
        <Snackbar />
        <ConfirmDialog />
        <FeedbackDialog />
        <SearchDialog />
        <AppHelp />
      </QueryClientProvider>
    </trpc.Provider>
  );
}
