import type { Db } from '../connection';
import type { MembershipRole } from '../schema';
import { nowIso } from '../../clock';

export async function insertOrganization(db: Db, params: { name: string }): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('organizations')
    .values({ name: params.name, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertMembership(db: Db, params: { userId: number; organizationId: number; role: MembershipRole }): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ user_id: params.userId, organization_id: params.organizationId, role: params.role, created_at: nowIso() })
    .execute();
}

export async function findOrganizationName(db: Db, params: { organizationId: number }): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', params.organizationId).executeTakeFirst();
  return row?.name;
}

export async function renameOrganization(db: Db, params: { organizationId: number; name: string }): Promise<void> {
  await db.updateTable('organizations').set({ name: params.name, updated_at: nowIso() }).where('id', '=', params.organizationId).execute();
}

/** Every organisation, for the scheduler's runs over all of them. */
export async function listOrganizationIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('organizations').select('id').orderBy('id').execute();
  return rows.map((row) => row.id);
}
