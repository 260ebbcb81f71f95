import type { Selectable } from 'kysely';
import type { Db } from '../connection';
import type { EinvoiceOwnDirectoryTable } from '../schema';

export type OwnDirectoryRow = Omit<Selectable<EinvoiceOwnDirectoryTable>, 'organization_id'>;

/** The organisation's own directory line as last read, or undefined when it never was. */
export async function findOwnDirectory(db: Db, params: { organizationId: number }): Promise<OwnDirectoryRow | undefined> {
  return db
    .selectFrom('einvoice_own_directory')
    .select(['status', 'siren', 'electronic_address', 'address_scheme', 'routing_code', 'checked_at', 'error'])
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirst();
}

export async function saveOwnDirectory(db: Db, params: { organizationId: number; row: OwnDirectoryRow }): Promise<void> {
  await db
    .insertInto('einvoice_own_directory')
    .values({ organization_id: params.organizationId, ...params.row })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(params.row))
    .execute();
}

/** A failed reading: what was read before stays, the reason is kept. */
export async function saveOwnDirectoryError(db: Db, params: { organizationId: number; error: string }): Promise<void> {
  await db
    .insertInto('einvoice_own_directory')
    .values({
      organization_id: params.organizationId,
      status: 'unknown',
      siren: '',
      electronic_address: '',
      address_scheme: '',
      routing_code: '',
      checked_at: null,
      error: params.error,
    })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet({ error: params.error }))
    .execute();
}
