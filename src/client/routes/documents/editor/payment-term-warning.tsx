import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { longPaymentTermWarning } from '../../../../shared/payment-terms';
import { editor } from '../../../stores/document-editor';
import { trpc } from '../../../trpc';
import { addDays } from './form-state';

const box = css({
  fontSize: 'sm',
  color: 'fg.default',
  bg: 'warningSubtle',
  borderWidth: '1px',
  borderColor: 'warning',
  borderRadius: 'lg',
  px: '3',
  py: '2',
});

/**
 * C. com. L441-10: an invoice to a business due more than 60 days after its date is said here while it is typed;
 * issuing it will ask for a confirmation. Individuals are not concerned.
 */
export function PaymentTermWarning({ paymentDays }: { paymentDays: number }) {
  const snap = useSnapshot(editor, { sync: true });
  const form = snap.form;
  const customerId = form?.customer_id ?? 0;
  const customer = trpc.customers.get.useQuery(
    { id: customerId },
    { enabled: customerId > 0, staleTime: 60_000, retry: false, meta: { silent: true } },
  );
  if (!form) return null;
  const warning = longPaymentTermWarning({
    date: form.date,
    maturity: form.maturity || addDays(form.date, paymentDays),
    customerType: customer.data?.type,
  });
  if (!warning) return null;
  return (
    <p className={box} role="status" data-testid="payment-term-warning">
      {warning}. L’émission demandera votre confirmation.
    </p>
  );
}
