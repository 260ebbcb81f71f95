import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { trpc } from '../../trpc';
import { Spinner } from '../../components/ui/spinner';
import { AlertIcon, CheckCircleIcon } from '../../components/icons';
import * as s from './auth-styles';

/** Opened from the mailed link: activates the account at once, then says so. */
export function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const verify = trpc.auth.verifyEmail.useMutation({ meta: { silent: true } });
  const sent = useRef(false);
  useEffect(() => {
    if (token && !sent.current) {
      sent.current = true; // once, even under StrictMode's double effect
      verify.mutate({ token });
    }
  }, [token, verify]);

  if (!token || verify.isError) {
    const message = verify.error?.data?.messages ?? 'Ce lien d’activation est incomplet.';
    return (
      <div className={s.form}>
        <div className={`${s.notice} ${s.noticeError}`} role="alert">
          <AlertIcon />
          <span>{Array.isArray(message) ? message.join(' ') : message}</span>
        </div>
        <p className={s.lead}>Connectez-vous : vous pourrez recevoir un nouveau lien depuis votre compte.</p>
        <Link href="/auth/login" className={s.link}>
          Se connecter
        </Link>
      </div>
    );
  }
  if (verify.isSuccess) {
    return (
      <div className={s.form}>
        <div className={`${s.notice} ${s.noticeSuccess}`} role="status">
          <CheckCircleIcon />
          <span>{verify.data.messages}</span>
        </div>
        <Link href="/" className={s.link}>
          Aller à Facturier
        </Link>
      </div>
    );
  }
  return (
    <div className={s.form} role="status">
      <Spinner label="Activation en cours" />
      <p className={s.lead}>Activation de votre compte…</p>
    </div>
  );
}
