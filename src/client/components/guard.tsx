import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { trpc } from '../trpc';
import { FullPageSpinner } from './page-loading';

export const SETTINGS_LOAD_ERROR = "Une erreur s'est produite lors du chargement des paramètres";
export const AUTH_CHECK_ERROR = "Une erreur s'est produite lors de la vérification de l'authentification";

/**
 * Routing guard: checks the session (none → /auth/login) and loads the application settings once (failure → /404 with
 * the message). Both are asked at once, with the page's own data (route-data.ts): no request waits for another.
 * Children render only with both in hand; `fallback` (the page's skeleton) meanwhile.
 */
export function RequireAuth({ children, fallback = <FullPageSpinner /> }: { children: ReactNode; fallback?: ReactNode }) {
  const me = trpc.auth.me.useQuery(undefined, { meta: { silent: true }, staleTime: Infinity });
  const settings = trpc.settings.get.useQuery(undefined, { meta: { silent: true }, staleTime: Infinity });

  if (me.isError) {
    console.info(AUTH_CHECK_ERROR);
    return <Redirect to="/auth/login" replace />;
  }
  // Without a session the settings are refused too: that is the login's business, not an error page's.
  if (settings.isError && me.isSuccess) {
    console.error(SETTINGS_LOAD_ERROR, settings.error);
    return <Redirect to={`/404?message=${encodeURIComponent(SETTINGS_LOAD_ERROR)}`} replace />;
  }
  if (!me.data || !settings.data) return <>{fallback}</>;
  return <>{children}</>;
}
