import { useState } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../../styled-system/css';
import {
  EINVOICING_MODE_LABELS,
  EINVOICING_MODES,
  EINVOICING_PROFILE_LABELS,
  EINVOICING_PROFILES,
  EINVOICING_SYNTAX_LABELS,
  EINVOICING_SYNTAXES,
  type EinvoicingSettings,
  type EinvoicingSettingsInput,
} from '../../../../shared/schemas/einvoicing-settings';
import { fieldErrorsOf, trpc } from '../../../trpc';
import { showMessage } from '../../../stores/snackbar';
import { useSavedForm } from '../../../lib/use-saved-form';
import { revealFirstError } from '../../../lib/reveal-error';
import { RadioGroup } from '../../../components/ui/radio-group';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { SettingsActions, SettingsFrame, settingsCard, settingsGrid, settingsSection } from '../settings-frame';
import { ConnectionCheck } from './connection-check';
import { OwnDirectory } from './own-directory';
import { SecretField } from './secret-field';

const note = css({ fontSize: 'sm', color: 'fg.muted' });

type Auth = 'oauth' | 'bearer';

/** The form: the saved settings, the kind of authentication, and secrets being typed ('' = keep the stored one). */
interface Form {
  mode: EinvoicingSettings['mode'];
  flow_url: string;
  directory_url: string;
  auth: Auth;
  token_url: string;
  client_id: string;
  client_secret: string;
  token: string;
  pa_matricule: string;
  syntax: EinvoicingSettings['syntax'];
  profile: EinvoicingSettings['profile'];
}

const formOf = (saved: EinvoicingSettings): Form => ({
  mode: saved.mode,
  flow_url: saved.flow_url,
  directory_url: saved.directory_url,
  // A saved static token means bearer; anything else (nothing saved yet included) starts on OAuth2, the usual case.
  auth: saved.token_set && saved.token_url === '' ? 'bearer' : 'oauth',
  token_url: saved.token_url,
  client_id: saved.client_id,
  client_secret: '',
  token: '',
  pa_matricule: saved.pa_matricule,
  syntax: saved.syntax,
  profile: saved.profile,
});

function inputOf(form: Form): EinvoicingSettingsInput {
  const oauth = form.auth === 'oauth';
  return {
    mode: form.mode,
    flow_url: form.flow_url,
    directory_url: form.directory_url,
    token_url: oauth ? form.token_url : '',
    client_id: oauth ? form.client_id : '',
    ...(oauth && form.client_secret !== '' ? { client_secret: form.client_secret } : {}),
    ...(!oauth && form.token !== '' ? { token: form.token } : {}),
    pa_matricule: form.pa_matricule,
    syntax: form.syntax,
    profile: form.profile,
  };
}

const MODE_OPTIONS = EINVOICING_MODES.map((value) => ({ value, label: EINVOICING_MODE_LABELS[value] }));
const SYNTAX_OPTIONS = EINVOICING_SYNTAXES.map((value) => ({ value, label: EINVOICING_SYNTAX_LABELS[value] }));
const PROFILE_OPTIONS = EINVOICING_PROFILES.map((value) => ({ value, label: EINVOICING_PROFILE_LABELS[value] }));
const AUTH_OPTIONS = [
  { value: 'oauth', label: 'OAuth2 (identifiant et secret client)' },
  { value: 'bearer', label: 'Jeton d’accès' },
];

const MODE_NOTES: Record<EinvoicingSettings['mode'], string> = {
  none: 'Aucune transmission : les factures électroniques se téléchargent depuis chaque document, « Déposer sur la plateforme » est refusé.',
  folder:
    'Les factures déposées sont écrites dans le dossier « platform » du serveur, et les statuts y sont relevés : pour une plateforme qui reçoit des fichiers (dépôt SFTP, dossier synchronisé).',
  afnor:
    'Facturier se connecte à votre plateforme agréée par son API normalisée (AFNOR XP Z12-013) : chaque facture ou avoir émis pour une entreprise française y est déposé automatiquement, et son accusé de réception s’affiche sur le document. Les factures de vos fournisseurs et les statuts de vos factures (refusée, encaissée…) sont relevés sur la plateforme toutes les cinq minutes, ou aussitôt par « Synchroniser » (Dépenses).',
};

