import type { Db } from '../db/connection';
import type { Env } from '../env';
import { AppError, fail } from '../errors';
import { logger } from '../logger';
import { nowIso } from '../clock';
import { AfnorClient } from '../einvoice/afnor/client';
import { AfnorError } from '../einvoice/afnor/errors';
import { lookupSiren } from '../einvoice/afnor/directory';
import { findOwnDirectory, type OwnDirectoryRow, saveOwnDirectory, saveOwnDirectoryError } from '../db/queries/einvoice-own-directory';
import { electronicAddressProblem } from '../../shared/einvoice-directory';
import type { OwnDirectory } from '../../shared/schemas/einvoicing-settings';
import { getOrganizationProfile } from './organization';
import { afnorConnectionOf, getEinvoicingSettings } from './einvoicing-settings';

/**
 * The organisation's own line in its platform's directory (XP Z12-013 Directory Service), looked up by its SIREN when
 * the connection is saved, on « Tester la connexion » and on demand: its electronic address is the seller's BT-34 of
 * the invoices issued afterwards (each freezes it at issue, as it freezes the customer's).
 */

interface Deps {
  db: Db;
  env: Env;
}

const NEVER_READ: OwnDirectoryRow = {
  status: 'unknown',
  siren: '',
  electronic_address: '',
  address_scheme: '',
  routing_code: '',
  checked_at: null,
  error: '',
};

const sirenOf = (siret: string) => {
  const digits = siret.replace(/\D/g, '');
  return digits.length === 9 || digits.length === 14 ? digits.slice(0, 9) : '';
};

function warningOf(row: OwnDirectoryRow, siren: string, connected: boolean): string {
  if (!connected) return '';
  if (!siren)
    return 'Votre SIREN manque : renseignez-le dans Paramètres → Entreprise pour que l’annuaire de la facturation électronique vous trouve';
  if (row.error) return `Dernière lecture de l’annuaire en échec : ${row.error}`;
  if (row.status === 'absent' && row.siren === siren)
    return `Votre entreprise (SIREN ${siren}) est absente de l’annuaire de la facturation électronique : vos clients ne pourront pas vous adresser leurs factures, et vos factures portent votre SIREN comme adresse électronique. Demandez à votre plateforme agréée de vous y inscrire, puis vérifiez à nouveau.`;
  if (row.status === 'unknown' || row.siren !== siren)
    return 'Votre inscription à l’annuaire n’a pas encore été vérifiée : cliquez sur « Vérifier dans l’annuaire »';
  return '';
}

/** What the settings page shows: the line as last read (for the SIREN the organisation has now), and what to do. */
export async function getOwnDirectory(db: Db, organizationId: number): Promise<OwnDirectory> {
  const [row, org, settings] = await Promise.all([
    findOwnDirectory(db, { organizationId }),
    getOrganizationProfile(db, organizationId),
    getEinvoicingSettings(db, organizationId),
  ]);
  const stored = row ?? NEVER_READ;
  const siren = sirenOf(org.siret);
  // A line read for another SIREN (the organisation's changed since) is none of its own.
  const current = stored.siren === siren ? stored : { ...NEVER_READ, error: stored.error };
  const { error: _error, ...shown } = current;
  const status = current.status === 'listed' || current.status === 'absent' ? current.status : 'unknown';
  return { ...shown, status, siren, warning: warningOf(current, siren, settings.mode === 'afnor') };
}

/**
 * BT-34 for the invoices issued now: the organisation's own directory address under scheme 0225, with its routing code,
 * when the directory listed it for the SIREN the organisation has; null otherwise (the SIREN stands in).
 */
export async function ownEndpointAtIssue(
  db: Db,
  organizationId: number,
): Promise<{ electronic_address: string; routing_code: string } | null> {
  const [row, org] = await Promise.all([findOwnDirectory(db, { organizationId }), getOrganizationProfile(db, organizationId)]);
  const siren = sirenOf(org.siret);
  if (row?.status !== 'listed' || !siren || row.siren !== siren) return null;
  if (electronicAddressProblem(siren, row.electronic_address) !== null) return null;
  return { electronic_address: row.electronic_address, routing_code: row.routing_code };
}

/**
 * « Vérifier dans l’annuaire »: the SIREN looked up now and the answer kept. A platform that fails answers 502 and
 * keeps what was read before (the reason is shown); a listing whose addresses none can carry as BT-34 is kept absent.
 */
export async function refreshOwnDirectory(deps: Deps, organizationId: number): Promise<OwnDirectory> {
  const org = await getOrganizationProfile(deps.db, organizationId);
  const siren = sirenOf(org.siret);
  if (!siren)
    fail('CONFLICT', 'Votre SIREN manque : renseignez-le dans Paramètres → Entreprise avant de chercher votre entreprise dans l’annuaire');
  const client = new AfnorClient(await afnorConnectionOf(deps, organizationId));
  let listing: Awaited<ReturnType<typeof lookupSiren>>;
  try {
    listing = await lookupSiren(client, siren);
  } catch (error) {
    if (!(error instanceof AfnorError)) throw error;
    await saveOwnDirectoryError(deps.db, { organizationId, error: error.message });
    logger.info({ event: 'own_directory_failed', organization: organizationId, reason: error.message });
    fail('BAD_GATEWAY', `L’annuaire de la facturation électronique n’a pas pu être lu : ${error.message}`);
  }
  const usable = listing?.addresses.find((a) => electronicAddressProblem(siren, a.electronic_address) === null);
  await saveOwnDirectory(deps.db, {
    organizationId,
    row: {
      status: usable ? 'listed' : 'absent',
      siren,
      electronic_address: usable?.electronic_address ?? '',
      address_scheme: usable ? '0225' : '',
      routing_code: usable?.routing_code ?? '',
      checked_at: nowIso(),
      error: '',
    },
  });
  logger.info({ event: 'own_directory_read', organization: organizationId, listed: Boolean(usable) });
  return getOwnDirectory(deps.db, organizationId);
}

/**
 * After the connection is saved or tested: the same lookup, never failing what triggered it (the reason is kept and
 * shown on the page). Nothing to do without the API or without a SIREN.
 */
export async function refreshOwnDirectoryQuietly(deps: Deps, organizationId: number): Promise<void> {
  try {
    if ((await getEinvoicingSettings(deps.db, organizationId)).mode !== 'afnor') return;
    if (!sirenOf((await getOrganizationProfile(deps.db, organizationId)).siret)) return;
    await refreshOwnDirectory(deps, organizationId);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}
