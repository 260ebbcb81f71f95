import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { trpc } from '../../trpc';
import { preloadAuthValidation, withAuthValidation } from './load-validation';
import { TextField } from '../../components/ui/text-field';
import { Button } from '../../components/ui/button';
import { CheckCircleIcon } from '../../components/icons';
import * as s from './auth-styles';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const forgot = trpc.auth.forgotPassword.useMutation();

  function submit(event: FormEvent) {
    event.preventDefault();
    void withAuthValidation(({ validateForgotPassword }) => {
      const { data, errors } = validateForgotPassword({ email });
      setError(errors.email);
      if (data) forgot.mutate(data);
    });
  }

  if (forgot.isSuccess) {
    return (
      <div className={s.form}>
        <div className={`${s.notice} ${s.noticeSuccess}`} role="status">
          <CheckCircleIcon />
          <span>{forgot.data.messages}</span>
        </div>
        <p className={s.lead}>Pensez à regarder dans les courriers indésirables. Le lien est valable une heure.</p>
        <Link href="/auth/login" className={s.link}>
          Retour à la connexion
        </Link>
      </div>
    );
  }

  return (
    <form className={s.form} onSubmit={submit} onInput={preloadAuthValidation} onPointerDown={preloadAuthValidation} noValidate>
      <p className={s.lead}>Indiquez l’adresse de votre compte : nous vous envoyons un lien pour choisir un nouveau mot de passe.</p>
      <TextField
        label="Adresse e-mail"
        type="email"
        autoComplete="email"
        autoFocus
        value={email}
        error={error}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Button type="submit" size="lg" block loading={forgot.isPending}>
        Envoyer le lien
      </Button>
      <Link href="/auth/login" className={s.link}>
        Retour à la connexion
      </Link>
    </form>
  );
}
