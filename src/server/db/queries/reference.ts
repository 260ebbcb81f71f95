import type { Db } from '../connection';
import { nowIso } from '../../clock';
import { DEFAULT_UNITS, FRENCH_TAX_RATES } from '../../../shared/schemas/reference';

/** Gives a new organisation the French VAT rates and the usual units, ready for its first invoice. */
export async function insertDefaultReferenceData(db: Db, params: { organizationId: number }): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('taxes')
    .values(FRENCH_TAX_RATES.map((t, position) => ({ organization_id: params.organizationId, title: t.title, rate: String(t.rate), position, created_at: now, updated_at: now })))
    .execute();
  await db
    .insertInto('units')
    .values(DEFAULT_UNITS.map((name, position) => ({ organization_id: params.organizationId, name, position, created_at: now })))
    .execute();
}

export async function listTaxes(db: Db, params: { organizationId: number }) {
  const rows = await db
    .selectFrom('taxes')
    .select(['id', 'title', 'rate', 'position'])
    .where('organization_id', '=', params.organizationId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, rate: Number(r.rate) }));
}

export async function listUnits(db: Db, params: { organizationId: number }) {
  return db.selectFrom('units').select(['id', 'name', 'position']).where('organization_id', '=', params.organizationId).orderBy('position').orderBy('id').execute();
}
