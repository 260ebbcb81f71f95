import type { Db } from '../connection';
import { nowIso } from '../../clock';
import { DEFAULT_UNITS, FRENCH_TAX_RATES } from '../../../shared/schemas/reference';
import { defaultAppSettings } from '../../../shared/schemas/settings';
import { insertCurrency, rateDayToday } from './currencies';

/** Gives a new organisation the French VAT rates and the usual units, ready for its first invoice. */
export async function insertDefaultReferenceData(db: Db, params: { organizationId: number }): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('taxes')
    .values(
      FRENCH_TAX_RATES.map((t, position) => ({
        organization_id: params.organizationId,
        title: t.title,
        rate: String(t.rate),
        position,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('units')
    .values(DEFAULT_UNITS.map((name, position) => ({ organization_id: params.organizationId, name, position, created_at: now })))
    .execute();
  // Paramètres → Devises starts with the default settings' base currency, at rate 1.
  await insertCurrency(db, {
    organizationId: params.organizationId,
    code: defaultAppSettings().currency_format.currency,
    rate: '1',
    rateDate: rateDayToday(),
  });
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
  return db
    .selectFrom('units')
    .select(['id', 'name', 'position'])
    .where('organization_id', '=', params.organizationId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function insertTax(db: Db, params: { organizationId: number; title: string; rate: number }): Promise<number> {
  const now = nowIso();
  const last = await db
    .selectFrom('taxes')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirst();
  const row = await db
    .insertInto('taxes')
    .values({
      organization_id: params.organizationId,
      title: params.title,
      rate: String(params.rate),
      position: Number(last?.max ?? -1) + 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTax(db: Db, params: { organizationId: number; id: number; title: string; rate: number }): Promise<boolean> {
  const result = await db
    .updateTable('taxes')
    .set({ title: params.title, rate: String(params.rate), updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteTax(db: Db, params: { organizationId: number; id: number }): Promise<boolean> {
  const result = await db
    .deleteFrom('taxes')
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertUnit(db: Db, params: { organizationId: number; name: string }): Promise<number> {
  const last = await db
    .selectFrom('units')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('organization_id', '=', params.organizationId)
    .executeTakeFirst();
  const row = await db
    .insertInto('units')
    .values({ organization_id: params.organizationId, name: params.name, position: Number(last?.max ?? -1) + 1, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findUnit(db: Db, params: { organizationId: number; id: number }) {
  return db
    .selectFrom('units')
    .select(['id', 'name'])
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
}

export async function deleteUnit(db: Db, params: { organizationId: number; id: number }): Promise<void> {
  await db.deleteFrom('units').where('organization_id', '=', params.organizationId).where('id', '=', params.id).execute();
}

/** Live items still using a tax (by id) or a unit (by name): what forbids deleting it. */
export async function countItemsUsing(db: Db, params: { organizationId: number; taxId?: number; unit?: string }): Promise<number> {
  let query = db
    .selectFrom('items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', params.organizationId)
    .where('deleted_at', 'is', null);
  if (params.unit !== undefined) query = query.where('unit', '=', params.unit);
  if (params.taxId !== undefined) {
    // tax_ids is a JSON array of integers: match the id as a whole element.
    const id = String(params.taxId);
    query = query.where((eb) =>
      eb.or([
        eb('tax_ids', 'like', `[${id}]`),
        eb('tax_ids', 'like', `[${id},%`),
        eb('tax_ids', 'like', `%,${id},%`),
        eb('tax_ids', 'like', `%,${id}]`),
      ]),
    );
  }
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}
