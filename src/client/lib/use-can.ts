import { roleAllows } from '../../shared/roles';
import { PROCEDURE_RULES, type Procedure } from './procedure-rules';
import { trpc } from '../trpc';

/**
 * Whether the user's role in the current organisation may call a procedure, read from the rule the procedure itself
 * carries (procedure-rules.ts, written from the router): screens hide what the server would refuse with a 403. False
 * until the user is known, so a write button never flashes for an accountant.
 */
export function useCan(procedure: Procedure): boolean {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  return me.data ? roleAllows(me.data.role, PROCEDURE_RULES[procedure]) : false;
}

/** The same check for a list of things to filter (menu entries, shortcuts): one hook call, a function to ask. */
export function useCanCall(): (procedure: Procedure) => boolean {
  const me = trpc.auth.me.useQuery(undefined, { staleTime: Infinity });
  return (procedure) => (me.data ? roleAllows(me.data.role, PROCEDURE_RULES[procedure]) : false);
}
