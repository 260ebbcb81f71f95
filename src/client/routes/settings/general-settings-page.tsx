import { useEffect, useMemo, useState } from 'react';
import { css } from '../../../../styled-system/css';
import type { AppSettings } from '../../../shared/schemas/settings';
import { CURRENCY_CATALOGUE } from '../../../shared/currencies';
import { formatAddress, formatMoney } from '../../../shared/format';
import { latePenaltyFloorText, latePenaltyRateError } from '../../../shared/legal-interest-rate';
import { today } from '../../lib/local-today';
import { whenIdle } from '../../lib/when-idle';
import { useActionGuard } from '../../lib/use-action-guard';
import { CHUNK_ERROR_TEXT, CHUNK_PART_ERROR_TITLE } from '../../components/page-loading';
import { trpc } from '../../trpc';
import { revealFirstError } from '../../lib/reveal-error';
import { showMessage } from '../../stores/snackbar';
import { useSavedForm } from '../../lib/use-saved-form';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { Field, Textarea } from '../../components/ui/field';
import { Select as KitSelect } from '../../components/ui/select';
import { Checkbox } from '../../components/ui/checkbox';
import { SettingsActions, SettingsFrame, settingsCard, settingsGrid, settingsSection } from './settings-frame';

const SAMPLE_ADDRESS = {
  line1: '12 rue de la Paix',
  line2: 'Bâtiment B',
  postal_code: '75002',
  city: 'Paris',
  state: 'Île-de-France',
  country: 'France',
};
const sample = css({
  bg: 'bg.subtle',
  borderRadius: 'lg',
  px: '3',
  py: '2',
  fontVariantNumeric: 'tabular-nums',
  fontSize: 'sm',
  whiteSpace: 'pre-line',
});

/** A labelled choice of this page, on the field kit; `id` stays for the links that point at a setting. */
function Select({
  text,
  value,
  onChange,
  options,
}: {
  id: string;
  text: string;
  value: string;
  onChange: (v: string) => void;
  options: [string, string][];
}) {
  const choices = options.map(([v, t]) => ({ value: v, label: t }));
  return (
    <Field label={text}>
      <KitSelect value={value} onChange={onChange} options={choices} />
    </Field>
  );
}

const loadCheck = () => import('./app-settings-check');

