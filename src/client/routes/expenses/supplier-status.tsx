import { useState } from 'react';
import { css, cx } from '../../../../styled-system/css';
import {
  BUYER_STATUS_KEYS,
  BUYER_STATUSES,
  type BuyerStatus,
  buyerStatusConflict,
  REASONS_OF,
  STATUS_REASONS,
} from '../../../shared/einvoice-status-reasons';
import type { ExpenseRecord } from '../../../shared/schemas/expense';
import { errorInfo, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Select } from '../../components/ui/select';

const styles = {
  box: css({ display: 'grid', gap: '2', fontSize: 'sm' }),
  list: css({ listStyle: 'none', m: '0', p: '0', display: 'grid', gap: '1' }),
  row: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'baseline' }),
  label: css({ fontWeight: '600' }),
  muted: css({ color: 'fg.muted' }),
  problem: css({ color: 'danger', fontWeight: '600' }),
  actions: css({ display: 'flex', gap: '2', flexWrap: 'wrap' }),
  text: css({ fontSize: 'sm', color: 'fg.muted', lineHeight: '1.5' }),
};

/** What each decision tells the supplier, in the confirmation. */
const CONSEQUENCES: Record<BuyerStatus, string> = {
  approved: 'Le fournisseur sera informé, par votre plateforme agréée, que vous acceptez cette facture. Ce choix est définitif.',
  disputed:
    'Le fournisseur sera informé que vous contestez cette facture, avec le motif choisi. Vous pourrez ensuite l’approuver ou la refuser.',
  refused:
    'Le fournisseur sera informé que vous refusez cette facture, avec le motif choisi. Ce choix est définitif : il devra émettre un avoir.',
};

function ConfirmStatus({
  expense,
  status,
  onClose,
}: {
  expense: Pick<ExpenseRecord, 'id' | 'invoice_number' | 'supplier'>;
  status: BuyerStatus | null;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = trpc.expenses.sendStatus.useMutation({
    meta: { silent: true },
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.expenses.lifecycle.setData({ id: expense.id }, answer.data);
      close();
    },
    onError: (e) => setError([errorInfo(e).messages].flat().join(' ')),
  });
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const needsReason = status !== null && status !== 'approved';
  const options = needsReason ? REASONS_OF[status].map((code) => ({ value: code, label: STATUS_REASONS[code] })) : [];
  const verb = status ? BUYER_STATUSES[status].verb : '';
  return (
    <Dialog
      open={status !== null}
      onClose={close}
      title={`${verb} la facture ${expense.invoice_number} ?`}
      width={440}
      role="alertdialog"
      footer={
        <>
          <Button variant="ghost" onClick={close}>
            Annuler
          </Button>
          <Button
            variant={status === 'refused' ? 'danger' : 'solid'}
            disabled={needsReason && !reason}
            loading={send.isPending}
            onClick={() => status && send.mutate({ id: expense.id, data: { status, reason: needsReason ? reason : undefined } })}
          >
            {verb}
          </Button>
        </>
      }
    >
      <div className={styles.box}>
        <p className={styles.text}>
          Facture de « {expense.supplier} ». {status ? CONSEQUENCES[status] : ''}
        </p>
        {needsReason && (
          <Field label="Motif" required>
            <Select value={reason} onChange={setReason} options={options} placeholder="Choisissez le motif" />
          </Field>
        )}
        {error && (
          <p role="alert" className={styles.problem}>
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}

/**
 * The buyer's word on a supplier invoice received from the platform: what was sent (and where its message stands),
 * and « Approuver », « Contester », « Refuser » while the invoice is not settled, each confirmed first.
 */
export function SupplierStatus({ expense }: { expense: Pick<ExpenseRecord, 'id' | 'invoice_number' | 'supplier'> }) {
  const mayDecide = useCan('expenses.sendStatus');
  const lifecycle = trpc.expenses.lifecycle.useQuery({ id: expense.id });
  const [asking, setAsking] = useState<BuyerStatus | null>(null);
  if (!lifecycle.data?.available) return null;
  const { statuses } = lifecycle.data;
  const sent = statuses.map((s) => s.status);
  const possible = BUYER_STATUS_KEYS.filter((status) => buyerStatusConflict(sent, status) === null);
  return (
    <div className={styles.box} data-testid="supplier-status">
      {statuses.length === 0 ? (
        <p className={styles.muted}>Aucun statut transmis au fournisseur pour l’instant.</p>
      ) : (
        <ul className={styles.list} aria-label="Statuts transmis au fournisseur">
          {statuses.map((s) => (
            <li key={s.code} className={styles.row}>
              <span className={styles.label}>{s.label}</span>
              {s.reason_label && <span>— {s.reason_label}</span>}
              <span className={cx(s.state === 'error' || s.state === 'to_resend' ? styles.problem : styles.muted)}>
                {s.state_label}
                {s.error ? ` : ${s.error}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {mayDecide && possible.length > 0 && (
        <div className={styles.actions}>
          {possible.map((status) => (
            <Button key={status} variant={status === 'refused' ? 'danger' : 'outline'} size="sm" onClick={() => setAsking(status)}>
              {BUYER_STATUSES[status].verb}
            </Button>
          ))}
        </div>
      )}
      <ConfirmStatus expense={expense} status={asking} onClose={() => setAsking(null)} />
    </div>
  );
}
