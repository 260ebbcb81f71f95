import type { Db } from '../connection';
import type { EinvoicingSettingsTable } from '../schema';
import { nowIso } from '../../clock';

/** A stored row: `client_secret` and `token` are sealed ciphertexts ('' = none). */
export type EinvoicingSettingsRow = Omit<EinvoicingSettingsTable, 'organization_id' | 'updated_at'>;

export async function findEinvoicingSettings(db: Db, params: { organizationId: number }): Promise<EinvoicingSettingsRow | undefined> {
  return db
    .selectFrom('einvoicing_settings')
    .select(['mode', 'flow_url', 'directory_url', 'token_url', 'client_id', 'client_secret', 'token', 'pa_matricule', 'syntax', 'profile'])
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirst();
}

export async function upsertEinvoicingSettings(db: Db, params: { organizationId: number; row: EinvoicingSettingsRow }): Promise<void> {
  const values = { ...params.row, updated_at: nowIso() };
  await db
    .insertInto('einvoicing_settings')
    .values({ organization_id: params.organizationId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
    .execute();
}