/** Paramètres → Facturation électronique: how the organisation reaches its Plateforme Agréée. */
export function EinvoicingSettingsPage() {
  const utils = trpc.useUtils();
  const saved = trpc.einvoicing.settings.useQuery(undefined, { staleTime: 0 });
  const current = saved.data ? formOf(saved.data) : null;
  const { form, setForm, dirty } = useSavedForm(current);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [replacing, setReplacing] = useState({ client_secret: false, token: false });
  const save = trpc.einvoicing.saveSettings.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.einvoicing.settings.setData(undefined, answer.data);
      // Saving reads the organisation's own directory line again.
      void utils.einvoicing.ownDirectory.invalidate();
      setForm(formOf(answer.data));
      setReplacing({ client_secret: false, token: false });
    },
    onError: (error) => {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      revealFirstError(Object.keys(fields).length);
    },
  });

  if (!form || !saved.data)
    return (
      <SettingsFrame>
        {saved.isError ? (
          <p role="alert">Les paramètres de facturation électronique n’ont pas pu être chargés.</p>
        ) : (
          <Spinner label="Chargement des paramètres" />
        )}
      </SettingsFrame>
    );
  const stored = saved.data;
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setErrors(({ [key]: _, ...rest }) => rest);
    setForm({ ...form, [key]: value });
  };
  const text = (key: 'flow_url' | 'directory_url' | 'token_url' | 'client_id' | 'pa_matricule') => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
    error: errors[key],
    spellCheck: false,
    autoComplete: 'off',
  });

  return (
    <SettingsFrame>
      <section className={settingsCard} aria-labelledby="einvoicing-title">
        <h2 id="einvoicing-title" className={settingsSection}>
          Facturation électronique
        </h2>
        <p className={note}>
          Ce qui a été déposé, accepté, rejeté, reçu et déclaré :{' '}
          <Link href="/einvoicing" className={css({ color: 'accent.fg', fontWeight: '600' })}>
            suivi des flux et des déclarations
          </Link>
          .
        </p>
        <RadioGroup
          label="Connexion à la plateforme agréée"
          options={MODE_OPTIONS}
          value={form.mode}
          onChange={(value) => set('mode', value as Form['mode'])}
          orientation="vertical"
          name="mode"
        />
        <p className={note}>{MODE_NOTES[form.mode]}</p>

        {form.mode === 'afnor' && (
          <>
            <p className={settingsSection}>Services de la plateforme</p>
            <div className={settingsGrid}>
              <TextField label="URL du Flow Service" placeholder="https://api.plateforme.fr/flow-service" required {...text('flow_url')} />
              <TextField
                label="URL du Directory Service"
                placeholder="https://api.plateforme.fr/directory-service"
                required
                {...text('directory_url')}
              />
              <TextField
                label="Matricule de la plateforme"
                placeholder="0042"
                maxLength={4}
                required
                hint="4 caractères, donnés par votre plateforme (émetteur de l’e-reporting)"
                {...text('pa_matricule')}
              />
            </div>

            <p className={settingsSection}>Authentification</p>
            <RadioGroup
              label="Mode d’authentification"
              options={AUTH_OPTIONS}
              value={form.auth}
              onChange={(value) => set('auth', value as Auth)}
              name="auth"
            />
            {form.auth === 'oauth' ? (
              <div className={settingsGrid}>
                <TextField
                  label="URL du jeton OAuth2"
                  placeholder="https://auth.plateforme.fr/token"
                  required
                  {...text('token_url')}
                  // Nothing typed at all reads as « no authentication »: the server's word on it goes here.
                  error={errors.token_url ?? errors.token}
                />
                <TextField label="Identifiant client OAuth2" required {...text('client_id')} />
                <SecretField
                  label="Secret client OAuth2"
                  isSet={stored.client_secret_set}
                  value={form.client_secret}
                  replacing={replacing.client_secret}
                  onReplace={() => setReplacing({ ...replacing, client_secret: true })}
                  onChange={(value) => set('client_secret', value)}
                  error={errors.client_secret}
                />
              </div>
            ) : (
              <SecretField
                label="Jeton d’accès"
                isSet={stored.token_set}
                value={form.token}
                replacing={replacing.token}
                onReplace={() => setReplacing({ ...replacing, token: true })}
                onChange={(value) => set('token', value)}
                error={errors.token}
                hint="Le jeton « Bearer » fourni par votre plateforme"
              />
            )}
            <p className={note}>Les secrets sont chiffrés sur le serveur et ne sont jamais réaffichés.</p>

            <p className={settingsSection}>Format des factures déposées</p>
            <RadioGroup
              label="Format des factures"
              options={SYNTAX_OPTIONS}
              value={form.syntax}
              onChange={(value) => set('syntax', value as Form['syntax'])}
              name="syntax"
            />
            <RadioGroup
              label="Profil déclaré"
              options={PROFILE_OPTIONS}
              value={form.profile}
              onChange={(value) => set('profile', value as Form['profile'])}
              name="profile"
            />
            <p className={note}>Le profil « CIUS » convient sauf si votre plateforme demande le profil étendu.</p>

            {stored.mode === 'afnor' && <ConnectionCheck dirty={dirty} />}
            {stored.mode === 'afnor' && <OwnDirectory dirty={dirty} />}
          </>
        )}

        <SettingsActions
          dirty={dirty}
          saving={save.isPending}
          onUndo={() => {
            setForm(current);
            setReplacing({ client_secret: false, token: false });
            return setErrors({});
          }}
          onSave={() => {
            setErrors({});
            save.mutate(inputOf(form));
          }}
        />
      </section>
    </SettingsFrame>
  );
}
