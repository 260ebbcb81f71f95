import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import { trpc, errorInfo } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { Field, Textarea } from '../../components/ui/field';
import { Checkbox } from '../../components/ui/checkbox';
import { parisDateOf } from '../../../shared/paris-date';

const styles = {
  card: css({
    w: 'full',
    maxW: '820px',
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: '4',
    display: 'flex',
    flexDirection: 'column',
    gap: '3',
    fontSize: 'sm',
  }),
  title: css({ fontWeight: '700', fontSize: 'md' }),
  row: css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' }),
  tick: css({ fontWeight: '600' }),
  textarea: css({ h: '24' }),
  done: css({ color: 'success', fontWeight: '600' }),
  closed: css({ color: 'fg.muted' }),
  error: css({ color: 'danger', fontSize: 'sm' }),
};

const time = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
const when = (iso: string) => `le ${formatDateShort(parisDateOf(iso))} à ${time.format(new Date(iso))}`;

/**
 * « Accepter » / « Refuser » under an issued estimate on its public page. Accepting asks the signer's name and the
 * « Bon pour accord » tick; refusing asks why. Past its validity date, the estimate can no longer be accepted.
 */
export function QuoteAnswer({ uuid, seller }: { uuid: string; seller: string }) {
  const utils = trpc.useUtils();
  const quote = trpc.share.quote.useQuery({ uuid }, { meta: { silent: true }, retry: false });
  const [mode, setMode] = useState<'accept' | 'refuse' | null>(null);
  const [name, setName] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [thanks, setThanks] = useState<string | null>(null);
  const done = {
    meta: { silent: true },
    onSuccess: (answer: { messages: string }) => {
      setThanks(answer.messages);
      setMode(null);
      void utils.share.quote.invalidate();
    },
    onError: (failure: unknown) => setError([errorInfo(failure).messages].flat().join(' ')),
  };
  const accept = trpc.share.accept.useMutation(done);
  const refuse = trpc.share.refuse.useMutation(done);
  const guard = useActionGuard();

  const state = quote.data;
  if (!state || state.state === 'closed') return null;
  if (state.state !== 'pending') {
    return (
      <section className={styles.card} aria-label="Réponse au devis" data-print-hidden>
        {thanks && <p role="status">{thanks}</p>}
        <p className={state.state === 'accepted' ? styles.done : styles.closed}>
          {state.state === 'accepted'
            ? `Devis accepté${state.answered ? ` par ${state.answered.name} ${when(state.answered.at)}` : ''} — « Bon pour accord »`
            : `Devis refusé${state.answered ? ` ${when(state.answered.at)}` : ''}`}
        </p>
      </section>
    );
  }
  if (state.expired) {
    return (
      <section className={styles.card} aria-label="Réponse au devis" data-print-hidden>
        <p className={styles.closed}>
          Ce devis n’est plus valable depuis le {formatDateShort(state.valid_until ?? '')} : il ne peut plus être accepté en ligne.
          Contactez {seller} pour en obtenir un nouveau.
        </p>
      </section>
    );
  }
  const open = (next: 'accept' | 'refuse') => {
    setError(null);
    setMode(next);
  };
  return (
    <section className={styles.card} aria-label="Réponse au devis" data-print-hidden>
      <p className={styles.title}>Ce devis vous convient ?</p>
      {state.valid_until && <p>Valable jusqu’au {formatDateShort(state.valid_until)}.</p>}
      {mode === null && (
        <div className={styles.row}>
          <Button onClick={() => open('accept')}>Accepter</Button>
          <Button variant="outline" onClick={() => open('refuse')}>
            Refuser
          </Button>
        </div>
      )}
      {mode === 'accept' && (
        <form
          className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            void guard(() => accept.mutateAsync({ uuid, name, bon_pour_accord: agreed }));
          }}
        >
          <TextField label="Nom et prénom du signataire" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          <Checkbox className={styles.tick} checked={agreed} onChange={setAgreed}>
            Bon pour accord
          </Checkbox>
          <p className={css({ color: 'fg.muted', fontSize: 'xs' })}>
            En acceptant, vous donnez votre accord sur ce devis ; votre nom, la date, l’heure et votre adresse IP sont enregistrés et
            transmis à {seller}.
          </p>
          <div className={styles.row}>
            <Button type="submit" loading={accept.isPending} disabled={!agreed || name.trim() === ''}>
              Accepter le devis
            </Button>
            <Button variant="ghost" onClick={() => setMode(null)}>
              Annuler
            </Button>
          </div>
        </form>
      )}
      {mode === 'refuse' && (
        <form
          className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            void guard(() => refuse.mutateAsync({ uuid, reason }));
          }}
        >
          <Field label="Motif du refus">
            <Textarea className={styles.textarea} value={reason} onChange={(e) => setReason(e.target.value)} />
          </Field>
          <div className={styles.row}>
            <Button type="submit" variant="outline" loading={refuse.isPending} disabled={reason.trim() === ''}>
              Refuser le devis
            </Button>
            <Button variant="ghost" onClick={() => setMode(null)}>
              Annuler
            </Button>
          </div>
        </form>
      )}
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </section>
  );
}
