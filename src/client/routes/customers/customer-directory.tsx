import { css } from '../../../../styled-system/css';
import { sirenOfCustomer } from '../../../shared/einvoice-directory';
import { formatDateShort } from '../../../shared/format';
import type { CustomerRecord } from '../../../shared/schemas/customer';
import { errorInfo, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';

const STATUS_TEXT = {
  unknown: 'Non vérifié',
  listed: 'Inscrit',
  absent: 'Absent de l’annuaire : la plateforme ne pourra pas lui remettre de facture électronique',
} as const;

/**
 * The customer's line in the e-invoicing directory (annuaire): kept from the last lookup (at each save of a SIREN when a
 * platform is connected), looked up again on demand. Rows of the customer's description list.
 */
export function CustomerDirectory({ customer }: { customer: CustomerRecord }) {
  const utils = trpc.useUtils();
  const canCheck = useCan('customers.checkDirectory');
  const check = trpc.customers.checkDirectory.useMutation({
    meta: { silent: true },
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.customers.get.setData({ id: customer.id }, answer.data);
    },
    onError: (error) => {
      const { messages, status } = errorInfo(error);
      showMessage(messages, status);
    },
  });
  if (!sirenOfCustomer(customer)) return null;
  const status = customer.directory_status;
  return (
    <>
      <dt>Annuaire (facturation électronique)</dt>
      <dd data-testid="directory-status" className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' })}>
        <span className={css({ color: status === 'absent' ? 'danger' : status === 'listed' ? 'success' : 'fg.muted' })}>
          {STATUS_TEXT[status]}
        </span>
        {customer.directory_checked_at && (
          <span className={css({ color: 'fg.muted', fontWeight: '400' })}>
            {`(vérifié le ${formatDateShort(customer.directory_checked_at.slice(0, 10))})`}
          </span>
        )}
        {canCheck && (
          <Button size="sm" variant="ghost" loading={check.isPending} onClick={() => check.mutate({ id: customer.id })}>
            Vérifier dans l’annuaire
          </Button>
        )}
      </dd>
      {status === 'listed' && (
        <>
          <dt>Adresse électronique</dt>
          <dd>{customer.electronic_address}</dd>
          <dt>Code de routage</dt>
          <dd>{customer.routing_code || '—'}</dd>
        </>
      )}
    </>
  );
}
