import { css } from '../../../../../styled-system/css';
import { settingsListStyles } from '../settings-list-styles';
import { WEBHOOK_EVENT_LABELS, type WebhookDelivery, type WebhookEventType } from '../../../../shared/schemas/webhook';
import { trpc } from '../../../trpc';
import { Dialog } from '../../../components/ui/dialog';

const styles = {
  ...settingsListStyles,
  item: css({ py: '3', borderTopWidth: '1px', borderColor: 'border.default', _first: { borderTopWidth: '0' } }),
  head: css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' }),
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

/** The endpoint's latest deliveries with what the receiver answered: status, time, the first kilobyte of its body. */
export function WebhookDeliveriesDialog({ endpoint, onClose }: { endpoint: { id: number; url: string } | null; onClose: () => void }) {
  const deliveries = trpc.webhooks.deliveries.useQuery({ id: endpoint?.id ?? 0 }, { enabled: endpoint !== null });
  return (
    <Dialog open={endpoint !== null} onClose={onClose} title="Journal des envois" placement="right" width={560}>
      <p className={styles.muted}>{endpoint?.url}</p>
      {deliveries.data?.data.length === 0 && <p className={css({ py: '6', color: 'fg.muted' })}>Aucun envoi pour l’instant.</p>}
      <ul>
        {deliveries.data?.data.map((d) => (
          <li key={d.id} className={styles.item} data-testid="delivery-row">
            <div className={styles.head}>
              <span className={styles.name}>{eventLabel(d.type)}</span>
              <span className={STATUS[d.status].className}>{STATUS[d.status].label}</span>
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
