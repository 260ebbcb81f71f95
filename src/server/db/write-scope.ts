import { ScopedStore } from '../scoped-store';

interface WriteScope {
  organizationId: number;
  open: boolean;
}

/** Entered by writes only (trpc.ts): a read holds no scope, so reads under load pay for no async context. */
const scopes = new ScopedStore<WriteScope>();

/**
 * Runs a procedure's work as acting for one organisation, so that the data generation (data-generation.ts) can tell
 * whose data a write changes when its statement does not name the organisation (the search index's, a document's
 * lines). The scope closes when the work ends: a timer or a delivery it left running inherits the scope, but may
 * write for anyone by then, so its writes count as the whole database's.
 */
export async function actingFor<T>(organizationId: number, work: () => Promise<T>): Promise<T> {
  const scope: WriteScope = { organizationId, open: true };
  try {
    return await scopes.run(scope, work);
  } finally {
    scope.open = false;
  }
}

/** The organisation the running procedure acts for; null outside one (a script, a job, a public page, a person's own account). */
export function actingOrganization(): number | null {
  const scope = scopes.getStore();
  return scope?.open ? scope.organizationId : null;
}

/**
 * Runs `work` as acting for no organisation, from inside a procedure too: for a background run that the procedure
 * only starts (webhook deliveries, the e-invoice outbox), which writes for every organisation and may do so before
 * the procedure has ended.
 */
export function actingForNoOrganization<T>(work: () => T): T {
  return scopes.exit(work);
}
