import { useEffect, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { useSnapshot } from 'valtio';
import { css } from '../../../../styled-system/css';
import { FREQUENCIES, frequencyLabel, nextOccurrence, type Frequency } from '../../../shared/recurrence';
import { fillPeriod } from '../../../shared/recurring-period';
import { formatDateShort } from '../../../shared/format';
import {
  RECURRING_MODES,
  RECURRING_MODE_LABELS,
  recurringInvoiceInputSchema,
  type RecurringInvoiceRecord,
  type RecurringMode,
} from '../../../shared/schemas/recurring-invoice';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { ReadOnly } from '../../components/role-gate';
import { clearError, editor, isDirty, loadEditor, markSaved, resetEditor } from '../../stores/document-editor';
import { showMessage } from '../../stores/snackbar';
import { useUnsavedGuard } from '../../lib/use-unsaved-guard';
import { useTaxRules } from '../../lib/use-tax-rules';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { Field } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { NumberInput } from '../../components/ui/number-input';
import { Checkbox } from '../../components/ui/checkbox';
import { CustomerPicker } from '../documents/editor/customer-picker';
import { LinePanels } from '../documents/editor/line-panels';
import { TotalsCard } from '../documents/editor/totals-card';
import { blankForm, errorsByPath, newKey, today, useTypingSave, type DocumentDraft } from '../documents/editor/form-state';
import { editorLayout } from '../documents/editor/editor-layout';

const styles = {
  ...editorLayout,
  grid: css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' }, gap: '3', alignItems: 'start' }),
  hint: css({ fontSize: 'sm', color: 'fg.muted' }),
  actions: css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mb: '4' }),
  aside: css({ position: { xl: 'sticky' }, top: '4', display: 'flex', flexDirection: 'column', gap: '3' }),
  summary: css({ fontSize: 'sm', display: 'flex', flexDirection: 'column', gap: '1' }),
};

interface Schedule {
  frequency: Frequency;
  /** NaN while the field is empty: the schema then says a number is expected. */
  interval: number;
  month_end: boolean;
  start_date: string;
  end: 'never' | 'date' | 'count';
  end_date: string;
  occurrences: number;
  mode: RecurringMode;
  paused: boolean;
}

const blankSchedule = (): Schedule => ({
  frequency: 'monthly',
  interval: 1,
  month_end: false,
  start_date: today(),
  end: 'never',
  end_date: '',
  occurrences: 12,
  mode: 'draft',
  paused: false,
});

function scheduleOf(r: RecurringInvoiceRecord): Schedule {
  return {
    frequency: r.frequency,
    interval: r.interval,
    month_end: r.month_end,
    start_date: r.start_date,
    end: r.end_date ? 'date' : r.occurrences ? 'count' : 'never',
    end_date: r.end_date ?? '',
    occurrences: r.occurrences ?? 12,
    mode: r.mode,
    paused: r.paused,
  };
}

const FREQUENCY_OPTIONS = FREQUENCIES.map((f) => ({ value: f, label: frequencyLabel({ frequency: f }) }));
const END_OPTIONS: { value: Schedule['end']; label: string }[] = [
  { value: 'never', label: 'Sans fin' },
  { value: 'date', label: 'À une date' },
  { value: 'count', label: 'Après un nombre de factures' },
];
const MODE_OPTIONS = RECURRING_MODES.map((m) => ({ value: m, label: RECURRING_MODE_LABELS[m] }));

/** The model's document fields in the editor's form (the same store and line panels as the document editor). */
function draftOfModel(r: RecurringInvoiceRecord): DocumentDraft {
  return blankForm('invoice', {
    customer_id: r.customer_id,
    currency: r.currency,
    price_mode: r.price_mode,
    discount_type: r.discount_type,
    discount_value: r.discount_value ?? '',
    shipping: r.shipping,
    shipping_details: r.shipping_details,
    header: r.header,
    footer: r.footer,
    terms: r.terms,
    condition: r.condition,
    note: r.note,
    vat_exemption: r.vat_exemption,
    purchase_order: r.purchase_order,
    delivery_address: r.delivery_address ?? null,
    additional_info: r.additional_info,
    items: r.items.map((item) => ({ ...item, key: newKey() })),
  });
}

