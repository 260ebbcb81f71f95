import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { css } from '../../../../styled-system/css';
import type { AppSettings } from '../../../shared/schemas/settings';
import { formattersOf } from '../../render/labels';
import { errorInfo, trpc } from '../../trpc';
import { Button } from '../../components/ui/button';

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
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '3',
    fontSize: 'sm',
  }),
  title: css({ fontWeight: '700', fontSize: 'md' }),
  due: css({ color: 'fg.muted' }),
  received: css({ color: 'success', fontWeight: '600' }),
  cancelled: css({ color: 'fg.muted', fontWeight: '600' }),
  error: css({ color: 'danger', w: 'full' }),
};

/** Seconds between two looks at the invoice while Stripe's confirmation is on its way, and how many looks at most. */
const POLL_MS = 2000;
const POLL_TRIES = 90;

/**
 * « Payer par carte » on an invoice's public page: the customer goes to Stripe's payment page for what is left to pay,
 * and comes back here with « Paiement reçu, merci » or « Paiement annulé ». Back from a payment, the page looks again
 * until Stripe's confirmation has reached the server and the invoice shows paid.
 */
export function CardPayment({
  uuid,
  available,
  balance,
  settings,
}: {
  uuid: string;
  available: boolean;
  balance: { currency: string; amount_due: number };
  settings: AppSettings;
}) {
  const utils = trpc.useUtils();
  const back = new URLSearchParams(useSearch()).get('paiement');
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const checkout = trpc.share.checkout.useMutation({
    meta: { silent: true },
    onMutate: () => setError(null),
    onSuccess: ({ url }) => {
      setLeaving(true);
      window.location.assign(url);
    },
    onError: (failure) => setError([errorInfo(failure).messages].flat().join(' ')),
  });
  const settled = balance.amount_due <= 0;
  const waiting = back === 'recu' && !settled;

  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      if (tries > POLL_TRIES) clearInterval(timer);
      else void utils.share.get.invalidate({ uuid });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, utils, uuid]);

  if (back === 'recu') {
    return (
      <section className={styles.card} aria-label="Paiement par carte" data-print-hidden>
        <p role="status" className={styles.received}>
          Paiement reçu, merci
        </p>
        <span className={styles.due}>
          {settled ? 'La facture est réglée.' : 'La facture sera marquée payée dès que Stripe aura confirmé le paiement.'}
        </span>
      </section>
    );
  }
  if (!available) return null;
  const f = formattersOf(settings, balance.currency);
  return (
    <section className={styles.card} aria-label="Paiement par carte" data-testid="card-payment" data-print-hidden>
      <div>
        {back === 'annule' && (
          <p role="status" className={styles.cancelled}>
            Paiement annulé
          </p>
        )}
        <p className={styles.title}>Régler cette facture par carte bancaire</p>
        <p className={styles.due}>Reste à payer : {f.money(balance.amount_due)} — paiement sécurisé par Stripe</p>
      </div>
      <Button onClick={() => checkout.mutate({ uuid })} loading={checkout.isPending || leaving}>
        Payer par carte
      </Button>
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
    </section>
  );
}
