import { useState } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { recurringExpenseInputSchema } from '../../../shared/schemas/expense';
import { FREQUENCIES, FREQUENCY_LABELS, type Frequency } from '../../../shared/recurrence';
import { formatDateShort } from '../../../shared/format';
import { fieldMessages } from '../../../shared/validation-messages';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useMoney } from '../../lib/use-money';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/text-field';
import { Field } from '../../components/ui/field';
import { AmountInput } from '../../components/ui/amount-input';
import { Select } from '../../components/ui/select';
import { ListPending, listStyles } from '../../components/ui/list';
import { ResponsiveList } from '../../components/ui/responsive-list';
import { WalletIcon } from '../../components/icons';
import { VatRowsField, vatInput, vatRow } from './vat-rows-field';

const styles = {
  ...listStyles,
  amount: css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  muted: css({ color: 'fg.muted' }),
  grid: css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '3' }),
  legend: css({
    fontSize: 'xs',
    fontWeight: '700',
    textTransform: 'uppercase',
    letterSpacing: '0.06em',
    color: 'fg.muted',
    mt: '4',
    mb: '2',
  }),
};

/** Dépenses répétitives: each with its next date; the scheduler makes the due ones into expenses. */
export function RecurringExpensesPage() {
  const money = useMoney();
  const utils = trpc.useUtils();
  const list = trpc.recurringExpenses.list.useQuery();
  const canCreate = useCan('recurringExpenses.create');
  const canPause = useCan('recurringExpenses.pause');
  const canDelete = useCan('recurringExpenses.delete');
  const canGenerate = useCan('recurringExpenses.generate');
  const jobs = trpc.reminders.jobs.useQuery();
  const [creating, setCreating] = useState(false);
  const refresh = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.recurringExpenses.invalidate();
  };
  const pause = trpc.recurringExpenses.pause.useMutation({ onSuccess: refresh });
  const remove = trpc.recurringExpenses.delete.useMutation({ onSuccess: refresh });
  const generate = trpc.recurringExpenses.generate.useMutation({
    onSuccess: (answer) => {
      refresh(answer);
      void utils.expenses.invalidate();
    },
  });
  const lastRun = jobs.data?.data.find((j) => j.name === 'recurring-expenses')?.last_finished_at;

  return (
    <section className={styles.panel} aria-label="Dépenses répétitives">
      <div className={styles.toolbar}>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {lastRun
            ? `Dernière génération automatique : ${new Date(lastRun).toLocaleString('fr-FR', { dateStyle: 'short', timeStyle: 'short' })}`
            : 'Pas encore de génération automatique'}
        </p>
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <Link href="/expenses" className={css({ fontSize: 'sm', color: 'accent.default', fontWeight: '600' })}>
            Toutes les dépenses
          </Link>
          {canCreate && <Button onClick={() => setCreating(true)}>Nouvelle dépense répétitive</Button>}
        </div>
      </div>
      {!list.data ? (
        <ListPending query={list} label="Chargement" failed="La liste n’a pas pu être chargée." />
      ) : list.data.total === 0 ? (
        <div className={styles.empty}>
          <WalletIcon size={32} />
          <p className={css({ fontWeight: '600', color: 'fg.default' })}>Pas encore de dépenses répétitives</p>
          <p className={css({ fontSize: 'sm' })}>
            Loyer, abonnements, assurances : saisis une fois, ajoutés à vos dépenses à chaque échéance.
          </p>
        </div>
      ) : (
        <ResponsiveList
          label="Dépenses répétitives"
          rows={list.data.data}
          rowKey={(r) => r.id}
          columns={[
            {
              key: 'supplier',
              label: 'Fournisseur',
              card: 'title',
              cell: (r) => (
                <>
                  {r.supplier}
                  {r.label && <span className={styles.muted}> — {r.label}</span>}
                </>
              ),
            },
            { key: 'category', label: 'Catégorie', card: 'subtitle', cell: (r) => r.category_label },
            { key: 'frequency', label: 'Fréquence', cell: (r) => FREQUENCY_LABELS[r.frequency] },
            {
              key: 'amount',
              label: 'Montant TTC',
              align: 'right',
              card: 'amount',
              className: styles.amount,
              cell: (r) => money(r.amount, r.currency),
            },
            {
              key: 'next',
              label: 'Prochaine date',
              className: styles.number,
              cell: (r) => (r.next_date ? formatDateShort(r.next_date) : <span className={styles.muted}>Terminée</span>),
            },
            { key: 'state', label: 'État', card: 'status', cell: (r) => (r.paused ? 'En pause' : 'Active') },
          ]}
          actions={
            canPause || canDelete || canGenerate
              ? (r) => (
                  <>
                    {canGenerate && (
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={!r.next_date || r.paused || generate.isPending}
                        onClick={() => generate.mutate({ id: r.id })}
                      >
                        Générer maintenant
                      </Button>
                    )}
                    {canPause && (
                      <Button variant="ghost" size="sm" onClick={() => pause.mutate({ id: r.id, paused: !r.paused })}>
                        {r.paused ? 'Reprendre' : 'Mettre en pause'}
                      </Button>
                    )}
                    {canDelete && (
                      <Button variant="ghost" size="sm" onClick={() => remove.mutate({ id: r.id })}>
                        Supprimer
                      </Button>
                    )}
                  </>
                )
              : undefined
          }
        />
      )}
      <RecurringFormDialog open={creating} onClose={() => setCreating(false)} />
    </section>
  );
}

function RecurringFormDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const categories = trpc.expenses.categories.useQuery(undefined, { enabled: open });
  const blank = {
    supplier: '',
    category: '',
    label: '',
    amount: '',
    vat: [vatRow('20')],
    frequency: 'monthly' as Frequency,
    start_date: '',
    end_date: '',
  };
  const [form, setForm] = useState(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = trpc.recurringExpenses.create.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      void utils.recurringExpenses.invalidate();
      setForm(blank);
      onClose();
    },
  });
  const pick = (key: Exclude<keyof typeof blank, 'vat'>) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const set = (key: Exclude<keyof typeof blank, 'vat'>) => (e: { target: { value: string } }) => pick(key)(e.target.value);
  function submit() {
    const result = recurringExpenseInputSchema.safeParse({
      ...form,
      vat: vatInput(form.vat),
      end_date: form.end_date || null,
    });
    if (!result.success) return setErrors(fieldMessages(result.error.issues));
    setErrors({});
    create.mutate(result.data);
  }
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Nouvelle dépense répétitive"
      width={600}
      persistent
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          <Button onClick={submit} loading={create.isPending}>
            Enregistrer
          </Button>
        </>
      }
    >
      <div className={styles.grid}>
        <TextField label="Fournisseur" value={form.supplier} onChange={set('supplier')} error={errors.supplier} autoFocus />
        <Field label="Catégorie" error={errors.category}>
          <Select
            value={form.category}
            onChange={pick('category')}
            placeholder="Choisir une catégorie…"
            options={(categories.data?.data ?? [])
              .filter((c) => !c.archived || c.code === form.category)
              .map((c) => ({ value: c.code, label: c.label }))}
          />
        </Field>
        <TextField label="Libellé" value={form.label} onChange={set('label')} />
        <Field label="Montant TTC" error={errors.amount}>
          <AmountInput value={form.amount} onChange={pick('amount')} />
        </Field>
        <Field label="Fréquence">
          <Select
            value={form.frequency}
            onChange={pick('frequency')}
            options={FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
          />
        </Field>
        <TextField label="Date de début" type="date" value={form.start_date} onChange={set('start_date')} error={errors.start_date} />
        <TextField label="Date de fin (facultative)" type="date" value={form.end_date} onChange={set('end_date')} error={errors.end_date} />
      </div>
      <p className={styles.legend}>TVA</p>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <VatRowsField rows={form.vat} onChange={(vat) => setForm({ ...form, vat })} ttc={form.amount} error={errors.vat} />
      </div>
    </Dialog>
  );
}
