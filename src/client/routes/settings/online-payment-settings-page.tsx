import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import type { OnlinePaymentSettings, OnlinePaymentSettingsInput } from '../../../shared/schemas/online-payment';
import { errorInfo, fieldErrorsOf, trpc } from '../../trpc';
import { showMessage } from '../../stores/snackbar';
import { confirm } from '../../stores/confirm';
import { copyText } from '../../lib/copy-text';
import { useSavedForm } from '../../lib/use-saved-form';
import { revealFirstError } from '../../lib/reveal-error';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { SettingsActions, SettingsFrame, settingsCard, settingsGrid, settingsSection } from './settings-frame';
import { SecretField } from './einvoicing/secret-field';

const styles = {
  note: css({ fontSize: 'sm', color: 'fg.muted' }),
  state: css({ fontSize: 'sm', px: '3', py: '2', borderRadius: 'lg', fontWeight: '600' }),
  on: css({ color: 'success', bg: 'successSubtle' }),
  off: css({ color: 'fg.muted', bg: 'bg.muted' }),
  url: css({
    display: 'flex',
    alignItems: 'center',
    gap: '2',
    flexWrap: 'wrap',
    fontFamily: 'mono',
    fontSize: 'sm',
    px: '3',
    py: '2',
    borderRadius: 'lg',
    borderWidth: '1px',
    borderColor: 'border.default',
    overflowWrap: 'anywhere',
  }),
  events: css({ fontSize: 'sm', pl: '5', listStyle: 'disc', '& code': { fontFamily: 'mono' } }),
  row: css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center' }),
  ok: css({ fontSize: 'sm', px: '3', py: '2', borderRadius: 'lg', color: 'success', bg: 'successSubtle' }),
  failed: css({ fontSize: 'sm', px: '3', py: '2', borderRadius: 'lg', color: 'danger', bg: 'dangerSubtle' }),
};

/** The form: the publishable key as saved, and the secrets being typed ('' = keep the stored one). */
interface Form {
  publishable_key: string;
  secret_key: string;
  webhook_secret: string;
}
const formOf = (saved: OnlinePaymentSettings): Form => ({ publishable_key: saved.publishable_key, secret_key: '', webhook_secret: '' });
const inputOf = (form: Form): OnlinePaymentSettingsInput => ({
  publishable_key: form.publishable_key,
  ...(form.secret_key !== '' ? { secret_key: form.secret_key } : {}),
  ...(form.webhook_secret !== '' ? { webhook_secret: form.webhook_secret } : {}),
});

type Outcome = { ok: boolean; text: string };

/**
 * Paramètres → Paiement en ligne: the organisation's own Stripe keys. With all three saved, its customers get « Payer par
 * carte » on the public page of each unpaid invoice, and each payment is recorded on the invoice when Stripe says so.
 */
