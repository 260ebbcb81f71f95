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
import { Select } from '../../components/ui/lazy-select';
import { TextField } from '../../components/ui/text-field';
import { SettingsActions, SettingsFrame, settingsCard, settingsGrid, settingsSection } from './settings-frame';
import { ExpenseCategorySettings } from './expense-category-settings';
import { parisToday } from '../../../shared/paris-date';

/** The accounts, in the order an accountant reads a sales entry. */
const ACCOUNT_FIELDS: { key: keyof AccountingSettings; label: string; hint?: string }[] = [
  { key: 'customers', label: 'Clients', hint: 'Un compte auxiliaire par client : son numéro (CL-00001…)' },
  { key: 'services', label: 'Ventes de prestations de services' },
  { key: 'goods', label: 'Ventes de marchandises' },
  { key: 'shipping', label: 'Frais de port facturés' },
  { key: 'deposits', label: 'Acomptes reçus', hint: 'Factures d’acompte, soldées par la facture finale' },
  { key: 'vat', label: 'TVA collectée', hint: 'Une ligne par taux' },
  { key: 'bank', label: 'Banque', hint: 'Journal de banque : les paiements enregistrés' },
];

const thisYear = Number(parisToday().slice(0, 4));
const YEAR_OPTIONS = Array.from({ length: 6 }, (_, i) => String(thisYear - i)).map((y) => ({ value: y, label: y }));

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
  showMessage(`FEC ${year} téléchargé : ${name}`, 200);
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
          Le journal des ventes (factures et avoirs émis) et le journal de banque (paiements enregistrés) d’une année, au format exigé par
          l’administration fiscale (article A47 A-1 du LPF), à remettre à votre expert-comptable.
        </p>
        <div className={css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap' })}>
          <Field label="Exercice (année civile)">
            <Select value={String(year)} options={YEAR_OPTIONS} onChange={(value) => setYear(Number(value))} />
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
