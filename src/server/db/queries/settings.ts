import type { Db } from '../connection';
import { nowIso } from '../../clock';

export async function findSettingValue(db: Db, params: { organizationId: number; key: string }): Promise<string | undefined> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('organization_id', '=', params.organizationId)
    .where('key', '=', params.key)
    .executeTakeFirst();
  return row?.value;
}

export async function upsertSettingValue(db: Db, params: { organizationId: number; key: string; value: string }): Promise<void> {
  const updated_at = nowIso();
  await db
    .insertInto('settings')
    .values({ organization_id: params.organizationId, key: params.key, value: params.value, updated_at })
    .onConflict((oc) => oc.columns(['organization_id', 'key']).doUpdateSet({ value: params.value, updated_at }))
    .execute();
}
