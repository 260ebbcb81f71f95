import { useState, type FormEvent } from 'react';
import { css, cx } from '../../../../../styled-system/css';
import { settingsListStyles } from '../settings-list-styles';
import { settingsCard, settingsSection } from '../settings-frame';
import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, apiKeyInputSchema, type ApiKeyScope } from '../../../../shared/schemas/api-keys';
import { firstMessage } from '../../../../shared/validation-messages';
import { trpc } from '../../../trpc';
import { useCan } from '../../../lib/use-can';
import { useActionGuard } from '../../../lib/use-action-guard';
import { confirm } from '../../../stores/confirm';
import { showMessage } from '../../../stores/snackbar';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { RadioGroup } from '../../../components/ui/radio-group';
import { Checkbox } from '../../../components/ui/checkbox';
import { CurlExample } from './curl-example';
import { PlanFeatureNote, usePlanIncludes } from '../../subscription/plan-feature';
import { copyText } from '../../../lib/copy-text';

const SCOPE_HINTS: Record<ApiKeyScope, string> = {
  read: 'lit et exporte, ne modifie rien',
  write: 'crée et modifie aussi documents, clients, articles, dépenses, rendez-vous',
};

const styles = {
  ...settingsListStyles,
  row: cx(settingsListStyles.row, css({ gridTemplateColumns: { base: '1fr', md: '1fr 180px auto' } })),
  prefix: css({ fontFamily: 'mono', fontSize: 'sm', color: 'fg.muted' }),
  secretBox: css({
    display: 'flex',
    flexDirection: 'column',
    gap: '3',
    p: '4',
    borderRadius: 'lg',
    borderWidth: '1px',
    borderColor: 'accent.default',
    bg: 'accent.subtle',
  }),
  secret: css({
    fontFamily: 'mono',
    fontSize: 'sm',
    bg: 'bg.surface',
    borderRadius: 'md',
    borderWidth: '1px',
    borderColor: 'border.default',
    px: '3',
    py: '2',
    overflowWrap: 'anywhere',
    userSelect: 'all',
  }),
};

const dateFr = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' })
    : 'jamais';

interface Created {
  name: string;
  scope: ApiKeyScope;
  secret: string;
}

/** « Clés d’API »: create one (its secret shown once), see when each was last used, revoke. */
export function ApiKeysSection() {
  const included = usePlanIncludes('api');
  const canManage = useCan('apiKeys.create');
  const utils = trpc.useUtils();
  const keys = trpc.apiKeys.list.useQuery(undefined, { enabled: canManage });
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [webhooks, setWebhooks] = useState(false);
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<Created | null>(null);
  const guard = useActionGuard();
  const create = trpc.apiKeys.create.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      setCreated({ name: answer.data.name, scope: answer.data.scope, secret: answer.data.secret });
      setName('');
      setWebhooks(false);
      void utils.apiKeys.invalidate();
    },
  });
  const revoke = trpc.apiKeys.revoke.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      void utils.apiKeys.invalidate();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = apiKeyInputSchema.safeParse({ name, scope, webhooks });
    setError(result.success ? undefined : firstMessage(result.error.issues));
    if (result.success) void guard(() => create.mutateAsync(result.data));
  }

  return (
    <section className={settingsCard} aria-label="Clés d’API">
      <p className={settingsSection}>Clés d’API</p>
      <p className={styles.muted}>
        Une clé permet à un logiciel ou à un script d’utiliser l’API de votre entreprise avec l’en-tête{' '}
        <code className={styles.prefix}>Authorization: Bearer &lt;clé&gt;</code>. Elle ne gère jamais l’équipe, les réglages ni les clés.
      </p>
      {!canManage ? (
        <p className={styles.muted}>Seuls les propriétaires et les administrateurs créent et révoquent les clés d’API.</p>
      ) : (
        <>
          {created && (
            <div className={styles.secretBox} role="status" aria-label="Nouvelle clé d’API">
              <strong>Copiez la clé « {created.name} » maintenant : elle ne sera plus jamais affichée.</strong>
              <code className={styles.secret} data-testid="api-key-secret">
                {created.secret}
              </code>
              <CurlExample secret={created.secret} scope={created.scope} />
              <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                <Button onClick={() => void copyText(created.secret, 'Clé copiée')}>Copier la clé</Button>
                <Button variant="outline" onClick={() => setCreated(null)}>
                  J’ai copié la clé
                </Button>
              </div>
            </div>
          )}
          <PlanFeatureNote feature="api" />
          <form onSubmit={submit} noValidate className={css({ display: 'flex', gap: '4', alignItems: 'flex-end', flexWrap: 'wrap' })}>
            <TextField
              className={css({ flex: '1', minW: '220px' })}
              label="Nom de la clé"
              placeholder="Ex. : Synchronisation comptable"
              value={name}
              error={error}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
            />
            <RadioGroup
              label="Portée"
              options={API_KEY_SCOPES.map((s) => ({ value: s, label: API_KEY_SCOPE_LABELS[s] }))}
              value={scope}
              onChange={(value) => setScope(value as ApiKeyScope)}
            />
            <Checkbox checked={webhooks} onChange={setWebhooks}>
              Gère aussi les webhooks
            </Checkbox>
            <Button type="submit" loading={create.isPending} disabled={!included}>
              Créer la clé
            </Button>
          </form>
          <p className={styles.muted}>
            {API_KEY_SCOPE_LABELS.read} : {SCOPE_HINTS.read}. {API_KEY_SCOPE_LABELS.write} : {SCOPE_HINTS.write}. Portée « webhooks » : la
            clé ajoute, modifie, renvoie et rejoue aussi les webhooks (si vous-même le pouvez).
          </p>
          {keys.data && keys.data.data.length === 0 && <p className={styles.muted}>Aucune clé d’API pour l’instant.</p>}
          <ul>
            {keys.data?.data.map((key) => (
              <li key={key.id} className={styles.row} data-testid="api-key-row">
                <div>
                  <span className={styles.name}>{key.name}</span>
                  <span className={styles.badge}>{API_KEY_SCOPE_LABELS[key.scope]}</span>
                  {key.webhooks && <span className={styles.badge}>Webhooks</span>}
                  <div className={styles.muted}>
                    <span className={styles.prefix}>{key.prefix}…</span> · créée le {dateFr(key.created_at)} par {key.created_by}
                  </div>
                </div>
                <span className={styles.muted}>Dernière utilisation : {dateFr(key.last_used_at)}</span>
                <Button
                  variant="ghost"
                  size="sm"
                  className={css({ justifySelf: { base: 'start', md: 'end' } })}
                  onClick={async () => {
                    const ok = await confirm(
                      `Révoquer la clé « ${key.name} » ? Les logiciels qui l’utilisent perdront l’accès immédiatement.`,
                      { title: 'Révoquer la clé', confirmLabel: 'Révoquer' },
                    );
                    if (ok) revoke.mutate({ id: key.id });
                  }}
                >
                  Révoquer
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
