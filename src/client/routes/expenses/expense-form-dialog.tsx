import { useEffect, useId, useState } from 'react';
import { css } from '../../../../styled-system/css';
import {
  expenseInputSchema,
  EXPENSE_STATUS_LABELS,
  REVERSE_CHARGE_LABELS,
  type ExpenseRecord,
  type ReverseCharge,
} from '../../../shared/schemas/expense';
import { PAYMENT_METHODS } from '../../../shared/status';
import { formatDateShort, formatDecimal } from '../../../shared/format';
import { fieldMessages } from '../../../shared/validation-messages';
import { fieldErrorsOf, trpc } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { Field } from '../../components/ui/field';
import { AmountInput } from '../../components/ui/amount-input';
import { Select } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';
import { SupplierStatus } from './supplier-status';
import { ReceiptField } from './receipt-field';
import { type VatRow, VatRowsField, vatInput, vatRow } from './vat-rows-field';
import type { ImportedInvoice } from './einvoice-import';
import { useCan } from '../../lib/use-can';
import { ReadOnly } from '../../components/role-gate';
import { parisToday } from '../../../shared/paris-date';

type Form = {
  date: string;
  supplier: string;
  supplier_siren: string;
  supplier_vat_number: string;
  category: string;
  label: string;
  amount: string;
  vat: VatRow[];
  currency: string;
  payment_method: string;
  status: 'paid' | 'unpaid';
  paid_at: string;
  due_date: string;
  invoice_number: string;
  note: string;
  kind: 'expense' | 'credit_note';
  reverse_charge: ReverseCharge;
  preceding_invoice_number: string;
};

const blank = (): Form => ({
  date: parisToday(),
  supplier: '',
  supplier_siren: '',
  supplier_vat_number: '',
  category: '',
  label: '',
  amount: '',
  vat: [vatRow('20')],
  currency: 'EUR',
  payment_method: 'card',
  status: 'paid',
  paid_at: '',
  due_date: '',
  invoice_number: '',
  note: '',
  kind: 'expense',
  reverse_charge: '',
  preceding_invoice_number: '',
});
// A credit note's amounts come negative (they come off the expenses); the form shows them as typed, positive.
const comma = (n: number) => String(Math.abs(n)).replace('.', ',');
const fromExpense = (e: ExpenseRecord): Form => ({
  ...e,
  amount: comma(e.amount),
  vat: e.vat.map((v) => vatRow(String(v.rate), comma(v.amount), v.deductible)),
  paid_at: e.paid_at ?? '',
  due_date: e.due_date ?? '',
});

const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' });
const legend = css({ fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted', mt: '2' });
const column = css({ display: 'flex', flexDirection: 'column', gap: '1.5' });
const toggle = css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', fontWeight: '600', cursor: 'pointer' });
const hint = css({ fontSize: 'xs', color: 'fg.muted' });
const notice = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
  p: '3',
  borderRadius: 'lg',
  bg: 'warningSubtle',
  color: 'fg.default',
  fontSize: 'sm',
  borderLeftWidth: '4px',
  borderColor: 'warning',
});

