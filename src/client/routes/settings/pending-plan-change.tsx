import { css, cva } from '../../../../styled-system/css';
import { formatDateLong } from '../../../shared/format';
import { PLANS, type PlanId } from '../../../shared/plans';
import type { Subscription } from '../../../shared/schemas/subscription';
import { Button } from '../../components/ui/button';
import { parisDateOf, parisToday } from '../../../shared/paris-date';

/** The notes of this screen: a change held back by what still exceeds the plan asks for attention, the rest is quiet. */
const note = cva({
  base: {
    mt: '3',
    borderRadius: 'lg',
    px: '4',
    py: '3',
    fontSize: 'sm',
    display: 'flex',
    flexDirection: 'column',
    gap: '2',
    maxW: '2xl',
  },
  variants: {
    tone: {
      warning: { borderWidth: '1px', borderColor: 'warning', bg: 'warningSubtle' },
      quiet: { bg: 'bg.muted' },
    },
  },
  defaultVariants: { tone: 'quiet' },
});

const styles = {
  title: css({ fontWeight: '700', color: 'warning' }),
  list: css({ listStyle: 'disc', pl: '5', display: 'flex', flexDirection: 'column', gap: '1' }),
  muted: css({ color: 'fg.muted', fontSize: 'sm' }),
};

/** The plan a change in waiting leads to: the smaller plan asked for, or Gratuit after a cancellation. */
export function pendingTargetOf(s: Subscription): PlanId | null {
  if (s.plan === 'free') return null;
  return s.pending_plan ?? (s.cancel_at_period_end ? 'free' : null);
}

/** When the change applies, in French, following the server's rule (services/subscriptions.ts rollOver). */
function whenText(s: Subscription, target: PlanId): string {
  const name = PLANS[target].name;
  const end = s.current_period_end;
  const today = parisToday();
  if (s.pending_deadline) {
    return `Stripe facture déjà la formule ${name}. La formule ${s.plan_name} reste appliquée tant que votre usage dépasse les limites de la formule ${name}, et au plus tard jusqu’au ${formatDateLong(s.pending_deadline)}.`;
  }
  if (s.source === 'stripe' && s.cancel_at_period_end && !s.pending_plan) {
    return `À la fin de la période${end ? `, le ${formatDateLong(end)}` : ''}, la formule Gratuit s’appliquera : rien n’est supprimé, mais ce qui dépasse ses limites ne pourra plus être créé.`;
  }
  if (s.source === 'stripe') return `Il prendra effet dès que votre usage tiendra dans les limites de la formule ${name}.`;
  if (end && end < today) {
    return `La période s’est terminée le ${formatDateLong(end)} : la formule ${s.plan_name} continue jusqu’à ce que votre usage tienne dans les limites de la formule ${name}, puis le changement se fait tout seul.`;
  }
  const date = end ? `le ${formatDateLong(end)}` : 'à la fin de la période';
  return `Il prendra effet ${date} si votre usage tient alors dans ses limites, sinon dès qu’il y tiendra.`;
}

/**
 * Gérer mon abonnement: a change to a smaller plan in waiting, what still exceeds that plan, what it would
 * leave unused, and the way to keep the current plan. Nothing shows when no change is waiting.
 */
export function PendingPlanChange(props: { subscription: Subscription; isOwner: boolean; onKeep: () => void; keeping: boolean }) {
  const s = props.subscription;
  const target = pendingTargetOf(s);
  if (!target) return null;
  const name = PLANS[target].name;
  // A cancellation that fits Gratuit is already said by the period line: only what needs explaining shows.
  if (!s.pending_plan && s.pending_blockers.length === 0 && s.pending_losses.length === 0) return null;
  const waiting = s.pending_blockers.length > 0;
  return (
    <div className={note({ tone: waiting ? 'warning' : 'quiet' })} data-testid="pending-plan-change" role="status">
      <p className={waiting ? styles.title : undefined}>
        {s.pending_plan ? `Passage à la formule ${name} en attente` : `Résiliation : retour à la formule ${name}`}
      </p>
      <p>
        {s.pending_plan && !waiting && !s.pending_deadline && s.source !== 'stripe' && s.current_period_end
          ? `Il prendra effet le ${formatDateLong(s.current_period_end)}.`
          : whenText(s, target)}
      </p>
      {waiting && (
        <>
          <p>Ce qui dépasse encore les limites de la formule {name} :</p>
          <ul className={styles.list}>
            {s.pending_blockers.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </>
      )}
      {s.pending_losses.length > 0 && (
        <>
          <p>Avec la formule {name}, sans rien supprimer :</p>
          <ul className={styles.list}>
            {s.pending_losses.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </>
      )}
      {s.pending_plan && props.isOwner && !s.pending_deadline && (
        <div>
          <Button variant="outline" size="sm" loading={props.keeping} onClick={props.onKeep}>
            Garder la formule {s.plan_name}
          </Button>
        </div>
      )}
      {s.pending_since && <p className={styles.muted}>Demandé le {formatDateLong(parisDateOf(s.pending_since))}.</p>}
    </div>
  );
}

/** What the current plan leaves unused (API keys below Solo, webhooks below Équipe): kept, not deleted. */
export function DormantFeatures(props: { subscription: Subscription }) {
  const { dormant, plan_name } = props.subscription;
  if (dormant.length === 0) return null;
  return (
    <div className={note()} data-testid="dormant-features">
      <p>Conservé, mais hors de la formule {plan_name} :</p>
      <ul className={styles.list}>
        {dormant.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
    </div>
  );
}
