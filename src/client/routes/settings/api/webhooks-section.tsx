import { useState, type FormEvent } from 'react';
import { css, cx } from '../../../../../styled-system/css';
import { settingsListStyles } from '../settings-list-styles';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_DISABLE_AFTER_DAYS,
  webhookInputSchema,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../../../shared/schemas/webhook';
import { firstMessage } from '../../../../shared/validation-messages';
import { trpc } from '../../../trpc';
import { useCan } from '../../../lib/use-can';
import { useActionGuard } from '../../../lib/use-action-guard';
import { confirm } from '../../../stores/confirm';
import { showMessage } from '../../../stores/snackbar';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { settingsCard, settingsSection } from '../settings-frame';
import { PlanFeatureNote, usePlanIncludes } from '../../subscription/plan-feature';
import { dateTimeFr, WebhookDeliveriesDialog } from './webhook-deliveries-dialog';

const styles = {
  ...settingsListStyles,
  row: cx(settingsListStyles.row, css({ gridTemplateColumns: { base: '1fr', md: '1fr auto' } })),
  url: css({ fontFamily: 'mono', fontSize: 'sm', fontWeight: '600', wordBreak: 'break-all' }),
  off: css({ fontSize: 'xs', fontWeight: '700', color: 'fg.muted', bg: 'bg.subtle', borderRadius: 'full', px: '2', py: '0.5', ml: '2' }),
  notice: css({ mt: '2', p: '2', borderRadius: 'md', bg: 'dangerSubtle', color: 'danger', fontSize: 'sm' }),
  actions: css({ display: 'flex', gap: '1', justifyContent: 'flex-end', flexWrap: 'wrap' }),
  events: css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' }, gap: '2', my: '3' }),
  secret: css({ fontFamily: 'mono', fontSize: 'sm', p: '3', bg: 'bg.subtle', borderRadius: 'md', wordBreak: 'break-all', my: '3' }),
  error: css({ color: 'danger', fontSize: 'sm' }),
};

const lastDelivery = (w: WebhookEndpoint) => {
  const last = w.last_delivery;
  if (!last) return 'Aucun envoi pour l’instant';
  // Kept while the endpoint was off, or just replayed: not tried yet, so not a failure.
  if (last.status === 'pending' && last.at === null) return 'Dernier événement en attente d’envoi';
  const answer = last.response_status ? ` (HTTP ${last.response_status})` : '';
  const outcome = last.status === 'delivered' ? 'réussi' : last.status === 'pending' ? 'en échec, nouvel essai prévu' : 'en échec';
  return `Dernier envoi ${outcome}${answer} le ${dateTimeFr(last.at)}`;
};

/**
 * Paramètres → API, Webhooks: where the organisation's events are sent, signed with a secret shown
 * once at creation; the delivery log, a test ping, and the notice of an endpoint turned off by repeated failures.
 * Owners and admins only (the server refuses the others: `manage`).
 */
