import { UpcomingPage } from '../upcoming-page';
import { SettingsFrame } from './settings-frame';

/** A settings entry whose page is not built yet: the settings menu stays beside the notice. */
export function SettingsUpcomingPage({ title }: { title: string }) {
  return (
    <SettingsFrame>
      <UpcomingPage feature={`La page « ${title} »`} />
    </SettingsFrame>
  );
}
