import { showMessage } from '../../stores/snackbar';
import { isChunkLoadError } from '../../components/page-loading';

type AuthValidation = typeof import('./auth-validation');
let loading: Promise<AuthValidation> | undefined;

function loadAuthValidation() {
  loading ??= import('./auth-validation').catch((error: unknown) => {
    loading = undefined; // the next submit tries again
    throw error;
  });
  return loading;
}

/** For a form's first keystroke or click: by the time it is submitted, the checks are usually there. */
export function preloadAuthValidation() {
  loadAuthValidation().catch(() => undefined);
}

/**
 * Runs a submit with the sign-in pages' checks in hand. When they cannot be downloaded (a deploy since the tab opened,
 * the network gone) the user is told to reload instead of a button that does nothing.
 */
export async function withAuthValidation(use: (validation: AuthValidation) => void): Promise<void> {
  let validation: AuthValidation;
  try {
    validation = await loadAuthValidation();
  } catch (error) {
    if (!isChunkLoadError(error)) throw error;
    showMessage('Le formulaire n’a pas pu être vérifié : rechargez la page.', 400);
    return;
  }
  use(validation);
}
