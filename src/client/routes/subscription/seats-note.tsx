import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { planThatLifts } from '../../../shared/plans';
import { useSubscription } from './usage';

/** Where people are invited: the seats left, and once none is, the plan that gives more (before the server's 402). */
export function SeatsNote() {
  const subscription = useSubscription().data;
  const seats = subscription?.usage.find((u) => u.key === 'members');
  if (!subscription?.limits_enforced || !seats || seats.limit === null) return null;
  const full = seats.used >= seats.limit;
  const lifter = planThatLifts('members', Math.max(seats.used, seats.limit));
  return (
    <p className={css({ fontSize: 'sm', color: full ? 'warning' : 'fg.muted' })} data-testid="seats-note">
      {seats.used} place{seats.used > 1 ? 's' : ''} occupée{seats.used > 1 ? 's' : ''} sur {seats.limit} avec la formule{' '}
      {subscription.plan_name} (invitations en attente comprises).
      {full && lifter && (
        <>
          {' '}
          <Link href="/pricing" className={css({ fontWeight: '700', color: 'accent.fg' })}>
            Passer à {lifter.name}
          </Link>{' '}
          pour inviter d’autres personnes.
        </>
      )}
    </p>
  );
}
