import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { PASSWORD_MIN_LENGTH } from '../../../shared/password-rules';
import { trpc } from '../../trpc';
import { preloadAuthValidation, withAuthValidation } from './load-validation';
import { TextField } from '../../components/ui/text-field';
import { Button } from '../../components/ui/button';
import { PasswordField } from './password-field';
import * as s from './auth-styles';

const empty = { first_name: '', last_name: '', organization: '', email: '', password: '' };

export function RegisterPage() {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const register = trpc.auth.register.useMutation({
    onSuccess: (user) => {
      utils.auth.me.setData(undefined, user);
      navigate('/');
    },
  });
  const set = (field: keyof typeof empty) => (e: { target: { value: string } }) => setValues({ ...values, [field]: e.target.value });

  function submit(event: FormEvent) {
    event.preventDefault();
    void withAuthValidation(({ validateRegister }) => {
      const { data, errors } = validateRegister(values);
      setErrors(errors);
      if (data) register.mutate(data);
    });
  }

  return (
    <form className={s.form} onSubmit={submit} onInput={preloadAuthValidation} onPointerDown={preloadAuthValidation} noValidate>
      <p className={s.lead}>Créez votre compte et celui de votre entreprise en une minute.</p>
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
      <TextField
        label="Entreprise"
        autoComplete="organization"
        value={values.organization}
        error={errors.organization}
        onChange={set('organization')}
      />
      <TextField
        label="Adresse e-mail"
        type="email"
        autoComplete="email"
        value={values.email}
        error={errors.email}
        onChange={set('email')}
      />
      <PasswordField
        label="Mot de passe"
        autoComplete="new-password"
        value={values.password}
        error={errors.password}
        hint={`${PASSWORD_MIN_LENGTH} caractères au moins`}
        onChange={set('password')}
      />
      <Button type="submit" size="lg" block loading={register.isPending}>
        Créer mon compte
      </Button>
      <div className={s.links}>
        <span>Déjà inscrit(e) ?</span>
        <Link href="/auth/login" className={s.link}>
          Se connecter
        </Link>
      </div>
    </form>
  );
}
