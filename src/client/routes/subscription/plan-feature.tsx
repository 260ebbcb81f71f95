import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { featureRefusal, PLANS, type PlanFeature } from '../../../shared/plans';
import { useSubscription } from './usage';

/** Whether the plan includes a feature; true while unknown or when the server lifts every limit (it decides anyway). */
export function usePlanIncludes(feature: PlanFeature): boolean {
  const subscription = useSubscription().data;
  return !subscription?.limits_enforced || PLANS[subscription.plan][feature];
}

/** Where a feature is created: the server's own 402 message, said before the user tries, with the way to the plans. */
export function PlanFeatureNote({ feature }: { feature: PlanFeature }) {
  const subscription = useSubscription().data;
  if (!subscription?.limits_enforced || PLANS[subscription.plan][feature]) return null;
  return (
    <p className={css({ fontSize: 'sm', color: 'warning' })} data-testid={`plan-feature-${feature}`}>
      {featureRefusal(feature, PLANS[subscription.plan]).replace(/ \(Paramètres → Gérer mon abonnement\)\.$/, '.')}{' '}
      <Link href="/pricing" className={css({ fontWeight: '700', color: 'accent.fg' })}>
        Voir les formules
      </Link>
    </p>
  );
}
