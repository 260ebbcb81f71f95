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
