import { useState, type FormEvent } from 'react';
import { css } from '../../../../../styled-system/css';
import { settingsListStyles } from '../settings-list-styles';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_LOG_RETENTION_DAYS,
  webhookReplayInputSchema,
  type WebhookDelivery,
  type WebhookEventType,
} from '../../../../shared/schemas/webhook';
import { firstMessage } from '../../../../shared/validation-messages';
import { trpc } from '../../../trpc';
import { showMessage } from '../../../stores/snackbar';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';

const styles = {
  ...settingsListStyles,
  item: css({ py: '3', borderTopWidth: '1px', borderColor: 'border.default', _first: { borderTopWidth: '0' } }),
  head: css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' }),
  resend: css({ ml: 'auto' }),
  replay: css({
    display: 'grid',
    gridTemplateColumns: { base: '1fr', sm: '1fr 1fr auto' },
    gap: '2',
    alignItems: 'end',
    p: '3',
    my: '3',
    bg: 'bg.subtle',
    borderRadius: 'md',
  }),
  replayTitle: css({ gridColumn: '1 / -1', fontWeight: '600', fontSize: 'sm' }),
  error: css({ gridColumn: '1 / -1', color: 'danger', fontSize: 'sm' }),
  body: css({
    mt: '2',
    p: '2',
    bg: 'bg.subtle',
    borderRadius: 'md',
    fontFamily: 'mono',
    fontSize: 'xs',
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-all',
    maxH: '40',
    overflowY: 'auto',
  }),
};

const STATUS: Record<WebhookDelivery['status'], { label: string; className: string }> = {
  delivered: { label: 'Réussi', className: css({ color: 'success', fontWeight: '700', fontSize: 'xs' }) },
  pending: { label: 'Nouvel essai prévu', className: css({ color: 'warning', fontWeight: '700', fontSize: 'xs' }) },
  failed: { label: 'Échec', className: css({ color: 'danger', fontWeight: '700', fontSize: 'xs' }) },
};

export const dateTimeFr = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('fr-FR', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : '—';

const eventLabel = (type: string) => WEBHOOK_EVENT_LABELS[type as WebhookEventType] ?? (type === 'ping' ? 'Test (ping)' : type);

/** Today and a week ago as `AAAA-MM-JJ`, the replay form's first range. */
const dayIso = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * « Renvoyer une période »: every event of the endpoint between two days (the end day included) sent again, in
 * sequence order, as new deliveries.
 */
function ReplayForm({ endpointId, onDone }: { endpointId: number; onDone: () => void }) {
  const [from, setFrom] = useState(dayIso(-7));
  const [to, setTo] = useState(dayIso(0));
  const [error, setError] = useState<string>();
  const replay = trpc.webhooks.replay.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      onDone();
    },
    onError: (e) => setError(e.message),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    // The end day is included: the range sent ends at the next midnight.
    const end = to ? new Date(Date.parse(to) + 86_400_000).toISOString().slice(0, 10) : '';
    const result = webhookReplayInputSchema.safeParse({ from, to: end });
    setError(result.success ? undefined : firstMessage(result.error.issues));
    if (result.success) replay.mutate({ id: endpointId, range: { from, to: end } });
  }
  return (
    <form className={styles.replay} onSubmit={submit} noValidate aria-label="Renvoyer une période">
      <span className={styles.replayTitle}>Renvoyer tous les événements d’une période</span>
      <TextField label="Du" type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
      <TextField label="Au (inclus)" type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
      <Button type="submit" variant="outline" loading={replay.isPending}>
        Renvoyer la période
      </Button>
      {error && (
        <span className={styles.error} role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/**
 * The endpoint's latest deliveries with what the receiver answered: status, time, the first kilobyte of its body;
 * « Renvoyer » on each, and the replay of a period.
 */
export function WebhookDeliveriesDialog({ endpoint, onClose }: { endpoint: { id: number; url: string } | null; onClose: () => void }) {
  const utils = trpc.useUtils();
  const deliveries = trpc.webhooks.deliveries.useQuery({ id: endpoint?.id ?? 0 }, { enabled: endpoint !== null });
  const refresh = () => void utils.webhooks.invalidate();
  const resend = trpc.webhooks.resend.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, answer.data.status === 'failed' ? 400 : 200);
      refresh();
    },
    onError: (e) => showMessage(e.message, 400),
  });
  return (
    <Dialog open={endpoint !== null} onClose={onClose} title="Journal des envois" placement="right" width={600}>
      <p className={styles.muted}>{endpoint?.url}</p>
      <p className={styles.muted}>
        Le journal garde les envois {WEBHOOK_LOG_RETENTION_DAYS} jours. Un renvoi est un nouvel envoi (nouvel identifiant
        Facturier-Delivery) du même événement : même id, même numéro de séquence.
      </p>
      {endpoint && <ReplayForm endpointId={endpoint.id} onDone={refresh} />}
      {deliveries.data?.data.length === 0 && <p className={css({ py: '6', color: 'fg.muted' })}>Aucun envoi pour l’instant.</p>}
      <ul>
        {deliveries.data?.data.map((d) => (
          <li key={d.id} className={styles.item} data-testid="delivery-row">
            <div className={styles.head}>
              <span className={styles.name}>{eventLabel(d.type)}</span>
              {d.sequence !== null && <span className={styles.muted}>n° {d.sequence}</span>}
              <span className={STATUS[d.status].className}>
                {d.status === 'pending' && d.attempts === 0 ? 'En attente d’envoi' : STATUS[d.status].label}
              </span>
              {endpoint && d.type !== 'ping' && (
                <Button
                  className={styles.resend}
                  variant="ghost"
                  size="sm"
                  loading={resend.isPending && resend.variables?.delivery_id === d.id}
                  onClick={() => resend.mutate({ id: endpoint.id, delivery_id: d.id })}
                >
                  Renvoyer
                </Button>
              )}
            </div>
            <div className={styles.muted}>
              {dateTimeFr(d.last_attempt_at ?? d.created_at)} · {d.response_status ? `HTTP ${d.response_status}` : 'pas de réponse'}
              {d.response_ms !== null && ` · ${d.response_ms} ms`} · {d.attempts} essai{d.attempts > 1 ? 's' : ''}
              {d.next_attempt_at && ` · prochain essai ${dateTimeFr(d.next_attempt_at)}`}
            </div>
            {d.error && <div className={css({ color: 'danger', fontSize: 'sm' })}>{d.error}</div>}
            {d.response_body && <pre className={styles.body}>{d.response_body}</pre>}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
