import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { trpc } from '../../trpc';
import { preloadAuthValidation, withAuthValidation } from './load-validation';
import { TextField } from '../../components/ui/text-field';
import { Button } from '../../components/ui/button';
import { PasswordField } from './password-field';
import * as s from './auth-styles';

export function LoginPage() {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const login = trpc.auth.login.useMutation({
    onSuccess: (user) => {
      utils.auth.me.setData(undefined, user);
      navigate('/');
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    void withAuthValidation(({ validateLogin }) => {
      const { data, errors } = validateLogin(values);
      setErrors(errors);
      if (data) login.mutate(data);
    });
  }

  return (
    <form className={s.form} onSubmit={submit} onInput={preloadAuthValidation} onPointerDown={preloadAuthValidation} noValidate>
      <p className={s.lead}>Connectez-vous pour retrouver vos factures, devis et clients.</p>
      <TextField
        label="Adresse e-mail"
        type="email"
        autoComplete="email"
        autoFocus
        value={values.email}
        error={errors.email}
        onChange={(e) => setValues({ ...values, email: e.target.value })}
      />
      <PasswordField
        label="Mot de passe"
        autoComplete="current-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => setValues({ ...values, password: e.target.value })}
      />
      <Button type="submit" size="lg" block loading={login.isPending}>
        Se connecter
      </Button>
      <div className={s.links}>
        <Link href="/auth/password/forgot" className={s.link}>
          Mot de passe oublié ?
        </Link>
        <Link href="/auth/register" className={s.link}>
          Créer un compte
        </Link>
      </div>
    </form>
  );
}
