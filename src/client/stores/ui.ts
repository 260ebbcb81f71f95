import { proxy } from 'valtio';

/** Which global overlay is open. Kept apart from display settings: none of this survives a reload. */
export const ui = proxy({
  settingsPanel: false,
  feedback: false,
  search: false,
  help: false,
  updateAvailable: false,
  /** A page of the app shell has been shown: its overlays (search, help…) are then downloaded and mounted. */
  shellShown: false,
});

export function openFeedbackFromPanel() {
  ui.settingsPanel = false; // the entry opens the feedback dialog and closes the drawer
  ui.feedback = true;
}
