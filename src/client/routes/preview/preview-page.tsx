import { useMemo } from 'react';
import { useSearch } from 'wouter';
import { css } from '../../../../styled-system/css';
import { DOCUMENT_TYPES, type DocumentType } from '../../../shared/schemas/document';
import { defaultAppSettings, type AppSettings } from '../../../shared/schemas/settings';
import { defaultDocumentTemplate, type DocumentTemplate } from '../../../shared/schemas/template';
import { trpc } from '../../trpc';
import { Spinner } from '../../components/ui/spinner';
import { DocumentPages } from '../../render/document-pages';
import { sampleDocument } from '../../render/sample-document';
import { useFitScale } from '../../render/use-fit-scale';

/**
 * /preview: a sample document drawn with the live template settings. Public: logged in, it reads the
 * organisation's template (GET /api/settings?key=document) and money/address formats; logged out, the defaults.
 * `?type=estimate` picks the sample's type, `?lines=40` makes it long enough to run over several pages.
 */
export function PreviewPage() {
  const search = new URLSearchParams(useSearch());
  const type = (DOCUMENT_TYPES as readonly string[]).includes(search.get('type') ?? '') ? (search.get('type') as DocumentType) : 'invoice';
  const lines = Math.min(500, Math.max(0, Number(search.get('lines')) || 0)) || undefined;

  // Silent: a visitor who is not logged in gets the defaults, never a redirect to the login page.
  const me = trpc.auth.me.useQuery(undefined, { meta: { silent: true }, retry: false, staleTime: 60_000 });
  const logged = me.isSuccess;
  const appSettings = trpc.settings.get.useQuery(undefined, { enabled: logged, meta: { silent: true }, retry: false });
  const templateQuery = trpc.settings.get.useQuery({ key: 'document' }, { enabled: logged, meta: { silent: true }, retry: false });

  const settings: AppSettings = appSettings.data && 'currency_format' in appSettings.data ? appSettings.data : defaultAppSettings();
  const template: DocumentTemplate =
    templateQuery.data && 'data' in templateQuery.data ? templateQuery.data.data : defaultDocumentTemplate();
  const doc = useMemo(() => sampleDocument({ type, lineCount: lines }), [type, lines]);

  const [stage, scale] = useFitScale(1);
  const loading = me.isPending || (logged && (appSettings.isPending || templateQuery.isPending));

  return (
    <div ref={stage} className={css({ w: 'full' })}>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4', textAlign: 'center' })}>
        Document d’exemple mis en page avec {logged ? 'votre modèle (Paramètres → Apparence)' : 'le modèle par défaut'}.
      </p>
      {loading ? (
        <div role="status" className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
          <Spinner label="Chargement de l’aperçu" />
        </div>
      ) : (
        <DocumentPages doc={doc} template={template} settings={settings} scale={scale} />
      )}
    </div>
  );
}