export function OnlinePaymentSettingsPage() {
  const utils = trpc.useUtils();
  const saved = trpc.onlinePayment.settings.useQuery(undefined, { staleTime: 0 });
  const current = saved.data ? formOf(saved.data) : null;
  const { form, setForm, dirty } = useSavedForm(current);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [replacing, setReplacing] = useState({ secret_key: false, webhook_secret: false });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const settle = (data: OnlinePaymentSettings) => {
    utils.onlinePayment.settings.setData(undefined, data);
    setForm(formOf(data));
    setReplacing({ secret_key: false, webhook_secret: false });
    setErrors({});
  };
  const save = trpc.onlinePayment.saveSettings.useMutation({
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      settle(answer.data);
    },
    onError: (error) => {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      revealFirstError(Object.keys(fields).length);
    },
  });
  const remove = trpc.onlinePayment.removeSettings.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      setOutcome(null);
      settle(answer.data);
    },
  });
  const check = trpc.onlinePayment.check.useMutation({
    meta: { silent: true },
    onMutate: () => setOutcome(null),
    onSuccess: (answer) => setOutcome({ ok: true, text: answer.messages }),
    onError: (error) => setOutcome({ ok: false, text: [errorInfo(error).messages].flat().join(' ') }),
  });

  if (!form || !saved.data)
    return (
      <SettingsFrame>
        {saved.isError ? (
          <p role="alert">Les paramètres de paiement en ligne n’ont pas pu être chargés.</p>
        ) : (
          <Spinner label="Chargement des paramètres" />
        )}
      </SettingsFrame>
    );
  const stored = saved.data;
  const set = (key: keyof Form, value: string) => {
    setErrors(({ [key]: _, ...rest }) => rest);
    setForm({ ...form, [key]: value });
  };
  const anything = stored.publishable_key !== '' || stored.secret_key_set || stored.webhook_secret_set;

  return (
    <SettingsFrame>
      <section className={settingsCard} aria-labelledby="online-payment-title">
        <h2 id="online-payment-title" className={settingsSection}>
          Paiement par carte avec Stripe
        </h2>
        <p className={styles.note}>
          Avec les clés de votre propre compte Stripe, vos clients règlent vos factures par carte depuis leur lien de partage (bouton
          « Payer par carte ») : le paiement arrive sur votre compte Stripe et s’enregistre sur la facture, avec la commission de Stripe.
        </p>
        <p className={`${styles.state} ${stored.enabled ? styles.on : styles.off}`} data-testid="online-payment-state">
          {stored.enabled
            ? `Actif${stored.mode === 'test' ? ' — mode test : aucune carte réelle n’est débitée' : ''}`
            : 'Inactif : enregistrez les trois clés ci-dessous pour proposer le paiement par carte'}
        </p>

        <p className={settingsSection}>Clés API (Stripe → Développeurs → Clés API)</p>
        <div className={settingsGrid}>
          <TextField
            label="Clé publiable"
            placeholder="pk_live_…"
            value={form.publishable_key}
            onChange={(e) => set('publishable_key', e.target.value.trim())}
            error={errors.publishable_key}
            spellCheck={false}
            autoComplete="off"
            required
          />
          <SecretField
            label="Clé secrète"
            storedLabel="Clé enregistrée"
            isSet={stored.secret_key_set}
            value={form.secret_key}
            replacing={replacing.secret_key}
            onReplace={() => setReplacing({ ...replacing, secret_key: true })}
            onChange={(value) => set('secret_key', value.trim())}
            error={errors.secret_key}
            hint="sk_live_… ou une clé restreinte rk_live_… ; essayée sur Stripe avant d’être enregistrée, puis gardée chiffrée"
          />
        </div>

        <p className={settingsSection}>Webhook (Stripe → Développeurs → Webhooks)</p>
        <p className={styles.note}>
          Ajoutez dans Stripe un point de terminaison à cette adresse, avec les événements ci-dessous, puis collez ici son secret de
          signature : c’est ainsi que Facturier apprend qu’une facture est payée.
        </p>
        <div className={styles.url}>
          <span data-testid="online-payment-webhook-url">{stored.webhook_url}</span>
          <Button size="sm" variant="outline" onClick={() => void copyText(stored.webhook_url, 'Adresse copiée')}>
            Copier
          </Button>
        </div>
        <ul className={styles.events} aria-label="Événements à envoyer">
          {stored.events.map((event) => (
            <li key={event}>
              <code>{event}</code>
            </li>
          ))}
        </ul>
        <SecretField
          label="Secret de signature du webhook"
          storedLabel="Clé enregistrée"
          isSet={stored.webhook_secret_set}
          value={form.webhook_secret}
          replacing={replacing.webhook_secret}
          onReplace={() => setReplacing({ ...replacing, webhook_secret: true })}
          onChange={(value) => set('webhook_secret', value.trim())}
          error={errors.webhook_secret}
          hint="whsec_…, affiché par Stripe sur la page du point de terminaison"
        />

        <div className={styles.row}>
          <Button variant="outline" onClick={() => check.mutate()} loading={check.isPending} disabled={dirty || !stored.secret_key_set}>
            Tester
          </Button>
          <span className={styles.note}>
            {dirty
              ? 'Enregistrez d’abord vos modifications : le test utilise la clé enregistrée.'
              : 'Appelle l’API de Stripe avec la clé secrète enregistrée.'}
          </span>
          {anything && (
            <Button
              variant="ghost"
              className={css({ ml: 'auto', color: 'danger' })}
              loading={remove.isPending}
              onClick={async () => {
                const sure = await confirm(
                  'Supprimer les clés Stripe ? Le bouton « Payer par carte » disparaîtra aussitôt des pages de vos factures ; les paiements déjà reçus restent enregistrés.',
                  { title: 'Désactiver le paiement par carte', confirmLabel: 'Supprimer', width: 420 },
                );
                if (sure) remove.mutate();
              }}
            >
              Supprimer les clés
            </Button>
          )}
        </div>
        {outcome && (
          <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? styles.ok : styles.failed}>
            {outcome.text}
          </p>
        )}

        <SettingsActions
          dirty={dirty}
          saving={save.isPending}
          onUndo={() => {
            setForm(current);
            setReplacing({ secret_key: false, webhook_secret: false });
            return setErrors({});
          }}
          onSave={() => save.mutate(inputOf(form))}
        />
      </section>
    </SettingsFrame>
  );
}
