import { useSnapshot } from 'valtio';
import { ui } from '../stores/ui';
import { ConfirmDialog } from './confirm-dialog';
import { SettingsPanel } from './settings-panel';
import { FeedbackDialog } from './feedback-dialog';
import { SearchDialog } from './search-dialog';
import { HelpDialog } from './help-dialog';

function AppHelp() {
  const { help } = useSnapshot(ui);
  return <HelpDialog topic="app" open={help} onClose={() => (ui.help = false)} />;
}

/** Global overlays, opened from the shell's top bar and drawer (and the confirm questions of its pages). */
export function GlobalOverlays() {
  return (
    <>
      <SettingsPanel />
      <ConfirmDialog />
      <FeedbackDialog />
      <SearchDialog />
      <AppHelp />
    </>
  );
}
