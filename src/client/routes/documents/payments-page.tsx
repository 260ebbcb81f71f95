import { useState, type FormEvent } from 'react';
import { useParams } from 'wouter';
import { css } from '../../../../styled-system/css';
import { futurePaymentProblem, paymentInputSchema } from '../../../shared/schemas/payment';
import { PAYMENT_METHODS, type PaymentMethod } from '../../../shared/status';
import { PAYABLE_STATUSES, type StoredStatus } from '../../../shared/document-status';
import { formatDateShort, formatMoney } from '../../../shared/format';
import { errorInfo, trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { confirm } from '../../stores/confirm';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { Field } from '../../components/ui/field';
import { AmountInput } from '../../components/ui/amount-input';
import { Select } from '../../components/ui/select';
import { listStyles } from '../../components/ui/list';
import { ResponsiveList } from '../../components/ui/responsive-list';
import { Spinner } from '../../components/ui/spinner';
import { DocumentTabs } from './document-tabs';
import { StatusChip } from './status-chip';
import { today } from './editor/form-state';

const METHODS = Object.entries(PAYMENT_METHODS).map(([value, label]) => ({ value, label }));

type Draft = { id?: number; date: string; amount: string; method: PaymentMethod; reference: string; note: string };
const blank = (amount = ''): Draft => ({ date: today(), amount, method: 'transfer', reference: '', note: '' });

const styles = {
  layout: css({
    display: 'grid',
    gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 360px' },
    gap: '4',
    alignItems: 'start',
  }),
  card: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: { base: '4', md: '5' },
    display: 'flex',
    flexDirection: 'column',
    gap: '3',
    minW: '0',
  }),
  state: css({ fontSize: 'sm', color: 'fg.muted', whiteSpace: 'nowrap' }),
  summary: css({
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(110px, 1fr))',
    gap: '3',
    '& dt': { fontSize: 'xs', color: 'fg.muted', fontWeight: '700', textTransform: 'uppercase' },
    '& dd': { fontSize: 'lg', fontWeight: '700', fontVariantNumeric: 'tabular-nums' },
  }),
};