export function WebhooksSection() {
  const included = usePlanIncludes('webhooks');
  const canManage = useCan('webhooks.create');
  const utils = trpc.useUtils();
  const hooks = trpc.webhooks.list.useQuery(undefined, { enabled: canManage });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [error, setError] = useState<string>();
  const [secret, setSecret] = useState<string | null>(null);
  const [journal, setJournal] = useState<WebhookEndpoint | null>(null);
  const guard = useActionGuard();
  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.webhooks.invalidate();
  };
  const create = trpc.webhooks.create.useMutation({
    onSuccess: (answer) => {
      done(answer);
      setSecret(answer.data.secret);
      setUrl('');
      setEvents([]);
    },
    onError: (e) => setError(e.message),
  });
  const update = trpc.webhooks.update.useMutation({ onSuccess: done });
  const remove = trpc.webhooks.delete.useMutation({ onSuccess: done });
  const test = trpc.webhooks.test.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, answer.data.status === 'delivered' ? 200 : 400);
      void utils.webhooks.invalidate();
    },
  });
  if (!canManage) return null;

  function submit(event: FormEvent) {
    event.preventDefault();
    const result = webhookInputSchema.safeParse({ url, events });
    setError(result.success ? undefined : firstMessage(result.error.issues));
    if (result.success) void guard(() => create.mutateAsync(result.data));
  }
  const toggle = (w: WebhookEndpoint) => update.mutate({ id: w.id, data: { url: w.url, events: w.events, enabled: !w.enabled } });

  return (
    <section className={settingsCard} aria-label="Webhooks">
      <p className={settingsSection}>Webhooks</p>
      <p className={styles.muted}>
        À chaque événement choisi, Facturier envoie une requête POST en JSON à votre adresse, signée avec le secret du webhook (en-tête
        Facturier-Signature : HMAC-SHA256 de « horodatage.corps »). En cas d’échec, chaque envoi est réessayé après 1 min, 5 min, 30 min, 2
        h, 12 h, puis toutes les 12 h pendant {WEBHOOK_DISABLE_AFTER_DAYS} jours. L’ordre d’arrivée n’est pas garanti : chaque événement
        porte un numéro de séquence propre au webhook (champ sequence) pour les remettre dans l’ordre.
      </p>
      {hooks.data?.data.length === 0 && (
        <p className={cx(styles.muted, css({ mt: '3' }))}>Aucun webhook : ajoutez l’adresse d’un logiciel qui doit être prévenu.</p>
      )}
      <ul>
        {hooks.data?.data.map((w) => (
          <li key={w.id} className={styles.row} data-testid="webhook-row">
            <div>
              <span className={styles.url}>{w.url}</span>
              {!w.enabled && <span className={styles.off}>Désactivé</span>}
              <div className={styles.muted}>{w.events.map((e) => WEBHOOK_EVENT_LABELS[e]).join(' · ')}</div>
              <div className={styles.muted}>
                {lastDelivery(w)} · secret {w.secret_hint}
              </div>
              {w.enabled && w.failing_since && (
                <p className={styles.notice} role="status">
                  En échec depuis le {dateTimeFr(w.failing_since)} : les envois sont réessayés ; sans réponse correcte pendant{' '}
                  {WEBHOOK_DISABLE_AFTER_DAYS} jours, le webhook sera désactivé et les propriétaires prévenus par e-mail.
                </p>
              )}
              {w.disabled_at && !w.enabled && (
                <p className={styles.notice} role="status">
                  Désactivé automatiquement le {dateTimeFr(w.disabled_at)} : tous les envois ont échoué pendant {WEBHOOK_DISABLE_AFTER_DAYS}{' '}
                  jours. Les événements survenus depuis sont conservés et partiront à la réactivation : vérifiez l’adresse et le journal,
                  envoyez un test, puis réactivez-le.
                </p>
              )}
            </div>
            <div className={styles.actions}>
              <Button
                variant="ghost"
                size="sm"
                loading={test.isPending && test.variables?.id === w.id}
                onClick={() => test.mutate({ id: w.id })}
              >
                Tester
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setJournal(w)}>
                Journal
              </Button>
              <Button variant="ghost" size="sm" onClick={() => toggle(w)}>
                {w.enabled ? 'Désactiver' : 'Réactiver'}
              </Button>
              <Button
                variant="ghost"
                size="sm"
                onClick={async () => {
                  const question = `Supprimer le webhook ${w.url} et son journal ?`;
                  if (await confirm(question, { title: 'Supprimer', confirmLabel: 'Supprimer', width: 420 })) remove.mutate({ id: w.id });
                }}
              >
                Supprimer
              </Button>
            </div>
          </li>
        ))}
      </ul>

      <form onSubmit={submit} noValidate className={css({ mt: '4', pt: '4', borderTopWidth: '1px', borderColor: 'border.default' })}>
        <p className={cx(styles.name, css({ mb: '3' }))}>Ajouter un webhook</p>
        <PlanFeatureNote feature="webhooks" />
        <TextField
          label="URL"
          type="url"
          placeholder="https://exemple.fr/webhooks/facturier"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <fieldset className={styles.events}>
          <legend className={cx(styles.name, css({ mb: '2', mt: '3' }))}>Événements</legend>
          {WEBHOOK_EVENTS.map((e) => (
            <Checkbox
              key={e}
              checked={events.includes(e)}
              onChange={(on) => setEvents(on ? [...events, e] : events.filter((x) => x !== e))}
            >
              {WEBHOOK_EVENT_LABELS[e]} <span className={styles.muted}>({e})</span>
            </Checkbox>
          ))}
        </fieldset>
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <Button type="submit" loading={create.isPending} disabled={!included} className={css({ mt: '2' })}>
          Ajouter le webhook
        </Button>
      </form>

      <Dialog
        open={secret !== null}
        onClose={() => setSecret(null)}
        title="Secret de signature"
        persistent
        width={520}
        footer={
          <>
            <Button
              variant="outline"
              onClick={() => void navigator.clipboard?.writeText(secret ?? '').then(() => showMessage('Secret copié', 200))}
            >
              Copier
            </Button>
            <Button onClick={() => setSecret(null)}>J’ai noté le secret</Button>
          </>
        }
      >
        <p>Copiez-le maintenant : il ne sera plus affiché. Votre serveur s’en sert pour vérifier que chaque envoi vient de Facturier.</p>
        <p className={styles.secret} data-testid="webhook-secret">
          {secret}
        </p>
      </Dialog>
      <WebhookDeliveriesDialog endpoint={journal} onClose={() => setJournal(null)} />
    </section>
  );
}
