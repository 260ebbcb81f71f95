import type { Insertable } from 'kysely';
import type { Db } from '../connection';
import type { WebhookDeliveriesTable } from '../schema';

const ENDPOINT_COLUMNS = [
  'id',
  'organization_id',
  'url',
  'events',
  'secret',
  'enabled',
  'consecutive_failures',
  'disabled_at',
  'created_at',
] as const;

export async function listEndpoints(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('webhook_endpoints as e')
    .select(ENDPOINT_COLUMNS.map((c) => `e.${c}` as const))
    .select((eb) => [
      eb
        .selectFrom('webhook_deliveries as d')
        .whereRef('d.endpoint_id', '=', 'e.id')
        .select('d.status')
        .orderBy('d.id', 'desc')
        .limit(1)
        .as('last_status'),
      eb
        .selectFrom('webhook_deliveries as d')
        .whereRef('d.endpoint_id', '=', 'e.id')
        .select('d.response_status')
        .orderBy('d.id', 'desc')
        .limit(1)
        .as('last_response_status'),
      eb
        .selectFrom('webhook_deliveries as d')
        .whereRef('d.endpoint_id', '=', 'e.id')
        .select('d.last_attempt_at')
        .orderBy('d.id', 'desc')
        .limit(1)
        .as('last_attempt_at'),
    ])
    .where('e.organization_id', '=', params.organizationId)
    .orderBy('e.id')
    .execute();
}

export async function findEndpoint(db: Db, params: { organizationId: number; id: number }) {
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
}

export async function insertEndpoint(
  db: Db,
  params: { organizationId: number; url: string; events: string[]; secret: string; enabled: boolean; now: string },
): Promise<number> {
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      organization_id: params.organizationId,
      url: params.url,
      events: JSON.stringify(params.events),
      secret: params.secret,
      enabled: params.enabled ? 1 : 0,
      created_at: params.now,
      updated_at: params.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Turning an endpoint on again starts its failure count afresh. */
export async function updateEndpoint(
  db: Db,
  params: { organizationId: number; id: number; url: string; events: string[]; enabled: boolean; now: string },
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({
      url: params.url,
      events: JSON.stringify(params.events),
      enabled: params.enabled ? 1 : 0,
      ...(params.enabled ? { consecutive_failures: 0, disabled_at: null } : {}),
      updated_at: params.now,
    })
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .execute();
}

export async function deleteEndpoint(db: Db, params: { organizationId: number; id: number }): Promise<number> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The organisation's endpoints that are on; which of them want an event is read from `events` by the caller. */
export async function enabledEndpoints(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('organization_id', '=', params.organizationId)
    .where('enabled', '=', 1)
    .execute();
}

export async function insertDeliveries(db: Db, rows: Insertable<WebhookDeliveriesTable>[]): Promise<number[]> {
  if (rows.length === 0) return [];
  return (await db.insertInto('webhook_deliveries').values(rows).returning('id').execute()).map((r) => r.id);
}

const DELIVERY_COLUMNS = [
  'd.id',
  'd.uuid',
  'd.event_id',
  'd.event_type',
  'd.status',
  'd.attempts',
  'd.created_at',
  'd.last_attempt_at',
  'd.next_attempt_at',
  'd.response_status',
  'd.response_ms',
  'd.response_body',
  'd.error',
] as const;

export async function listDeliveries(db: Db, params: { organizationId: number; endpointId: number; limit: number }) {
  return db
    .selectFrom('webhook_deliveries as d')
    .select(DELIVERY_COLUMNS)
    .where('d.organization_id', '=', params.organizationId)
    .where('d.endpoint_id', '=', params.endpointId)
    .orderBy('d.id', 'desc')
    .limit(params.limit)
    .execute();
}

export async function findDelivery(db: Db, params: { id: number }) {
  return db.selectFrom('webhook_deliveries as d').select(DELIVERY_COLUMNS).where('d.id', '=', params.id).executeTakeFirstOrThrow();
}

/** Pending deliveries due at `now`, oldest first, of endpoints that are on. */
export async function dueDeliveries(db: Db, params: { now: string; limit: number }) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.next_attempt_at'])
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', params.now)
    .where('e.enabled', '=', 1)
    .orderBy('d.id')
    .limit(params.limit)
    .execute();
}

/**
 * Takes a delivery for one attempt by moving its due time past the attempt's own timeout: the scheduler and the
 * kick after a commit (or two processes) may both see it due, and only the one whose update lands sends it.
 */
export async function claimDelivery(db: Db, params: { id: number; expected: string | null; until: string }): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: params.until })
    .where('id', '=', params.id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', params.expected === null ? 'is' : '=', params.expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What an attempt needs: the frozen body, and the endpoint's URL and secret as they are now. */
export async function deliveryToSend(db: Db, params: { id: number }) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.uuid', 'd.event_type', 'd.body', 'd.attempts', 'd.endpoint_id', 'd.organization_id', 'e.url', 'e.secret'])
    .where('d.id', '=', params.id)
    .executeTakeFirst();
}

export async function recordAttempt(
  db: Db,
  params: {
    id: number;
    status: 'pending' | 'delivered' | 'failed';
    attempts: number;
    at: string;
    nextAttemptAt: string | null;
    responseStatus: number | null;
    responseMs: number;
    responseBody: string;
    error: string;
  },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: params.status,
      attempts: params.attempts,
      last_attempt_at: params.at,
      next_attempt_at: params.nextAttemptAt,
      response_status: params.responseStatus,
      response_ms: params.responseMs,
      response_body: params.responseBody,
      error: params.error,
    })
    .where('id', '=', params.id)
    .execute();
}

export async function resetFailures(db: Db, params: { endpointId: number }): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ consecutive_failures: 0 }).where('id', '=', params.endpointId).execute();
}

/** Counts one more failure in a row; at `max`, the endpoint is turned off. Answers whether it just was. */
export async function countFailure(db: Db, params: { endpointId: number; max: number; now: string }): Promise<boolean> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
    .where('id', '=', params.endpointId)
    .returning(['consecutive_failures', 'enabled'])
    .executeTakeFirst();
  if (row?.enabled !== 1 || row.consecutive_failures < params.max) return false;
  await db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_at: params.now, updated_at: params.now })
    .where('id', '=', params.endpointId)
    .execute();
  return true;
}
