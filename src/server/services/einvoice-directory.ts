import type { Db } from '../db/connection';
import type { Env } from '../env';
import { fail } from '../errors';
import { logger } from '../logger';
import { nowIso } from '../clock';
import { AfnorClient } from '../einvoice/afnor/client';
import { AfnorError } from '../einvoice/afnor/errors';
import { type DirectoryAddress, type DirectoryListing, lookupSiren } from '../einvoice/afnor/directory';
import { findCustomer, setCustomerDirectory } from '../db/queries/customers';
import type { Customer, CustomerRecord } from '../../shared/schemas/customer';
import { customerDirectoryWarning, electronicAddressProblem, sirenOfCustomer } from '../../shared/einvoice-directory';
import { afnorConnectionOf, getEinvoicingSettings } from './einvoicing-settings';
import { createCustomer, editCustomer, getCustomer } from './customers';

interface Deps {
  db: Db;
  env: Env;
}

/** GET /api/directory/{siren}: the directory's listing, or 404 when the SIREN is not listed there. */
export async function directoryListing(deps: Deps, organizationId: number, siren: string): Promise<DirectoryListing> {
  const client = new AfnorClient(await afnorConnectionOf(deps, organizationId));
  const listing = await lookupOrBadGateway(client, siren);
  return listing ?? fail('NOT_FOUND', `Le SIREN ${siren} n’est pas inscrit à l’annuaire de la facturation électronique`);
}

async function lookupOrBadGateway(client: AfnorClient, siren: string): Promise<DirectoryListing | null> {
  try {
    return await lookupSiren(client, siren);
  } catch (error) {
    if (error instanceof AfnorError) fail('BAD_GATEWAY', error.message);
    throw error;
  }
}

/**
 * Looks the customer's SIREN up and keeps the answer on the customer (« Vérifier dans l’annuaire »). A customer
 * without a SIREN (an individual, a business abroad) goes back to 'unknown': nothing is sent to it as an e-invoice.
 */
export async function refreshCustomerDirectory(deps: Deps, organizationId: number, customerId: number): Promise<CustomerRecord> {
  const customer = await getCustomer(deps.db, organizationId, customerId);
  const siren = sirenOfCustomer(customer);
  if (!siren) {
    await setCustomerDirectory(deps.db, {
      organizationId,
      id: customerId,
      status: 'unknown',
      electronicAddress: '',
      routingCode: '',
      checkedAt: null,
    });
    return getCustomer(deps.db, organizationId, customerId);
  }
  const client = new AfnorClient(await afnorConnectionOf(deps, organizationId));
  const listing = await lookupOrBadGateway(client, siren);
  const first = listing ? usableAddress(siren, listing) : undefined;
  await setCustomerDirectory(deps.db, {
    organizationId,
    id: customerId,
    status: listing ? 'listed' : 'absent',
    electronicAddress: first?.electronic_address ?? '',
    routingCode: first?.routing_code ?? '',
    checkedAt: nowIso(),
  });
  return getCustomer(deps.db, organizationId, customerId);
}

/**
 * The first directory line whose address the e-invoice can carry as the buyer's BT-49 (BR-FR-21, BR-FR-23): a
 * listing made only of others is refused (502, nothing kept), since an invoice sent there would be rejected.
 */
function usableAddress(siren: string, listing: DirectoryListing): DirectoryAddress {
  const usable = listing.addresses.find((a) => electronicAddressProblem(siren, a.electronic_address) === null);
  if (usable) return usable;
  const problem = electronicAddressProblem(siren, listing.addresses[0]?.electronic_address ?? '');
  return fail('BAD_GATEWAY', `L’annuaire de la facturation électronique a répondu pour le SIREN ${siren}, mais ${problem}`);
}

/**
 * On a customer's save: a new or changed SIREN is looked up when the organisation reaches a platform through the API.
 * The save never fails for the directory: a platform that does not answer leaves the status 'unknown' (logged), and
 * the user can look it up later.
 */
export async function directoryOnSave(
  deps: Deps,
  organizationId: number,
  saved: CustomerRecord,
  previousSiren: string | null,
): Promise<CustomerRecord> {
  const siren = sirenOfCustomer(saved);
  const changed = siren !== previousSiren;
  if (!changed && saved.directory_status !== 'unknown') return saved;
  if (!siren || (await getEinvoicingSettings(deps.db, organizationId)).mode !== 'afnor') {
    if (!changed || saved.directory_status === 'unknown') return saved;
    await setCustomerDirectory(deps.db, {
      organizationId,
      id: saved.id,
      status: 'unknown',
      electronicAddress: '',
      routingCode: '',
      checkedAt: null,
    });
    return getCustomer(deps.db, organizationId, saved.id);
  }
  try {
    return await refreshCustomerDirectory(deps, organizationId, saved.id);
  } catch (error) {
    logger.info({ event: 'directory_lookup_failed', organization: organizationId, customer: saved.id, reason: (error as Error).message });
    if (changed && saved.directory_status !== 'unknown')
      await setCustomerDirectory(deps.db, {
        organizationId,
        id: saved.id,
        status: 'unknown',
        electronicAddress: '',
        routingCode: '',
        checkedAt: null,
      });
    return getCustomer(deps.db, organizationId, saved.id);
  }
}

/** The warning shown before issuing a document to a customer the directory does not list, or null. */
export async function directoryWarningOf(db: Db, organizationId: number, customerId: number | null): Promise<string | null> {
  if (customerId === null) return null;
  if ((await getEinvoicingSettings(db, organizationId)).mode !== 'afnor') return null;
  const customer = await findCustomer(db, { organizationId, id: customerId });
  return customer ? customerDirectoryWarning(customer) : null;
}

/** A customer created, then its SIREN looked up in the directory (POST /api/customers). */
export async function createCustomerWithDirectory(deps: Deps, organizationId: number, input: Customer): Promise<CustomerRecord> {
  return directoryOnSave(deps, organizationId, await createCustomer(deps.db, organizationId, input), null);
}

/** A customer saved, then its SIREN looked up again when it changed or was never found (PUT /api/customers/{id}). */
export async function editCustomerWithDirectory(deps: Deps, organizationId: number, id: number, input: Customer): Promise<CustomerRecord> {
  const before = sirenOfCustomer(await getCustomer(deps.db, organizationId, id));
  return directoryOnSave(deps, organizationId, await editCustomer(deps.db, organizationId, id, input), before);
}
