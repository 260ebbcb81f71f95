import { roleMayCall, type Procedure } from '../../shared/permissions';
import { trpc } from '../trpc';

/**
 * Whether the user's role in the current organisation may call a procedure, read from the server's own table
 * (shared/permissions.ts): screens hide what the server would refuse with a 403. False until the user is known, so a
 * write button never flashes for an accountant.
 */
export function useCan(procedure: Procedure): boolean {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  return me.data ? roleMayCall(me.data.role, procedure) : false;
}

/** The same check for a list of things to filter (menu entries, shortcuts): one hook call, a function to ask. */
export function useCanCall(): (procedure: Procedure) => boolean {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  return (procedure) => (me.data ? roleMayCall(me.data.role, procedure) : false);
}
