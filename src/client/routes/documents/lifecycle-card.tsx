import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { asideCard } from './aside-card';
import { LIFECYCLE_SOURCES, lifecycleConflict, lifecycleState } from '../../../shared/einvoice-lifecycle';
import { formatDateShort } from '../../../shared/format';
import type { LifecycleEntry } from '../../../shared/schemas/einvoice-lifecycle';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { parisDateOf } from '../../../shared/paris-date';
import { TransmissionStatus } from './transmission-status';

const styles = {
  card: asideCard,
  head: css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' }),
  title: css({ fontWeight: '700', fontSize: 'sm' }),
  muted: css({ color: 'fg.muted' }),
  list: css({ listStyle: 'none', m: '0', p: '0', mt: '2', display: 'grid', gap: '1.5' }),
  entry: css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'baseline' }),
  date: css({ fontVariantNumeric: 'tabular-nums', color: 'fg.muted', minW: '20' }),
  label: css({ fontWeight: '600' }),
  problem: css({ color: 'danger' }),
  form: css({ display: 'flex', gap: '2', alignItems: 'flex-end', flexWrap: 'wrap', mt: '3' }),
};

const PROBLEMS = new Set(['rejected', 'refused', 'disputed', 'cash_withdrawn']);

function Entry({ entry }: { entry: LifecycleEntry }) {
  return (
    <li className={styles.entry}>
      <span className={styles.date}>{formatDateShort(entry.date)}</span>
      <span className={`${styles.label} ${PROBLEMS.has(entry.status) ? styles.problem : ''}`}>{entry.label}</span>
      <span className={styles.muted}>{LIFECYCLE_SOURCES[entry.source]}</span>
      {entry.reason && <span>Motif : {entry.reason}</span>}
    </li>
  );
}

/**
 * The e-invoicing lifecycle of an issued invoice or credit note, beside the document like its balance:
 * the statuses the platform reported or the user declared, the transmission (by the folder, or the platform's API with
 * its acknowledgement), and the two things one does from here — deposit it on the platform, declare the customer's
 * refusal.
 */
export function LifecycleCard({ documentId, type }: { documentId: number; type: 'invoice' | 'credit' }) {
  const utils = trpc.useUtils();
  const lifecycle = trpc.einvoice.lifecycle.useQuery(
    { id: documentId },
    {
      // While the platform's answer is awaited, the card follows it.
      refetchInterval: (query) => {
        const state = query.state.data?.transmission?.state;
        return state === 'pending' || state === 'submitted' ? 15_000 : false;
      },
    },
  );
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.einvoice.lifecycle.invalidate({ id: documentId });
  };
  const send = trpc.einvoice.send.useMutation({ onSuccess: done });
  const mayDeposit = useCan('einvoice.send');
  const mayRecord = useCan('einvoice.recordStatus');
  const refuse = trpc.einvoice.recordStatus.useMutation({
    onSuccess: (answer) => {
      setRefusing(false);
      setReason('');
      done(answer);
    },
  });
  if (!lifecycle.data) return null;
  const { data: entries, submission, transmission } = lifecycle.data;
  // Only what the shared rules allow is offered (the server applies the same ones).
  const state = lifecycleState(entries);
  const canSend = mayDeposit && !submission && !transmission && lifecycleConflict(state, 'deposited', type) === null;
  const canRefuse = mayRecord && lifecycleConflict(state, 'refused', type) === null;

  return (
    <section aria-label="Cycle de vie" data-testid="lifecycle-card" data-print-hidden className={styles.card}>
      <div className={styles.head}>
        <h2 className={styles.title}>Cycle de vie (facture électronique)</h2>
        {(canSend || canRefuse) && (
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            {canSend && (
              <Button size="sm" variant="outline" loading={send.isPending} onClick={() => send.mutate({ id: documentId })}>
                Déposer sur la plateforme
              </Button>
            )}
            {canRefuse && (
              <Button size="sm" variant="ghost" onClick={() => setRefusing((v) => !v)}>
                Déclarer un refus du client
              </Button>
            )}
          </div>
        )}
      </div>
      {submission && (
        <p className={css({ mt: '1' })}>
          Transmise à la plateforme ({submission.platform}) le {formatDateShort(parisDateOf(submission.sent_at))}, réf.{' '}
          <code>{submission.reference}</code>
        </p>
      )}
      {transmission && <TransmissionStatus documentId={documentId} transmission={transmission} />}
      {entries.length === 0 ? (
        <p className={`${styles.muted} ${css({ mt: '1' })}`}>Aucun statut pour l’instant.</p>
      ) : (
        <ol className={styles.list}>
          {entries.map((e) => (
            <Entry key={e.id} entry={e} />
          ))}
        </ol>
      )}
      {refusing && (
        <form
          className={styles.form}
          onSubmit={(event) => {
            event.preventDefault();
            refuse.mutate({ id: documentId, data: { status: 'refused', reason } });
          }}
        >
          <TextField
            label="Motif du refus"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            className={css({ flex: '1', minW: '60' })}
          />
          <Button type="submit" size="md" loading={refuse.isPending}>
            Enregistrer le refus
          </Button>
        </form>
      )}
    </section>
  );
}