/** /recurring/new/add and /recurring/{id}/edit: the invoice to repeat, and when and how each one is made. */
export function RecurringEditorPage() {
  const params = useParams<{ id?: string }>();
  const id = params.id ? Number(params.id) : undefined;
  // An accountant opens a model read-only (a new one is refused by its route).
  const canWrite = useCan(id ? 'recurringInvoices.update' : 'recurringInvoices.create');
  const key = `recurring:${id ?? 'new'}`;
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const snap = useSnapshot(editor);
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: 60_000 });
  const taxes = trpc.taxes.list.useQuery(undefined, { staleTime: 60_000 });
  const units = trpc.units.list.useQuery(undefined, { staleTime: 60_000 });
  const rules = useTaxRules();
  const model = trpc.recurringInvoices.get.useQuery({ id: id ?? 0 }, { enabled: Boolean(id), refetchOnMount: 'always' });
  const [schedule, setSchedule] = useState<Schedule>(blankSchedule);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const appSettings = settings.data && 'currency_format' in settings.data ? settings.data : undefined;
  useUnsavedGuard(isDirty(snap as typeof editor));

  useEffect(() => {
    if (editor.key === key) return;
    if (id) {
      if (!model.data || !model.isFetchedAfterMount) return;
      loadEditor(key, draftOfModel(model.data), model.data.updated_at);
      setSchedule(scheduleOf(model.data));
    } else if (appSettings) {
      loadEditor(key, blankForm('invoice', { currency: appSettings.currency_format.currency }));
    }
  }, [key, id, model.data, model.isFetchedAfterMount, appSettings]);

  const form = snap.form;
  const vat = rules.vat;
  // The document editor's live save: a model's totals are those of the invoices it will make.
  const typed = useTypingSave(form as DocumentDraft | null, vat);

  const done = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.recurringInvoices.invalidate();
    markSaved();
    resetEditor();
    navigate('/recurring');
  };
  const create = trpc.recurringInvoices.create.useMutation({ onSuccess: done });
  const update = trpc.recurringInvoices.update.useMutation({ onSuccess: done });
  const saving = create.isPending || update.isPending;

  const set = <K extends keyof Schedule>(field: K, value: Schedule[K]) => {
    setSchedule((s) => ({ ...s, [field]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };

  function save() {
    const f = editor.form;
    if (!f || saving) return;
    const { type: _t, date: _d, maturity: _m, sale_date: _s, order_id: _o, deposit_request: _r, ...fields } = f;
    const parsed = recurringInvoiceInputSchema.safeParse({
      ...fields,
      frequency: schedule.frequency,
      interval: schedule.interval,
      month_end: schedule.month_end,
      start_date: schedule.start_date,
      end_date: schedule.end === 'date' ? schedule.end_date : null,
      occurrences: schedule.end === 'count' ? schedule.occurrences : null,
      mode: schedule.mode,
      paused: schedule.paused,
    });
    if (!parsed.success) {
      const byPath = errorsByPath(parsed.error.issues);
      editor.errors = byPath;
      setErrors(byPath);
      showMessage(parsed.error.issues.map((i) => i.message).slice(0, 3), 400);
      return;
    }
    if (id) update.mutate({ id, data: parsed.data });
    else create.mutate(parsed.data);
  }

  function leave() {
    resetEditor();
    navigate('/recurring');
  }

  if (id && model.error) return <p className={styles.hint}>Cette facture régulière est introuvable.</p>;
  if (!form || !typed || !appSettings || snap.key !== key || !rules.ready) {
    return (
      <div role="status" className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
        <Spinner label="Chargement" />
      </div>
    );
  }

  const rule = {
    frequency: schedule.frequency,
    interval: Number(schedule.interval) || 1,
    month_end: schedule.month_end,
    start_date: schedule.start_date || today(),
    end_date: schedule.end === 'date' ? schedule.end_date || null : null,
    occurrences: schedule.end === 'count' ? schedule.occurrences || null : null,
  };
  const next = /^\d{4}-\d{2}-\d{2}$/.test(rule.start_date) ? nextOccurrence(rule, model.data?.generated_until ?? null) : null;
  const firstLine = form.items?.[0]?.item ?? '';

  return (
    <div>
      <div className={styles.actions}>
        <Button variant="ghost" onClick={leave}>
          {canWrite ? 'Annuler' : 'Fermer'}
        </Button>
        {canWrite && (
          <Button onClick={save} loading={saving}>
            Enregistrer
          </Button>
        )}
      </div>
      <ReadOnly readOnly={!canWrite} className={styles.layout}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <section className={styles.card} aria-label="Client">
            <h2 className={styles.heading}>Client</h2>
            <CustomerPicker
              value={form.customer_id ?? null}
              selectedName={model.data?.customer_name}
              error={snap.errors.customer_id}
              onChange={(customer) => {
                clearError('customer_id');
                const f = editor.form;
                if (!f) return;
                f.customer_id = customer?.id ?? null;
                if (customer) f.currency = customer.currency;
              }}
            />
          </section>
          <section className={styles.card} aria-label="Lignes">
            <h2 className={styles.heading}>Lignes</h2>
            <p className={styles.hint}>
              Dans les textes des lignes, {'{month}'}, {'{year}'} et {'{period}'} sont remplacés par la période facturée : « Abonnement{' '}
              {'{month}'} {'{year}'} » devient « {fillPeriod('Abonnement {month} {year}', next ?? today(), rule.frequency)} ».
            </p>
            <LinePanels
              currencyFormat={appSettings.currency_format}
              currency={form.currency ?? 'EUR'}
              units={units.data?.data ?? []}
              taxes={taxes.data?.data ?? []}
              rules={{ vat: rules.vat, multiple: rules.multiple }}
              lines={typed.items}
            />
          </section>
          <section className={styles.card} aria-label="Récurrence">
            <h2 className={styles.heading}>Récurrence</h2>
            <div className={styles.grid}>
              <Field label="Fréquence" error={errors.frequency}>
                <Select value={schedule.frequency} options={FREQUENCY_OPTIONS} onChange={(v) => set('frequency', v as Frequency)} />
              </Field>
              <Field label="Tous les… (intervalle)" error={errors.interval}>
                <NumberInput min={1} max={36} value={schedule.interval} onChange={(v) => set('interval', v)} />
              </Field>
              <TextField
                label="Première facture le"
                type="date"
                value={schedule.start_date}
                onChange={(e) => set('start_date', e.target.value)}
                error={errors.start_date}
              />
            </div>
            {schedule.frequency !== 'weekly' && (
              <Checkbox checked={schedule.month_end} onChange={(checked) => set('month_end', checked)}>
                Le dernier jour du mois
              </Checkbox>
            )}
            <div className={styles.grid}>
              <Field label="Fin">
                <Select value={schedule.end} options={END_OPTIONS} onChange={(v) => set('end', v as Schedule['end'])} />
              </Field>
              {schedule.end === 'date' && (
                <TextField
                  label="Date de fin"
                  type="date"
                  value={schedule.end_date}
                  onChange={(e) => set('end_date', e.target.value)}
                  error={errors.end_date}
                />
              )}
              {schedule.end === 'count' && (
                <Field label="Nombre de factures" error={errors.occurrences}>
                  <NumberInput min={1} value={schedule.occurrences} onChange={(v) => set('occurrences', v)} />
                </Field>
              )}
            </div>
            <Field
              label="À chaque échéance"
              error={errors.mode}
              helper={
                schedule.mode === 'issue_and_send'
                  ? 'Envoyée à l’adresse e-mail du client, avec le modèle de Paramètres → Envoi d’emails.'
                  : undefined
              }
            >
              <Select value={schedule.mode} options={MODE_OPTIONS} onChange={(v) => set('mode', v as RecurringMode)} />
            </Field>
            <Checkbox checked={schedule.paused} onChange={(checked) => set('paused', checked)}>
              En pause
            </Checkbox>
          </section>
        </div>
        <aside className={styles.aside}>
          <TotalsCard
            totals={typed.totals}
            currencyFormat={appSettings.currency_format}
            currency={form.currency ?? 'EUR'}
            vat={vat || typed.totals.tax !== 0}
          />
          <section className={styles.card} aria-label="Prochaine facture">
            <h2 className={styles.heading}>Prochaine facture</h2>
            <div className={styles.summary}>
              <span>{frequencyLabel(rule)}</span>
              <span>{next ? `Le ${formatDateShort(next)}` : 'Aucune : la récurrence est terminée'}</span>
              {firstLine && next && <span className={styles.hint}>« {fillPeriod(firstLine, next, rule.frequency)} »</span>}
            </div>
          </section>
        </aside>
      </ReadOnly>
    </div>
  );
}
