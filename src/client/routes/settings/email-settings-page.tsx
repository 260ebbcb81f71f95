import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { emailSettingsSchema } from '../../../shared/schemas/email-settings';
import { EMAIL_TEMPLATE_TYPES, type EmailTemplateType } from '../../../shared/email-template';
import { errorInfo, reportError, trpc } from '../../trpc';
import { revealFirstError } from '../../lib/reveal-error';
import { showMessage } from '../../stores/snackbar';
import { useSavedForm } from '../../lib/use-saved-form';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { EmailTemplateEditor } from './email-template-editor';
import { SenderAddressStatus } from './sender-address-status';
import { SettingsActions, SettingsFrame, settingsCard, settingsGrid, settingsSection } from './settings-frame';
import { fieldMessages } from '../../../shared/validation-messages';

const note = css({ fontSize: 'sm', color: 'fg.muted' });
const testFailed = css({ fontSize: 'sm', px: '3', py: '2', borderRadius: 'lg', color: 'danger', bg: 'dangerSubtle' });

/** Paramètres → Envoi d'emails: the sender, an optional SMTP server of one's own, and the mail templates per document type. */
export function EmailSettingsPage() {
  const utils = trpc.useUtils();
  const saved = trpc.emailSettings.get.useQuery(undefined, { staleTime: 0 });
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  const sender = trpc.emailSettings.sender.useQuery(undefined, { staleTime: 0 });
  const profile = trpc.organization.get.useQuery(undefined, { staleTime: 0 });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [type, setType] = useState<EmailTemplateType>('invoice');
  // An SMTP refusal stays on screen while the address is corrected (the snackbar goes after 5 s).
  const [testError, setTestError] = useState<string | null>(null);
  const current = saved.data ?? null;
  const { form, setForm, dirty } = useSavedForm(current);
  const save = trpc.emailSettings.update.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.emailSettings.get.setData(undefined, answer.data);
      setForm(answer.data);
      void utils.emailSettings.sender.invalidate();
    },
  });
  const sendTest = trpc.emailSettings.sendTest.useMutation({
    meta: { silent: true },
    onMutate: () => setTestError(null),
    onSuccess: (answer) => showMessage(answer.messages, 200),
    onError: (error) => {
      reportError(error);
      return setTestError([errorInfo(error).messages].flat().join(' '));
    },
  });

  if (!form)
    return (
      <SettingsFrame>
        {saved.isError ? <p>Les paramètres d’envoi n’ont pas pu être chargés.</p> : <Spinner label="Chargement des paramètres" />}
      </SettingsFrame>
    );
  const organizationName = me.data?.organization.name ?? '';
  const companyEmail = profile.data?.email ?? '';
  const set = (key: 'sender_address' | 'sender_name' | 'reply_to' | 'smtp_url') => (e: { target: { value: string } }) => {
    setErrors(({ [key]: _, ...rest }) => rest);
    setForm({ ...form, [key]: e.target.value });
  };

  function submit() {
    const result = emailSettingsSchema.safeParse(form);
    if (!result.success) {
      const next = fieldMessages(result.error.issues);
      setErrors(next);
      // Show the first template in error, which may not be the one on screen.
      const wrong = EMAIL_TEMPLATE_TYPES.find((t) => next[`templates.${t}.subject`] || next[`templates.${t}.body`]);
      if (wrong && !next[`templates.${type}.subject`] && !next[`templates.${type}.body`]) setType(wrong);
      revealFirstError(Object.keys(next).length);
      return;
    }
    setErrors({});
    save.mutate(result.data);
  }

  return (
    <SettingsFrame>
      <section className={settingsCard}>
        <p className={settingsSection}>Expéditeur</p>
        <div className={settingsGrid}>
          <TextField
            label="Adresse d’expédition"
            type="email"
            value={form.sender_address}
            onChange={set('sender_address')}
            error={errors.sender_address}
            placeholder="factures@exemple.fr"
            hint="Un lien de confirmation est envoyé à cette adresse : vos e-mails en partent une fois le lien ouvert"
          />
          <TextField
            label="Nom de l’expéditeur"
            value={form.sender_name}
            onChange={set('sender_name')}
            error={errors.sender_name}
            placeholder={organizationName}
            hint="Vide : le nom de votre entreprise"
          />
        </div>
        {sender.data && <SenderAddressStatus state={sender.data} dirty={dirty} />}
        <div className={settingsGrid}>
          <TextField
            label="Adresse de réponse"
            type="email"
            value={form.reply_to}
            onChange={set('reply_to')}
            error={errors.reply_to}
            placeholder={companyEmail || 'contact@exemple.fr'}
            hint={
              companyEmail
                ? `Les réponses de vos clients arrivent à cette adresse. Vide : ${companyEmail}, l’e-mail de votre entreprise`
                : 'Les réponses de vos clients arrivent à cette adresse. Vide : l’e-mail de votre entreprise (Infos de l’entreprise)'
            }
          />
        </div>

        <p className={settingsSection}>Serveur d’envoi</p>
        <TextField
          label="Serveur SMTP (facultatif)"
          value={form.smtp_url}
          onChange={set('smtp_url')}
          error={errors.smtp_url}
          placeholder="smtps://utilisateur:motdepasse@smtp.exemple.fr:465"
          autoComplete="off"
          spellCheck={false}
          hint="Vide : les e-mails partent par la configuration du serveur Facturier. Le mot de passe enregistré s’affiche ******** : laissez-le tel quel pour le conserver."
        />
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center' })}>
          <Button variant="outline" onClick={() => sendTest.mutate()} loading={sendTest.isPending} disabled={dirty}>
            Envoyer un e-mail de test
          </Button>
          <span className={note}>
            {dirty
              ? 'Enregistrez d’abord vos modifications : le test utilise les paramètres enregistrés.'
              : `Le modèle « Facture » sera envoyé à ${me.data?.email ?? 'votre adresse'}.`}
          </span>
        </div>
        {testError && (
          <p role="alert" className={testFailed}>
            {testError}
          </p>
        )}

        <p className={settingsSection}>Modèles d’e-mail</p>
        <EmailTemplateEditor
          type={type}
          onTypeChange={setType}
          templates={form.templates}
          onChange={(t, template) => {
            setErrors(({ [`templates.${t}.subject`]: _s, [`templates.${t}.body`]: _b, ...rest }) => rest);
            setForm({ ...form, templates: { ...form.templates, [t]: template } });
          }}
          errors={errors}
          organizationName={organizationName}
          senderName={form.sender_name}
          replyTo={form.reply_to || companyEmail}
        />

        <SettingsActions
          dirty={dirty}
          saving={save.isPending}
          onUndo={() => {
            setForm(current);
            return setErrors({});
          }}
          onSave={submit}
        />
      </section>
    </SettingsFrame>
  );
}
