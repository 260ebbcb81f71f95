import { navigate } from 'wouter/use-browser-location';
import { confirm } from '../stores/confirm';
import { queryClient, reportError, trpcClient } from '../trpc';

/** Asks first; then the server revokes the session, the cached user is dropped, and /auth/login shows. */
export async function logoutWithConfirmation(): Promise<void> {
  if (!(await confirm('Êtes-vous sûr(e) de vouloir vous déconnecter ?', { title: 'Se déconnecter' }))) return;
  try {
    await trpcClient.auth.logout.mutate();
  } catch (error) {
    reportError(error);
    return;
  }
  queryClient.clear();
  navigate('/auth/login');
}
