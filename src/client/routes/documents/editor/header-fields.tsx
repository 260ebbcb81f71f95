import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { DOCUMENT_TYPE_TABLE } from '../../../../shared/document-types';
import { css } from '../../../../../styled-system/css';
import type { DocumentType } from '../../../../shared/schemas/document';
import { clearError, editor } from '../../../stores/document-editor';
import { TextField } from '../../../components/ui/text-field';
import { Field } from '../../../components/ui/field';
import { Select } from '../../../components/ui/select';
import { CurrencySelect } from '../../../components/currency-select';
import { CustomerPicker } from './customer-picker';
import { defaultDeliveryAddress } from '../../../../shared/legal-mentions';
import { PaymentTermWarning } from './payment-term-warning';
import { addDays, draft, setCurrency } from './form-state';

const PRICE_MODES = [
  { value: 'ht', label: 'Hors taxes (HT)' },
  { value: 'ttc', label: 'Toutes taxes comprises (TTC)' },
] as const;

const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(4, 1fr)' }, gap: '3', alignItems: 'start' });

/**
 * Customer, dates, currency, payment terms. The maturity follows the date and the customer's payment days until
 * the user sets it by hand.
 */
export function HeaderFields({
  type,
  maturityLabel,
  paymentDays,
  customerName,
  readOnly,
  vat = true,
  children,
}: {
  type: DocumentType;
  maturityLabel: string;
  paymentDays: number;
  customerName?: string;
  readOnly?: boolean;
  /** False under the franchise en base: prices are neither HT nor TTC, so no price mode is offered. */
  vat?: boolean;
  /** Shown under the currency (its exchange rate). */
  children?: ReactNode;
}) {
  const snap = useSnapshot(editor, { sync: true });
  const form = snap.form;
  if (!form) return null;
  const error = (key: string) => snap.errors[key];
  const days = (maturity: string, date: string) => Math.round((Date.parse(maturity) - Date.parse(date)) / 86_400_000);

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      {readOnly ? (
        <p className={css({ fontSize: 'sm' })}>
          <strong>Client :</strong> {customerName ?? '—'}
        </p>
      ) : type === 'credit' ? (
        // A credit note corrects one invoice: its customer is that invoice's, and the server refuses another one.
        <TextField
          label="Client"
          value={customerName ?? '—'}
          readOnly
          data-testid="credit-customer"
          hint="Celui de la facture corrigée : un avoir ne change pas de client."
        />
      ) : (
        <CustomerPicker
          value={form.customer_id ?? null}
          selectedName={customerName}
          error={error('customer_id')}
          onChange={(customer) => {
            clearError('customer_id');
            const f = draft();
            f.customer_id = customer?.id ?? null;
            // Delivered where this customer's shipping address says, when it is not their billing address.
            f.delivery_address = defaultDeliveryAddress(customer);
            if (!customer) return;
            // The customer's payment days and currency apply to a document they start.
            f.maturity = addDays(f.date, customer.maturity);
            if ((f.items ?? []).length === 0) setCurrency(customer.currency);
          }}
        />
      )}
      <div className={grid}>
        <TextField
          label="Date"
          type="date"
          value={form.date}
          readOnly={readOnly}
          error={error('date')}
          onChange={(e) => {
            clearError('date');
            const f = draft();
            const term = f.maturity && f.date ? days(f.maturity, f.date) : paymentDays;
            f.date = e.target.value;
            if (e.target.value) f.maturity = addDays(e.target.value, term);
          }}
        />
        {DOCUMENT_TYPE_TABLE[type].hasMaturity && (
          <TextField
            label={maturityLabel}
            type="date"
            value={form.maturity || addDays(form.date, paymentDays)}
            readOnly={readOnly}
            error={error('maturity')}
            onChange={(e) => {
              clearError('maturity');
              // Emptied: the server takes the customer's payment days again.
              draft().maturity = e.target.value || undefined;
            }}
          />
        )}
        {readOnly ? (
          <TextField label="Devise" value={form.currency ?? 'EUR'} readOnly />
        ) : (
          <CurrencySelect value={form.currency ?? 'EUR'} onChange={setCurrency} error={error('currency')} />
        )}
        {/* Hidden rather than removed under the franchise: the grid keeps its columns. */}
        <Field label="Prix saisis" disabled={readOnly} className={css({ display: vat ? undefined : 'none!' })}>
          <Select
            value={form.price_mode ?? 'ht'}
            options={PRICE_MODES}
            disabled={readOnly}
            onChange={(mode) => (draft().price_mode = mode as 'ht' | 'ttc')}
          />
        </Field>
      </div>
      {children}
      {type === 'invoice' && !readOnly && <PaymentTermWarning paymentDays={paymentDays} />}
      <div className={grid}>
        <TextField
          className={css({ gridColumn: { md: 'span 3' } })}
          label={DOCUMENT_TYPE_TABLE[type].conditionsLabel}
          placeholder={type === 'estimate' ? 'Ex. Devis valable 30 jours, acompte de 30\u00a0% à la commande' : 'Ex. Virement à 30 jours'}
          hint={type === 'estimate' ? 'Propres au devis : elles ne sont pas reprises sur la facture qui en est tirée.' : undefined}
          value={form.condition}
          readOnly={readOnly}
          error={error('condition')}
          onChange={(e) => (draft().condition = e.target.value)}
        />
        <TextField
          label="Date de la vente"
          type="date"
          hint="Si elle diffère de la date du document"
          value={form.sale_date ?? ''}
          readOnly={readOnly}
          error={error('sale_date')}
          onChange={(e) => {
            clearError('sale_date');
            draft().sale_date = e.target.value || null;
          }}
        />
      </div>
    </div>
  );
}
