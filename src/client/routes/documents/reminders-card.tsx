import { css, cx } from '../../../../styled-system/css';
import { REMINDER_STATUSES, offsetLabel } from '../../../shared/reminders';
import { trpc } from '../../trpc';
import { asideCard } from './aside-card';

const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Paris' });

const styles = {
  card: cx(asideCard, css({ display: 'flex', flexDirection: 'column', gap: '1' })),
  title: css({ fontWeight: '600' }),
  muted: css({ color: 'fg.muted' }),
  failed: css({ color: 'danger' }),
};

/** The payment reminders of an invoice, beside it; nothing while none was sent or tried. */
export function RemindersCard({ documentId }: { documentId: number }) {
  const reminders = trpc.reminders.ofDocument.useQuery({ id: documentId });
  const rows = reminders.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-label="Relances" data-testid="reminders-card" data-print-hidden className={styles.card}>
      <span className={styles.title}>Relances</span>
      {rows.map((r) => (
        <div key={r.id}>
          {offsetLabel(r.step)} —{' '}
          <span className={r.status === 'failed' ? styles.failed : undefined}>
            {REMINDER_STATUSES[r.status]}
            {r.sent_at ? ` le ${dateTime.format(new Date(r.sent_at))}` : ''}
          </span>{' '}
          <span className={styles.muted}>
            {r.status === 'failed' ? `(${r.error})` : `à ${r.recipients}${r.trigger === 'automatic' ? ', automatique' : ''}`}
          </span>
        </div>
      ))}
    </section>
  );
}