/** Creates or edits an expense, checked with the server's schema first; the receipt is attached once it exists. */
export function ExpenseFormDialog({
  open,
  expense,
  imported = null,
  onClose,
}: {
  open: boolean;
  expense: ExpenseRecord | null;
  /** Set when the expense was just filled from a supplier's e-invoice: its category is the user's to confirm. */
  imported?: ImportedInvoice | null;
  onClose: () => void;
}) {
  const canWrite = useCan(expense ? 'expenses.update' : 'expenses.create');
  const [form, setForm] = useState<Form>(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pendingFile, setPendingFile] = useState<File | null>(null);
  const utils = trpc.useUtils();
  const ids = useId();
  const categories = trpc.expenses.categories.useQuery(undefined, { staleTime: 60_000, enabled: open });
  const suppliers = trpc.expenses.suppliers.useQuery({ search: form.supplier || undefined }, { enabled: open, placeholderData: (p) => p });
  const current = trpc.expenses.get.useQuery(
    { id: expense?.id ?? 0 },
    { enabled: open && Boolean(expense), initialData: expense ?? undefined },
  );
  useEffect(() => {
    if (open) {
      setForm(expense ? fromExpense(expense) : blank());
      setErrors({});
      setPendingFile(null);
    }
  }, [open, expense]);

  // A refusal the server explains field by field shows beside those fields, not only in the snackbar.
  const refused = (error: unknown) => setErrors(fieldErrorsOf(error));
  const create = trpc.expenses.create.useMutation({ onError: refused });
  const update = trpc.expenses.update.useMutation({ onError: refused });
  const attach = trpc.expenses.attachReceipt.useMutation();
  const guard = useActionGuard();

  const set = (key: keyof Form) => (e: { target: { value: string } }) => pick(key)(e.target.value);
  const pick = (key: keyof Form) => (value: string) => {
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
    setForm((f) => ({ ...f, [key]: value }));
  };

  async function save() {
    const result = expenseInputSchema.safeParse({
      ...form,
      preceding_invoice_number: form.kind === 'credit_note' ? form.preceding_invoice_number : '',
      vat: vatInput(form.vat),
      paid_at: form.status === 'paid' ? form.paid_at || null : null,
      due_date: form.due_date || null,
    });
    if (!result.success) {
      setErrors(fieldMessages(result.error.issues));
      return;
    }
    setErrors({});
    const saved = expense ? await update.mutateAsync({ id: expense.id, data: result.data }) : await create.mutateAsync(result.data);
    if (pendingFile) await attach.mutateAsync({ id: saved.data.id, ...(await readFile(pendingFile)) });
    showMessage(saved.messages, 200);
    void utils.expenses.invalidate();
    onClose();
  }

  const record = current.data ?? null;
  // Stored on the expense (migration 0033): the prompt comes back each time it is opened, until it is saved.
  const toCheck = imported?.expense ?? (record?.category_to_check ? record : null);
  const creditNote = form.kind === 'credit_note';
  // What the supplier's invoice said beyond the form's fields: why its VAT is not deductible, its terms, what was prepaid.
  const read = imported?.expense ?? record;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={expense ? (expense.kind === 'credit_note' ? 'Modifier l’avoir fournisseur' : 'Modifier la dépense') : 'Nouvelle dépense'}
      width={680}
      persistent
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          {canWrite && (
            <Button onClick={() => void guard(save)} loading={create.isPending || update.isPending || attach.isPending}>
              Enregistrer
            </Button>
          )}
        </>
      }
    >
      <ReadOnly readOnly={!canWrite} className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '2' })}>
        {toCheck && (
          <div className={notice} role="status" data-testid="import-notice">
            <strong>Vérifiez la catégorie</strong>
            <span>
              {toCheck.kind === 'credit_note' ? 'Avoir rempli depuis l’avoir' : 'Dépense remplie depuis la facture'}{' '}
              {toCheck.invoice_number || toCheck.receipt?.filename} de « {toCheck.supplier} » : choisissez sa catégorie, puis enregistrez.
            </span>
            {(imported?.warnings ?? []).map((w) => (
              <span key={w} className={css({ fontSize: 'xs' })}>
                {w}
              </span>
            ))}
          </div>
        )}
        <div className={column}>
          <Checkbox
            className={toggle}
            checked={creditNote}
            onChange={(checked) => setForm({ ...form, kind: checked ? 'credit_note' : 'expense' })}
          >
            Avoir fournisseur
          </Checkbox>
          <span className={hint}>
            {creditNote
              ? 'Remboursement ou remise du fournisseur : saisissez les montants en positif, ils viennent en déduction des dépenses et de la TVA déductible.'
              : 'Cochez pour un remboursement ou une remise reçue d’un fournisseur.'}
          </span>
        </div>
        <div className={grid}>
          <TextField label="Date" type="date" value={form.date} onChange={set('date')} error={errors.date} />
          <div className={column}>
            <TextField
              label="Fournisseur"
              list={`${ids}-suppliers`}
              value={form.supplier}
              onChange={set('supplier')}
              error={errors.supplier}
              autoFocus={!imported}
              autoComplete="off"
            />
            <datalist id={`${ids}-suppliers`}>
              {(suppliers.data?.data ?? []).map((s) => (
                <option key={s.name} value={s.name} />
              ))}
            </datalist>
          </div>
          <Field label="Catégorie" error={errors.category}>
            <Select
              value={form.category}
              onChange={pick('category')}
              placeholder="Choisir une catégorie…"
              options={(categories.data?.data ?? [])
                // An archived category stays on the expenses that use it, and is offered to no other.
                .filter((c) => !c.archived || c.code === form.category)
                .map((c) => ({ value: c.code, label: `${c.label} (${c.account})` }))}
            />
          </Field>
          <TextField label="Libellé" value={form.label} onChange={set('label')} error={errors.label} />
          <Field label={`Montant ${form.reverse_charge ? 'HT' : 'TTC'} (${form.currency})`} error={errors.amount}>
            <AmountInput placeholder="0,00" value={form.amount} onChange={pick('amount')} />
          </Field>
          <TextField
            label={creditNote ? 'N° de l’avoir' : 'N° de facture'}
            value={form.invoice_number}
            onChange={set('invoice_number')}
            error={errors.invoice_number}
          />
          {creditNote && (
            <div className={column}>
              <TextField
                label="Facture corrigée (n°)"
                value={form.preceding_invoice_number}
                onChange={set('preceding_invoice_number')}
                error={errors.preceding_invoice_number}
              />
              {record?.corrects && record.preceding_invoice_number === form.preceding_invoice_number && (
                <span className={hint} data-testid="corrects">
                  Corrige la facture n° {record.corrects.invoice_number} du {formatDateShort(record.corrects.date)}
                </span>
              )}
            </div>
          )}
        </div>

        <p className={legend}>TVA</p>
        <Field
          label="Autoliquidation"
          error={errors.reverse_charge}
          helper={
            form.reverse_charge
              ? 'Saisissez la TVA que vous devez sur ce montant HT : elle est due et déduite sur la déclaration.'
              : undefined
          }
        >
          <Select
            value={form.reverse_charge || 'none'}
            onChange={(value) => pick('reverse_charge')(value === 'none' ? '' : value)}
            options={Object.entries(REVERSE_CHARGE_LABELS).map(([value, label]) => ({ value: value || 'none', label }))}
          />
        </Field>
        <VatRowsField rows={form.vat} onChange={(vat) => setForm({ ...form, vat })} ttc={form.amount} error={errors.vat} />
        {read?.vat_note && (
          <p className={hint} data-testid="vat-note">
            {read.vat_note}
          </p>
        )}

        <p className={legend}>Paiement</p>
        {read && (read.payment_terms || read.prepaid_amount > 0) && (
          <p className={hint}>
            {[
              read.payment_terms,
              read.prepaid_amount > 0 ? `Déjà payé selon la facture : ${formatDecimal(read.prepaid_amount, 2)}\u00a0${read.currency}` : '',
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        )}
        <div className={grid}>
          <Field label="Moyen de paiement">
            <Select
              value={form.payment_method}
              onChange={pick('payment_method')}
              options={Object.entries(PAYMENT_METHODS).map(([value, label]) => ({ value, label }))}
            />
          </Field>
          <Field label="Statut">
            <Select
              value={form.status}
              onChange={pick('status')}
              options={Object.entries(EXPENSE_STATUS_LABELS).map(([value, label]) => ({ value, label }))}
            />
          </Field>
          {form.status === 'paid' ? (
            <TextField label="Payée le" type="date" value={form.paid_at || form.date} onChange={set('paid_at')} error={errors.paid_at} />
          ) : (
            <TextField label="Échéance" type="date" value={form.due_date} onChange={set('due_date')} error={errors.due_date} />
          )}
        </div>

        <p className={legend}>Fournisseur (facultatif)</p>
        <div className={grid}>
          <TextField
            label="SIREN ou SIRET"
            inputMode="numeric"
            value={form.supplier_siren}
            onChange={set('supplier_siren')}
            error={errors.supplier_siren}
          />
          <TextField
            label="N° de TVA"
            value={form.supplier_vat_number}
            onChange={set('supplier_vat_number')}
            error={errors.supplier_vat_number}
          />
        </div>
        <TextField label="Note" value={form.note} onChange={set('note')} />

        <p className={legend}>Justificatif</p>
        <ReceiptField expense={record} pendingFile={pendingFile} onPick={setPendingFile} />
      </ReadOnly>
      {record?.source === 'platform' && (
        <>
          <p className={legend}>Statut auprès du fournisseur (plateforme agréée)</p>
          <SupplierStatus expense={record} />
        </>
      )}
    </Dialog>
  );
}

/** A file as `{ filename, data_url }`. */
export function readFile(file: File): Promise<{ filename: string; data_url: string }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ filename: file.name, data_url: String(reader.result) });
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