/** Paramètres → Système général: money and address formats with live samples, theme, and invoicing defaults. */
export function GeneralSettingsPage() {
  const utils = trpc.useUtils();
  const saved = trpc.settings.get.useQuery(undefined, { staleTime: 0 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const current = saved.data && 'currency_format' in saved.data ? (saved.data as AppSettings) : null;
  const { form, setForm, dirty } = useSavedForm(current);
  const save = trpc.settings.update.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      // The same procedure saves the document template under `key`; without a key it answers the settings.
      if (!('currency_format' in answer.data)) return;
      utils.settings.get.setData(undefined, answer.data);
      setForm(answer.data);
    },
  });
  const currencies = useMemo(() => CURRENCY_CATALOGUE.map((c) => [c.code, `${c.code} — ${c.name}`] as [string, string]), []);

  // The check comes ahead of the save: at the first change, or when the browser is idle.
  useEffect(() => (dirty ? void loadCheck().catch(() => undefined) : whenIdle(() => void loadCheck().catch(() => undefined))), [dirty]);
  const guard = useActionGuard();

  if (!form)
    return (
      <SettingsFrame>
        {saved.isError ? <p>Les paramètres n’ont pas pu être chargés.</p> : <Spinner label="Chargement des paramètres" />}
      </SettingsFrame>
    );
  const cf = form.currency_format;
  const setFormat = (patch: Partial<AppSettings['currency_format']>) => setForm({ ...form, currency_format: { ...cf, ...patch } });
  const number = (key: 'payment_days' | 'late_penalty_rate' | 'recovery_indemnity') => ({
    value: Number.isNaN(form[key]) ? '' : String(form[key]),
    onChange: (e: { target: { value: string } }) =>
      setForm({ ...form, [key]: e.target.value === '' ? Number.NaN : Number(e.target.value.replace(',', '.')) }),
    error: errors[key],
    inputMode: 'decimal' as const,
  });

  async function submit() {
    const check = await loadCheck().catch(() => undefined);
    if (!check) {
      showMessage(`${CHUNK_PART_ERROR_TITLE}. ${CHUNK_ERROR_TEXT}`, 400);
      return;
    }
    const { appSettingsSchema, fieldMessages } = check;
    const result = appSettingsSchema.safeParse(form);
    if (!result.success) {
      const next = fieldMessages(result.error.issues, 1);
      setErrors(next);
      revealFirstError(Object.keys(next).length);
      return;
    }
    // The server refuses it too (C. com. L441-10): said beside the field before sending.
    const tooLow = latePenaltyRateError(result.data.late_penalty_rate, today());
    if (tooLow) {
      setErrors({ late_penalty_rate: tooLow });
      revealFirstError(1);
      return;
    }
    setErrors({});
    await save.mutateAsync({ data: result.data });
  }

  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Format monétaire</p>
        <div className={settingsGrid}>
          <Select id="currency" text="Devise" value={cf.currency} onChange={(currency) => setFormat({ currency })} options={currencies} />
          <Select
            id="currency-position"
            text="Position du symbole"
            value={cf.currency_position}
            onChange={(v) => setFormat({ currency_position: v as 'before' | 'after' })}
            options={[
              ['after', 'Après le montant'],
              ['before', 'Avant le montant'],
            ]}
          />
          <Select
            id="decimal"
            text="Séparateur décimal"
            value={cf.decimal}
            onChange={(decimal) => setFormat({ decimal })}
            options={[
              [',', 'Virgule (,)'],
              ['.', 'Point (.)'],
            ]}
          />
          <Select
            id="thousand"
            text="Séparateur de milliers"
            value={cf.thousand}
            onChange={(thousand) => setFormat({ thousand })}
            options={[
              ['', 'Aucun'],
              // The French typographic norm: a narrow space that never lets an amount break across lines.
              ['\u202f', 'Espace fine insécable (norme française)'],
              [' ', 'Espace'],
              ['.', 'Point (.)'],
              [',', 'Virgule (,)'],
              ["'", 'Apostrophe (’)'],
            ]}
          />
          <Select
            id="precision"
            text="Décimales"
            value={String(cf.precision)}
            onChange={(v) => setFormat({ precision: Number(v) })}
            options={[
              ['0', '0'],
              ['1', '1'],
              ['2', '2'],
              ['3', '3'],
              ['4', '4'],
            ]}
          />
          <Checkbox
            className={css({ alignSelf: 'end', pb: '1' })}
            checked={cf.use_space}
            onChange={(use_space) => setFormat({ use_space })}
          >
            Espace entre le montant et le symbole
          </Checkbox>
        </div>
        <p className={sample} aria-live="polite">
          Aperçu : <strong data-testid="currency-sample">{formatMoney(1234567.891, cf)}</strong>
        </p>

        <p className={settingsSection}>Format d’adresse</p>
        <div className={settingsGrid}>
          <Field label={`Modèle ({line1}, {line2}, {postal_code}, {city}, {state}, {country})`}>
            <Textarea
              rows={5}
              className={css({ fontFamily: 'mono' })}
              value={form.address_format}
              onChange={(e) => setForm({ ...form, address_format: e.target.value })}
            />
          </Field>
          <div className={sample} data-testid="address-sample">
            {formatAddress(form.address_format, SAMPLE_ADDRESS).join('\n')}
          </div>
        </div>

        <p className={settingsSection}>Facturation</p>
        <div className={settingsGrid}>
          <TextField label="Délai de paiement par défaut (jours)" {...number('payment_days')} />
          <TextField
            label="Taux des pénalités de retard (% par an)"
            {...number('late_penalty_rate')}
            hint={`Au moins 3 × le taux d’intérêt légal (C. com. L441-10), soit ${latePenaltyFloorText(today())}`}
          />
          <TextField
            label="Indemnité forfaitaire de recouvrement (€)"
            {...number('recovery_indemnity')}
            hint="40 € pour les clients professionnels (C. com. D441-5)"
          />
          <TextField
            label="Conditions d’escompte"
            value={form.escompte}
            onChange={(e) => setForm({ ...form, escompte: e.target.value })}
            error={errors.escompte}
          />
        </div>

        <p className={settingsSection}>Affichage</p>
        <div className={settingsGrid}>
          <Select
            id="app-theme"
            text="Thème par défaut"
            value={form.theme}
            onChange={(v) => setForm({ ...form, theme: v as AppSettings['theme'] })}
            options={[
              ['light', 'Claire'],
              ['dark', 'Sombre'],
              ['system', 'Système'],
            ]}
          />
        </div>

        <SettingsActions
          dirty={dirty}
          saving={save.isPending}
          onUndo={() => {
            setForm(current);
            return setErrors({});
          }}
          onSave={() => void guard(submit)}
        />
      </section>
    </SettingsFrame>
  );
}
