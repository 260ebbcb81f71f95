import type { Db } from '../connection';
import { clock, nowIso } from '../../clock';
import { parisDateOf } from '../../../shared/paris-date';

/** Today as YYYY-MM-DD in France: a rate is quoted on a French business day. */
export const rateDayToday = (): string => parisDateOf(clock.now());

const COLUMNS = ['id', 'code', 'rate', 'rate_date', 'updated_at'] as const;

export async function listCurrencyRows(db: Db, params: { organizationId: number }) {
  return db.selectFrom('currencies').select(COLUMNS).where('organization_id', '=', params.organizationId).orderBy('code').execute();
}

export async function findCurrencyRow(db: Db, params: { organizationId: number; id: number }) {
  return db
    .selectFrom('currencies')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
}

/** Inserts the currency unless the organisation already has it; answers the new id, or undefined for a duplicate. */
export async function insertCurrency(
  db: Db,
  params: { organizationId: number; code: string; rate: string; rateDate: string },
): Promise<number | undefined> {
  const now = nowIso();
  const row = await db
    .insertInto('currencies')
    .values({
      organization_id: params.organizationId,
      code: params.code,
      rate: params.rate,
      rate_date: params.rateDate,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'code']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function updateCurrencyRate(
  db: Db,
  params: { organizationId: number; id: number; rate: string; rateDate: string },
): Promise<void> {
  await db
    .updateTable('currencies')
    .set({ rate: params.rate, rate_date: params.rateDate, updated_at: nowIso() })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function deleteCurrency(db: Db, params: { organizationId: number; id: number }): Promise<void> {
  await db.deleteFrom('currencies').where('organization_id', '=', params.organizationId).where('id', '=', params.id).execute();
}

/** Live customers invoiced in this currency: what forbids disabling it (archived ones do not count, as for taxes). */
export async function countCustomersUsingCurrency(db: Db, params: { organizationId: number; code: string }): Promise<number> {
  const row = await db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', params.organizationId)
    .where('deleted_at', 'is', null)
    .where('currency', '=', params.code)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The rate of one enabled currency (units per unit of the base), or undefined when it is not enabled. */
export async function findCurrencyRate(db: Db, params: { organizationId: number; code: string }): Promise<string | undefined> {
  const row = await db
    .selectFrom('currencies')
    .select('rate')
    .where('organization_id', '=', params.organizationId)
    .where('code', '=', params.code)
    .executeTakeFirst();
  return row?.rate;
}
