import { roleCan, type Capability } from '../../shared/roles';
import { trpc } from '../trpc';

/**
 * Whether the user's role in the current organisation holds a capability (shared/roles.ts): screens hide what the
 * server would refuse. False until the user is known, so a write button never flashes for an accountant.
 */
export function useCan(capability: Capability): boolean {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  return me.data ? roleCan(me.data.role, capability) : false;
}
