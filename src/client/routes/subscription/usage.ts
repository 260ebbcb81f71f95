import { formatLimit, LIMIT_LABELS, type LimitKey } from '../../../shared/plans';
import type { Subscription } from '../../../shared/schemas/subscription';
import { trpc } from '../../trpc';

/** A counter shows its warning colour and the banner appears from this share of a limit. */
export const NEAR_LIMIT = 0.8;

export const usageText = (key: LimitKey, used: number, limit: number | null): string =>
  limit === null
    ? `${formatLimit(key, used)} ${LIMIT_LABELS[key]} · illimité`
    : `${formatLimit(key, used)} sur ${formatLimit(key, limit)} ${LIMIT_LABELS[key]}`;

/**
 * Limits that grow with the work (documents, storage) reached or nearly so, the most used first; none when the server
 * lifts every limit. Seats are left out: a one-person business on one seat is not "near a limit", and the team page
 * shows its own counter where people are invited.
 */
export function nearLimits(subscription: Subscription | undefined) {
  if (!subscription?.limits_enforced) return [];
  return subscription.usage
    .filter(
      (u): u is typeof u & { limit: number } => u.key !== 'members' && u.limit !== null && u.limit > 0 && u.used >= u.limit * NEAR_LIMIT,
    )
    .sort((a, b) => b.used / b.limit - a.used / a.limit);
}

/** The organisation's plan: the top bar, the banner and the subscription pages share this one query. */
export const useSubscription = () => trpc.subscription.get.useQuery(undefined, { staleTime: 30_000 });
