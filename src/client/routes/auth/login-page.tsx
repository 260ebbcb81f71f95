import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { NETWORK_ERROR, PlainCallError, signIn, type ErrorInfo } from '../../lib/plain-call';
import { showMessage } from '../../stores/snackbar';
import { preloadAuthValidation, withAuthValidation } from './load-validation';
import { TextField } from '../../components/ui/text-field';
import { Button } from '../../components/ui/button';
import { PasswordField } from './password-field';
import * as s from './auth-styles';

// The data layer every page after this one needs: fetched while the user types, not before (the login page alone stays
// small).
const loadDataLayer = () => import('../../data-layer');
const preloadDataLayer = () => void loadDataLayer().catch(() => undefined);

export function LoginPage() {
  const [, navigate] = useLocation();
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function logIn(data: { email: string; password: string }) {
    setPending(true);
    let user: Awaited<ReturnType<typeof signIn>>;
    try {
      // auth.login through its REST door: the same procedure, without the tRPC client.
      user = await signIn(data);
    } catch (error) {
      // The answer's messages in the snackbar, coloured by status.
      const { messages, status }: ErrorInfo = error instanceof PlainCallError ? error : { messages: NETWORK_ERROR, status: 400 };
      showMessage(messages, status);
      setPending(false);
      return;
    }
    // A data layer that cannot be downloaded is told by the next page's own notice, with « Recharger la page ».
    await loadDataLayer().then(
      ({ rememberSignedInUser }) => rememberSignedInUser(user),
      () => undefined,
    );
    navigate('/');
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void withAuthValidation(({ validateLogin }) => {
      const { data, errors } = validateLogin(values);
      setErrors(errors);
      if (data) void logIn(data);
    });
  }

  function prepare() {
    preloadAuthValidation();
    preloadDataLayer();
  }

  return (
    <form className={s.form} onSubmit={submit} onInput={prepare} onPointerDown={prepare} noValidate>
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
      <Button type="submit" size="lg" block loading={pending}>
        Se connecter
      </Button>
      <div className={s.links}>
        <Link href="/auth/password/forgot" className={s.link}>
          Mot de passe oublié ?
        </Link>
        <Link href="/auth/register" className={s.link}>
          Créer un compte
        </Link>
      </div>
    </form>
  );
}
