import { sql } from 'kysely';
import type { Db } from '../connection';

/**
 * The next value of an organisation's series, incremented in the caller's transaction: if that transaction rolls
 * back, the number was never taken. Numbers are never reused (CGI art. 242 nonies A for documents).
 */
export async function nextCounter(db: Db, params: { organizationId: number; name: string }): Promise<number> {
  const row = await db
    .insertInto('counters')
    .values({ organization_id: params.organizationId, name: params.name, value: 1 })
    .onConflict((oc) => oc.columns(['organization_id', 'name']).doUpdateSet({ value: sql<number>`counters.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}

/**
 * The next `count` values of a series at once (an import's rows), in the caller's transaction: the first of them. One
 * statement instead of one per row, under the same lock as nextCounter.
 */
export async function takeCounters(db: Db, params: { organizationId: number; name: string; count: number }): Promise<number> {
  if (!Number.isInteger(params.count) || params.count < 1) throw new Error(`takeCounters: ${params.count} values asked`);
  const row = await db
    .insertInto('counters')
    .values({ organization_id: params.organizationId, name: params.name, value: params.count })
    .onConflict((oc) => oc.columns(['organization_id', 'name']).doUpdateSet({ value: sql<number>`counters.value + ${params.count}` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value - params.count + 1;
}

/** The value `nextCounter` would take now, without taking it (a forecast: another transaction may take it first). */
export async function peekCounter(db: Db, params: { organizationId: number; name: string }): Promise<number> {
  const row = await db
    .selectFrom('counters')
    .select('value')
    .where('organization_id', '=', params.organizationId)
    .where('name', '=', params.name)
    .executeTakeFirst();
  return (row?.value ?? 0) + 1;
}
