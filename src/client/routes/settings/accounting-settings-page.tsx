import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { accountingSettingsSchema, type AccountingSettings } from '../../../shared/schemas/accounting';
import { trpc } from '../../trpc';
import { ReadOnly } from '../../components/role-gate';
import { useCan } from '../../lib/use-can';
import { fieldErrors } from '../../lib/form';
import { revealFirstError } from '../../lib/reveal-error';
import { useSavedForm } from '../../lib/use-saved-form';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { Field } from '../../components/ui/field';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { SettingsActions, SettingsFrame, settingsCard, settingsGrid, settingsSection } from './settings-frame';
import { ExpenseCategorySettings } from './expense-category-settings';
import { parisToday } from '../../../shared/paris-date';
import { fiscalYearClosingIn } from '../../../shared/fec/fiscal-year';

type AccountKey = Exclude<keyof AccountingSettings, 'first_closing_date'>;

/** The accounts, in the order an accountant reads a sales entry, then a purchase, then the bank. */
const ACCOUNT_FIELDS: { key: AccountKey; label: string; hint?: string }[] = [
  { key: 'customers', label: 'Clients', hint: 'Un compte auxiliaire par client : son numéro (CL-00001…)' },
  { key: 'services', label: 'Ventes de prestations de services' },
  { key: 'goods', label: 'Ventes de marchandises' },
  { key: 'shipping', label: 'Frais de port facturés' },
  { key: 'deposits', label: 'Acomptes reçus', hint: 'Factures d’acompte, soldées par la facture finale' },
  { key: 'vat', label: 'TVA collectée', hint: 'Une ligne par taux' },
  {
    key: 'vat_on_receipts',
    label: 'TVA collectée sur encaissements',
    hint: 'TVA des prestations et acomptes en attente du paiement, virée en TVA collectée à chaque encaissement',
  },
  { key: 'suppliers', label: 'Fournisseurs', hint: 'Un compte auxiliaire par fournisseur : F suivi de son SIREN' },
  { key: 'deductible_vat', label: 'TVA déductible', hint: 'La TVA étrangère ou exclue reste dans la charge' },
  {
    key: 'deductible_vat_on_receipts',
    label: 'TVA déductible sur encaissements',
    hint: 'TVA des prestations achetées, virée en TVA déductible au paiement',
  },
  { key: 'self_assessed_vat', label: 'TVA autoliquidée', hint: 'Acquisitions intracommunautaires, services de l’étranger' },
  {
    key: 'bank',
    label: 'Banque',
    hint: 'Paiements saisis à la main ; chaque compte bancaire relié a son sous-compte (51201, 51202…)',
  },
  { key: 'fees', label: 'Frais bancaires', hint: 'Commissions retenues sur un paiement' },
  { key: 'suspense', label: 'Opérations en attente', hint: 'Opérations bancaires sans facture ni dépense rapprochée' },
];

const thisYear = Number(parisToday().slice(0, 4));
const YEAR_OPTIONS = Array.from({ length: 7 }, (_, i) => String(thisYear + 1 - i)).map((y) => ({ value: y, label: y }));

/** « 31/12/2026 »: the closing date of the fiscal year closing in `year`, as the FEC will be named. */
function closingLabel(firstClosing: string | null, year: number): string {
  const closing = fiscalYearClosingIn(firstClosing, year);
  if ('error' in closing) return '';
  const [y, m, d] = closing.to.split('-');
  return `${d}/${m}/${y}`;
}

/** The file as the server sends it (ISO-8859-15 bytes, named by Content-Disposition), or its French error. */
async function downloadFec(year: number): Promise<void> {
  const response = await fetch(`/api/exports/fec?year=${year}`, { credentials: 'same-origin' });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { messages?: string | string[] } | null;
    showMessage(body?.messages ?? 'Le FEC n’a pas pu être généré', response.status);
    return;
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `FEC${year}.txt`;
  const url = URL.createObjectURL(await response.blob());
  Object.assign(document.createElement('a'), { href: url, download: name }).click();
  URL.revokeObjectURL(url);
  showMessage(`FEC ${year} téléchargé : ${name}`, 200);
}

/** Paramètres → Comptabilité: the FEC for the accountant, and the accounts it books to. */
export function AccountingSettingsPage() {
  const utils = trpc.useUtils();
  const saved = trpc.exports.accounts.useQuery(undefined, { staleTime: 0 });
  const { form, setForm, dirty } = useSavedForm(saved.data ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [year, setYear] = useState(thisYear);
  const [downloading, setDownloading] = useState(false);
  // The FEC for every role (an accountant's export); the accounts it books to are the managers' to change.
  const canSave = useCan('exports.saveAccounts');
  const save = trpc.exports.saveAccounts.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.exports.accounts.setData(undefined, answer.data);
      setForm(answer.data);
    },
  });

  if (!form)
    return (
      <SettingsFrame>
        {saved.isError ? <p>Les comptes n’ont pas pu être chargés.</p> : <Spinner label="Chargement des comptes" />}
      </SettingsFrame>
    );

  function submit() {
    const { data, errors: next } = fieldErrors(accountingSettingsSchema, form);
    setErrors(next);
    if (!data) return revealFirstError(Object.keys(next).length);
    save.mutate(data);
  }

  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Fichier des écritures comptables (FEC)</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Les journaux des ventes (VT), des achats (AC), de banque (BQ) et des opérations diverses (OD) d’un exercice, au format exigé par
          l’administration fiscale (article A47 A-1 du LPF), à remettre à votre expert-comptable.
        </p>
        <div className={css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap' })}>
          <Field label="Exercice clos en">
            <Select
              value={String(year)}
              options={YEAR_OPTIONS.map((o) => {
                const closing = closingLabel(saved.data?.first_closing_date ?? null, Number(o.value));
                return { value: o.value, label: closing ? `${o.label} (clôture le ${closing})` : o.label };
              })}
              onChange={(value) => setYear(Number(value))}
            />
          </Field>
          <Button
            loading={downloading}
            onClick={() => {
              setDownloading(true);
              void downloadFec(year).finally(() => setDownloading(false));
            }}
          >
            Télécharger le FEC
          </Button>
        </div>

        <p className={settingsSection}>Exercice comptable</p>
        <ReadOnly readOnly={!canSave} className={settingsGrid}>
          <TextField
            label="Date de clôture du premier exercice"
            type="date"
            value={form.first_closing_date ?? ''}
            onChange={(e) => setForm({ ...form, first_closing_date: e.target.value || null })}
            error={errors.first_closing_date}
            hint="Les exercices suivants se clôturent le même jour chaque année ; vide : l’année civile"
          />
        </ReadOnly>

        <p className={settingsSection}>Comptes</p>
        <ReadOnly readOnly={!canSave} className={settingsGrid}>
          {ACCOUNT_FIELDS.map((f) => (
            <TextField
              key={f.key}
              label={f.label}
              inputMode="numeric"
              value={form[f.key]}
              onChange={(e) => setForm({ ...form, [f.key]: e.target.value })}
              error={errors[f.key]}
              hint={f.hint}
            />
          ))}
        </ReadOnly>
        {canSave && (
          <SettingsActions
            dirty={dirty}
            saving={save.isPending}
            onUndo={() => {
              setForm(saved.data ?? null);
              setErrors({});
            }}
            onSave={submit}
          />
        )}
      </section>
      <ExpenseCategorySettings />
    </SettingsFrame>
  );
}
