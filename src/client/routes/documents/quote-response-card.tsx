import { useState } from 'react';
import { useLocation } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { asideCard } from './aside-card';
import { formatDateShort } from '../../../shared/format';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { useActionGuard } from '../../lib/use-action-guard';
import { Button } from '../../components/ui/button';
import { DepositDialog } from './deposit-dialog';
import { documentHref } from './document-meta';
import { parisDateOf } from '../../../shared/paris-date';

const styles = {
  card: cx(
    asideCard,
    css({
      borderLeftWidth: '4px',
      display: 'flex',
      flexDirection: 'column',
      gap: '2',
    }),
  ),
  accepted: css({ borderLeftColor: 'success' }),
  refused: css({ borderLeftColor: 'danger' }),
  title: css({ fontWeight: '600' }),
  muted: css({ color: 'fg.muted', fontSize: 'xs' }),
  actions: css({ display: 'flex', gap: '2', flexWrap: 'wrap' }),
};

const time = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
const when = (iso: string) => `le ${formatDateShort(parisDateOf(iso))} à ${time.format(new Date(iso))}`;

/**
 * An estimate's answer given by the customer on its public page (who, when, from where), beside the document; once
 * accepted and still live, the next step is offered: the invoice, or a deposit invoice first.
 */
export function QuoteResponseCard({ doc }: { doc: { id: number; type: string; number: string | null; stored_status: string } }) {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const [deposit, setDeposit] = useState(false);
  const response = trpc.documentMail.response.useQuery({ id: doc.id }, { enabled: doc.type === 'estimate' });
  const canAct = useCan('documents.convert');
  const convert = trpc.documents.convert.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages);
      void utils.documents.invalidate();
      navigate(documentHref(answer.data, 'edit'));
    },
  });
  const guard = useActionGuard();
  const answer = response.data?.data;
  if (!answer) return null;
  const accepted = answer.decision === 'accepted';
  return (
    <section className={`${styles.card} ${accepted ? styles.accepted : styles.refused}`} aria-label="Réponse du client">
      <p className={styles.title}>
        {accepted
          ? `Devis accepté en ligne par ${answer.name} ${when(answer.created_at)} — « Bon pour accord »`
          : `Devis refusé en ligne ${when(answer.created_at)}`}
      </p>
      {!accepted && <p>Motif : {answer.reason}</p>}
      <p className={styles.muted}>
        Adresse IP {answer.ip}
        {answer.user_agent ? ` · ${answer.user_agent}` : ''}
      </p>
      {accepted && doc.stored_status === 'accepted' && canAct && (
        <div className={styles.actions}>
          <Button
            size="sm"
            onClick={() => void guard(() => convert.mutateAsync({ id: doc.id, type: 'invoice' }))}
            loading={convert.isPending}
          >
            Convertir en facture
          </Button>
          <Button size="sm" variant="outline" onClick={() => setDeposit(true)}>
            Facturer un acompte
          </Button>
        </div>
      )}
      <DepositDialog open={deposit} source={doc} onClose={() => setDeposit(false)} />
    </section>
  );
}
