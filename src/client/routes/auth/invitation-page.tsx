import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { acceptInvitationInputSchema, PASSWORD_MIN_LENGTH } from '../../../shared/schemas/auth';
import { ROLE_LABELS } from '../../../shared/roles';
import { trpc } from '../../trpc';
import { fieldErrors } from '../../lib/form';
import { TextField } from '../../components/ui/text-field';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { AlertIcon } from '../../components/icons';
import { PasswordField } from './password-field';
import * as s from './auth-styles';

const empty = { first_name: '', last_name: '', password: '' };

/**
 * /invitation?token=…: the mailed link. A new person creates their account, which joins the inviting
 * organisation; someone already logged in with the invited address joins with one click.
 */
export function InvitationPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const preview = trpc.auth.invitation.useQuery({ token }, { enabled: token !== '', meta: { silent: true } });
  const me = trpc.auth.me.useQuery(undefined, { meta: { silent: true } });
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const arrive = async () => {
    await utils.invalidate();
    navigate('/');
  };
  const accept = trpc.auth.acceptInvitation.useMutation({ onSuccess: arrive });
  const join = trpc.members.join.useMutation({ onSuccess: arrive });
  const set = (field: keyof typeof empty) => (e: { target: { value: string } }) => setValues({ ...values, [field]: e.target.value });

  if (!token || preview.isError) {
    return (
      <div className={s.form}>
        <div className={`${s.notice} ${s.noticeError}`} role="alert">
          <AlertIcon />
          <span>{preview.error?.message ?? 'Ce lien est incomplet. Ouvrez le lien reçu par e-mail.'}</span>
        </div>
        <Link href="/auth/login" className={s.link}>
          Se connecter
        </Link>
      </div>
    );
  }
  if (!preview.data || me.isPending) return <Spinner label="Chargement de l’invitation" />;
  const invitation = preview.data;
  const lead = (
    <p className={s.lead}>
      Vous êtes invité(e) à rejoindre <strong>{invitation.organization}</strong> en tant que <strong>{ROLE_LABELS[invitation.role]}</strong>
      .
    </p>
  );

  if (me.data) {
    return (
      <div className={s.form}>
        {lead}
        <p className={s.lead}>
          Vous êtes connecté(e) en tant que {me.data.email}. Vous pourrez passer d’une entreprise à l’autre depuis le menu.
        </p>
        <Button size="lg" block loading={join.isPending} onClick={() => join.mutate({ token })}>
          Rejoindre
        </Button>
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const { data, errors } = fieldErrors(acceptInvitationInputSchema, { ...values, token });
    setErrors(errors);
    if (data) accept.mutate(data);
  }

  return (
    <form className={s.form} onSubmit={submit} noValidate>
      {lead}
      <TextField label="Adresse e-mail" type="email" value={invitation.email} readOnly />
      <div className={s.row}>
        <TextField
          label="Prénom"
          autoComplete="given-name"
          autoFocus
          value={values.first_name}
          error={errors.first_name}
          onChange={set('first_name')}
        />
        <TextField label="Nom" autoComplete="family-name" value={values.last_name} error={errors.last_name} onChange={set('last_name')} />
      </div>
      <PasswordField
        label="Mot de passe"
        autoComplete="new-password"
        value={values.password}
        error={errors.password}
        hint={`${PASSWORD_MIN_LENGTH} caractères au moins`}
        onChange={set('password')}
      />
      <Button type="submit" size="lg" block loading={accept.isPending}>
        Créer mon compte et rejoindre
      </Button>
      <div className={s.links}>
        <span>Vous avez déjà un compte ?</span>
        <Link href="/auth/login" className={s.link}>
          Se connecter
        </Link>
      </div>
    </form>
  );
}
