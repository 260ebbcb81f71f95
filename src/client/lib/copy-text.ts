import { showMessage } from '../stores/snackbar';

/** Message when the Clipboard API is missing (an insecure origin, an old browser). */
export const CLIPBOARD_UNAVAILABLE = 'The Clipboard API is not available';

/** Copies `text`, then says `done`; without the Clipboard API, says so instead of failing silently. */
export async function copyText(text: string, done: string): Promise<void> {
  if (!navigator.clipboard?.writeText) return showMessage(CLIPBOARD_UNAVAILABLE, 400);
  try {
    await navigator.clipboard.writeText(text);
    showMessage(done);
  } catch {
    showMessage(CLIPBOARD_UNAVAILABLE, 400);
  }
}
