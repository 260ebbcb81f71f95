import { lazy, Suspense } from 'react';
import { css } from '../../../../../styled-system/css';
import { SettingsFrame, settingsCard, settingsSection } from '../settings-frame';
import { Spinner } from '../../../components/ui/spinner';
import { ApiKeysSection } from './api-keys-section';
import { CurlExample } from './curl-example';
import { WebhooksSection } from './webhooks-section';

// The reference and its drawing come in their own chunk, fetched only when this page opens.
const ApiReference = lazy(() => import('./api-reference'));

/** « Référence de l’API »: every REST path, read from /api/openapi.json. */
function ApiReferenceSection() {
  return (
    <section className={settingsCard} aria-label="Référence de l’API">
      <p className={settingsSection}>Référence de l’API</p>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        JSON en entrée et en sortie ; les erreurs répondent <code>{'{ messages }'}</code> en français avec leur statut HTTP. Chaque chemin
        est aussi une procédure tRPC sur <code>/api/trpc</code>.
      </p>
      <CurlExample secret="<votre clé>" scope="read" />
      <Suspense fallback={<Spinner label="Chargement de la référence de l’API" />}>
        <ApiReference />
      </Suspense>
    </section>
  );
}

/** Paramètres → API (§5), one section after another: « Clés d’API », the webhooks, « Référence de l’API ». */
export function ApiSettingsPage() {
  return (
    <SettingsFrame>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
        <ApiKeysSection />
        <WebhooksSection />
        <ApiReferenceSection />
      </div>
    </SettingsFrame>
  );
}
