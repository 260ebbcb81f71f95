import { SettingsFrame } from './settings-frame';
import { WebhooksSection } from './webhooks-section';

/** Paramètres → API (issue 18 §4, §5): the API keys and the webhooks of the organisation. */
export function ApiSettingsPage() {
  return (
    <SettingsFrame>
      <WebhooksSection />
    </SettingsFrame>
  );
}
