import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { formatLimit, LIMIT_LABELS, planThatLifts } from '../../../shared/plans';
import { nearLimits, useSubscription } from './usage';

const styles = {
  banner: css({
    display: 'flex',
    flexWrap: 'wrap',
    gap: '2',
    alignItems: 'center',
    justifyContent: 'space-between',
    bg: 'warningSubtle',
    color: 'fg.default',
    borderWidth: '1px',
    borderColor: 'warning',
    borderRadius: 'lg',
    px: '4',
    py: '2.5',
    mb: '4',
    fontSize: 'sm',
  }),
  link: css({ fontWeight: '700', color: 'accent.fg', _hover: { textDecoration: 'underline' } }),
};

/**
 * The user sees a limit coming before the server refuses a creation — a gentle banner from 80 % of the
 * most used limit, naming the plan that lifts it. Nothing when limits are lifted or far.
 */
export function LimitBanner() {
  const subscription = useSubscription();
  const [top] = nearLimits(subscription.data);
  if (!subscription.data || !top) return null;
  // Past what this plan allows, not merely past what is used: never « Passer à Gratuit » from Gratuit.
  const lifter = planThatLifts(top.key, Math.max(top.used, top.limit));
  const reached = top.used >= top.limit;
  return (
    <div className={styles.banner} role="status" data-testid="limit-banner">
      <span>
        {reached ? 'Limite atteinte' : 'Bientôt la limite'} : {formatLimit(top.key, top.used)} sur {formatLimit(top.key, top.limit)}{' '}
        {LIMIT_LABELS[top.key]} avec la formule {subscription.data.plan_name}.
        {reached && ' La lecture, les exports et l’émission des brouillons restent possibles.'}
      </span>
      {lifter && (
        <Link href="/pricing" className={styles.link}>
          Passer à {lifter.name}
        </Link>
      )}
    </div>
  );
}
