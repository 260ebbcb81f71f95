import { useState, type FormEvent } from 'react';
import { css, cx } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import type { AppSettings } from '../../../shared/schemas/settings';
import type { CreditSettlement } from '../../../shared/schemas/payment';
import { PAYMENT_METHODS, type PaymentMethod } from '../../../shared/status';
import { errorInfo, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { formattersOf } from '../../render/labels';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { Field } from '../../components/ui/field';
import { AmountInput } from '../../components/ui/amount-input';
import { Select } from '../../components/ui/select';
import { asideCard } from './aside-card';
import { today } from './editor/form-state';

const styles = {
  card: cx(asideCard, css({ display: 'flex', flexDirection: 'column', gap: '3' })),
  rows: css({ display: 'flex', gap: '6', flexWrap: 'wrap' }),
  term: css({ color: 'fg.muted' }),
  value: css({ fontWeight: '600', fontVariantNumeric: 'tabular-nums' }),
  form: css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-end' }),
};

const methodOptions = Object.entries(PAYMENT_METHODS).map(([value, label]) => ({ value, label }));

/**
 * Where an issued credit note went, beside it like an invoice's balance: the invoices it was set against, its refunds,
 * the credit still available — and the refund of what is left, by the method and on the day it was paid back.
 */
export function CreditSettlementCard({
  documentId,
  currency,
  settlement,
  settings,
}: {
  documentId: number;
  currency: string;
  settlement: CreditSettlement;
  settings: AppSettings;
}) {
  const utils = trpc.useUtils();
  const mayRefund = useCan('documents.refundCredit');
  const [draft, setDraft] = useState({ date: today(), amount: '', method: 'transfer' as PaymentMethod });
  const refund = trpc.documents.refundCredit.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      setDraft((d) => ({ ...d, amount: '' }));
      void utils.documents.get.invalidate({ id: documentId });
    },
    onError: (failure) => showMessage(errorInfo(failure).messages, 409),
  });
  const f = formattersOf(settings, currency);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    refund.mutate({ id: documentId, data: { date: draft.date, method: draft.method, ...(draft.amount ? { amount: draft.amount } : {}) } });
  };
  return (
    <section aria-label="Imputation de l’avoir" data-testid="credit-settlement" data-print-hidden className={styles.card}>
      <div className={styles.rows}>
        {settlement.applied.map((a) => (
          <div key={`applied-${a.invoice_id}`}>
            <span className={styles.term}>Imputé sur la facture {a.number}&nbsp;: </span>
            <span className={styles.value}>{f.money(a.amount)}</span>
          </div>
        ))}
        {settlement.refunds.map((r) => (
          <div key={`refund-${r.date}-${r.method}-${r.amount}`}>
            <span className={styles.term}>
              Remboursé le {formatDateShort(r.date)} ({PAYMENT_METHODS[r.method as PaymentMethod] ?? r.method})&nbsp;:{' '}
            </span>
            <span className={styles.value}>{f.money(r.amount)}</span>
          </div>
        ))}
        <div>
          <span className={styles.term}>Crédit disponible&nbsp;: </span>
          <span className={styles.value}>{f.money(settlement.available)}</span>
        </div>
      </div>
      {mayRefund && settlement.available > 0 && (
        <form onSubmit={submit} noValidate className={styles.form}>
          <TextField
            label="Date du remboursement"
            type="date"
            value={draft.date}
            max={today()}
            onChange={(e) => setDraft({ ...draft, date: e.target.value })}
          />
          <Field label="Montant">
            <AmountInput
              value={draft.amount}
              placeholder={String(settlement.available).replace('.', ',')}
              onChange={(amount) => setDraft((d) => ({ ...d, amount }))}
            />
          </Field>
          <Field label="Moyen">
            <Select
              value={draft.method}
              options={methodOptions}
              onChange={(method) => setDraft((d) => ({ ...d, method: method as PaymentMethod }))}
            />
          </Field>
          <Button type="submit" loading={refund.isPending}>
            Rembourser
          </Button>
        </form>
      )}
    </section>
  );
}
