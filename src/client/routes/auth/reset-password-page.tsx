import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { PASSWORD_MIN_LENGTH } from '../../../shared/password-rules';
import { preloadAuthValidation, withAuthValidation } from './load-validation';
import { trpc } from '../../trpc';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { AlertIcon } from '../../components/icons';
import { PasswordField } from './password-field';
import * as s from './auth-styles';

export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});
  const reset = trpc.auth.resetPassword.useMutation({
    onSuccess: async (answer) => {
      showMessage(answer.messages, 200);
      await utils.auth.me.invalidate();
      navigate('/');
    },
  });

  if (!token) {
    return (
      <div className={s.form}>
        <div className={`${s.notice} ${s.noticeError}`} role="alert">
          <AlertIcon />
          <span>Ce lien est incomplet. Ouvrez le lien reçu par e-mail, ou demandez-en un nouveau.</span>
        </div>
        <Link href="/auth/password/forgot" className={s.link}>
          Demander un nouveau lien
        </Link>
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void withAuthValidation(({ newPasswordError }) => {
      const next = {
        password: newPasswordError(password),
        confirmation: password === confirmation ? undefined : 'Les deux mots de passe ne correspondent pas',
      };
      setErrors(next);
      if (!next.password && !next.confirmation) reset.mutate({ token, password });
    });
  }

  return (
    <form className={s.form} onSubmit={submit} onInput={preloadAuthValidation} onPointerDown={preloadAuthValidation} noValidate>
      <p className={s.lead}>
        Choisissez un nouveau mot de passe ({PASSWORD_MIN_LENGTH} caractères au moins). Vos autres sessions seront fermées.
      </p>
      <PasswordField
        label="Nouveau mot de passe"
        autoComplete="new-password"
        autoFocus
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <PasswordField
        label="Confirmer le mot de passe"
        autoComplete="new-password"
        value={confirmation}
        error={errors.confirmation}
        onChange={(e) => setConfirmation(e.target.value)}
      />
      <Button type="submit" size="lg" block loading={reset.isPending}>
        Enregistrer le mot de passe
      </Button>
    </form>
  );
}