/** {base}/{id}/payments: the invoice's payments (methods), what was paid and what is left. */
export function PaymentsPage() {
  const params = useParams<{ id: string }>();
  const id = Number(params.id);
  const utils = trpc.useUtils();
  const doc = trpc.documents.get.useQuery({ id });
  const payments = trpc.documents.payments.useQuery({ id });
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 60_000 });
  const [draft, setDraft] = useState<Draft>(blank());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refresh = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.documents.invalidate();
    void utils.figures.invalidate();
    setDraft(blank());
    setErrors({});
  };
  // What the server refuses (more than what is left, too many decimals, a date to come) is said beside its field too.
  const amountError = (error: unknown) => {
    const { messages, status } = errorInfo(error);
    const text = Array.isArray(messages) ? messages.join(' ') : messages;
    if (status === 400 || status === 409) setErrors((e) => ({ ...e, [text.startsWith('Date du paiement') ? 'date' : 'amount']: text }));
  };
  const record = trpc.documents.recordPayment.useMutation({ onSuccess: refresh, onError: amountError });
  const update = trpc.documents.updatePayment.useMutation({ onSuccess: refresh, onError: amountError });
  const remove = trpc.documents.deletePayment.useMutation({ onSuccess: refresh });
  // An accountant reads the payments; recording or cancelling one is for a role that may write.
  const canPay = useCan('documents.recordPayment');
  // A second click before the disabled button renders is ignored: one record per action.
  const guard = useActionGuard();

  const currencyFormat = settings.data && 'currency_format' in settings.data ? settings.data.currency_format : undefined;
  if (doc.error) return <p role="alert">Ce document est introuvable.</p>;
  if (!doc.data || !currencyFormat) {
    return (
      <div role="status" className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
        <Spinner label="Chargement des paiements" />
      </div>
    );
  }
  const invoice = doc.data;
  const money = (n: number) => formatMoney(n, currencyFormat, invoice.currency);
  const payable = PAYABLE_STATUSES.includes(invoice.stored_status as StoredStatus);
  if (invoice.type !== 'invoice') {
    return (
      <div>
        <DocumentTabs type={invoice.type} id={id} current="payments" />
        <p className={css({ color: 'fg.muted' })}>Seules les factures reçoivent des paiements.</p>
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    // The typed amount goes through the payment schema itself ('120,50' reads as 120.5); empty is nothing typed.
    const result = paymentInputSchema.safeParse({ ...draft, amount: draft.amount.trim() === '' ? undefined : draft.amount });
    if (!result.success) {
      const next: Record<string, string> = {};
      for (const issue of result.error.issues) next[String(issue.path[0])] ??= issue.message;
      return setErrors(next);
    }
    const future = futurePaymentProblem(result.data.date, today());
    if (future) return setErrors({ date: future });
    if (draft.id) void guard(() => update.mutateAsync({ id, paymentId: draft.id, data: result.data }));
    else void guard(() => record.mutateAsync({ id, data: result.data }));
  }

  return (
    <div>
      <DocumentTabs type="invoice" id={id} current="payments" />
      <div className={styles.layout}>
        <section className={styles.card} aria-label="Paiements reçus">
          <div className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
            <h2 className={css({ fontWeight: '700' })}>Facture {invoice.number ?? '(brouillon)'}</h2>
            <StatusChip status={invoice.status} />
          </div>
          <dl className={styles.summary}>
            <div>
              <dt>Total TTC</dt>
              <dd>{money(invoice.total)}</dd>
            </div>
            <div>
              <dt>Payé</dt>
              <dd>{money(invoice.paid)}</dd>
            </div>
            <div>
              <dt>Reste à payer</dt>
              <dd data-testid="amount-due">{money(invoice.amount_due)}</dd>
            </div>
          </dl>
          {invoice.deposits > 0 && (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Acomptes déjà facturés : {money(invoice.deposits)}</p>
          )}
          {invoice.credited > 0 && <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Avoirs : {money(invoice.credited)}</p>}
          {payments.data && payments.data.total === 0 ? (
            <p className={css({ color: 'fg.muted', fontSize: 'sm', py: '4' })}>Aucun paiement enregistré pour cette facture.</p>
          ) : (
            // A table on wide screens, cards on a phone: date, amount, method, and what can be done.
            <ResponsiveList
              label="Paiements"
              testId="payments-list"
              rows={payments.data?.data ?? []}
              rowKey={(p) => p.id}
              columns={[
                { key: 'date', label: 'Date', card: 'title', className: listStyles.number, cell: (p) => formatDateShort(p.date) },
                { key: 'method', label: 'Moyen', card: 'subtitle', cell: (p) => PAYMENT_METHODS[p.method as PaymentMethod] ?? p.method },
                { key: 'reference', label: 'Référence', cell: (p) => p.reference || '—' },
                {
                  key: 'amount',
                  label: 'Montant',
                  align: 'right',
                  card: 'amount',
                  className: listStyles.number,
                  cell: (p) => money(p.amount),
                },
              ]}
              actions={(p) =>
                // A recorded payment is never rewritten: a counter-entry cancels it, and stays listed.
                p.reverses_id !== null ? (
                  <span className={styles.state}>Contre-écriture</span>
                ) : p.reversed_by_id !== null ? (
                  <span className={styles.state}>Annulé</span>
                ) : !canPay ? null : (
                  <>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() =>
                        setDraft({
                          id: p.id,
                          date: p.date,
                          amount: String(p.amount).replace('.', ','),
                          method: p.method as PaymentMethod,
                          reference: p.reference,
                          note: p.note,
                        })
                      }
                    >
                      Modifier
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={async () => {
                        if (
                          await confirm('Annuler ce paiement par une contre-écriture ? Il restera dans la liste, annulé.', {
                            title: 'Annuler le paiement',
                            confirmLabel: 'Annuler le paiement',
                            cancelLabel: 'Garder',
                          })
                        )
                          remove.mutate({ id, paymentId: p.id });
                      }}
                    >
                      Annuler
                    </Button>
                  </>
                )
              }
            />
          )}
        </section>
        {canPay && (
          <section className={styles.card} aria-label={draft.id ? 'Modifier le paiement' : 'Nouveau paiement'}>
            <h2 className={css({ fontWeight: '700' })}>{draft.id ? 'Modifier le paiement' : 'Enregistrer un paiement'}</h2>
            {!payable ? (
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                {invoice.stored_status === 'draft'
                  ? 'Émettez la facture avant d’y enregistrer un paiement.'
                  : 'Cette facture est annulée : elle ne reçoit plus de paiement.'}
              </p>
            ) : (
              <form onSubmit={submit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
                <TextField
                  label="Date"
                  type="date"
                  value={draft.date}
                  max={today()}
                  error={errors.date}
                  onChange={(e) => setDraft({ ...draft, date: e.target.value })}
                />
                <Field label="Montant" error={errors.amount}>
                  <AmountInput
                    value={draft.amount}
                    placeholder={String(invoice.amount_due).replace('.', ',')}
                    onChange={(amount) => setDraft((d) => ({ ...d, amount }))}
                  />
                </Field>
                <Field label="Moyen de paiement">
                  <Select
                    value={draft.method}
                    options={METHODS}
                    onChange={(method) => setDraft((d) => ({ ...d, method: method as PaymentMethod }))}
                  />
                </Field>
                <TextField
                  label="Référence"
                  value={draft.reference}
                  error={errors.reference}
                  onChange={(e) => setDraft({ ...draft, reference: e.target.value })}
                />
                <TextField
                  label="Note"
                  value={draft.note}
                  error={errors.note}
                  onChange={(e) => setDraft({ ...draft, note: e.target.value })}
                />
                <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
                  {draft.id && (
                    <Button variant="ghost" onClick={() => setDraft(blank())}>
                      Annuler
                    </Button>
                  )}
                  {!draft.id && invoice.amount_due > 0 && (
                    <Button variant="ghost" onClick={() => setDraft({ ...draft, amount: String(invoice.amount_due).replace('.', ',') })}>
                      Solder
                    </Button>
                  )}
                  <Button type="submit" loading={record.isPending || update.isPending}>
                    Enregistrer
                  </Button>
                </div>
              </form>
            )}
          </section>
        )}
      </div>
    </div>
  );
}
