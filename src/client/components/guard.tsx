import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { trpc } from '../trpc';
import { FullPageSpinner } from './page-loading';

export const SETTINGS_LOAD_ERROR = "Une erreur s'est produite lors du chargement des paramètres";
export const AUTH_CHECK_ERROR = "Une erreur s'est produite lors de la vérification de l'authentification";

/**
 * SPEC §2 routing guard: checks the session (none → /auth/login), then loads the application settings once
 * (failure → /404 with SPEC's message). Children render only with both in hand.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const me = trpc.auth.me.useQuery(undefined, { meta: { silent: true }, staleTime: Infinity });
  const settings = trpc.settings.get.useQuery(undefined, { enabled: me.isSuccess, meta: { silent: true }, staleTime: Infinity });

  if (me.isError) {
    console.info(AUTH_CHECK_ERROR);
    return <Redirect to="/auth/login" replace />;
  }
  if (settings.isError) {
    console.error(SETTINGS_LOAD_ERROR, settings.error);
    return <Redirect to={`/404?message=${encodeURIComponent(SETTINGS_LOAD_ERROR)}`} replace />;
  }
  if (!me.data || !settings.data) return <FullPageSpinner />;
  return <>{children}</>;
}
