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
  'failing_since',
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

/**
 * Turning an endpoint on again starts its failure count afresh, and puts back on its way every event it missed: the
 * deliveries kept while it was off, and those that ran out of attempts while it was failing, each on a schedule
 * starting now. One transaction: the endpoint is never on with its backlog still parked.
 */
export async function updateEndpoint(
  db: Db,
  params: { organizationId: number; id: number; url: string; events: string[]; enabled: boolean; now: string },
): Promise<{ released: number }> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('webhook_endpoints')
      .select(['enabled', 'failing_since', 'disabled_at'])
      .where('organization_id', '=', params.organizationId)
      .where('id', '=', params.id)
      .executeTakeFirst();
    await trx
      .updateTable('webhook_endpoints')
      .set({
        url: params.url,
        events: JSON.stringify(params.events),
        enabled: params.enabled ? 1 : 0,
        ...(params.enabled ? { consecutive_failures: 0, disabled_at: null, failing_since: null } : {}),
        updated_at: params.now,
      })
      .where('organization_id', '=', params.organizationId)
      .where('id', '=', params.id)
      .execute();
    if (!before || before.enabled === 1 || !params.enabled) return { released: 0 };
    const failedSince = before.failing_since ?? before.disabled_at;
    const result = await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: params.now, schedule_from: params.now })
      .where('endpoint_id', '=', params.id)
      .where('event_type', '!=', 'ping')
      .where((eb) =>
        failedSince
          ? eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'failed'), eb('created_at', '>=', failedSince)])])
          : eb('status', '=', 'pending'),
      )
      .executeTakeFirst();
    return { released: Number(result.numUpdatedRows) };
  });
}

export async function deleteEndpoint(db: Db, params: { organizationId: number; id: number }): Promise<number> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.id)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Every endpoint of the organisation, on or off, with what it subscribed to (read by the caller): an event is kept for
 * an endpoint that is off too, and sent when it is turned back on.
 */
export async function subscribedEndpoints(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('organization_id', '=', params.organizationId)
    .orderBy('id')
    .execute();
}

/**
 * The endpoint's next sequence number, taken in the event's own transaction: the row lock orders concurrent events of
 * one endpoint, and a rolled back event gives its number back (the numbers have no gaps a receiver would wait for).
 */
export async function takeSequence(db: Db, params: { endpointId: number }): Promise<number> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ last_sequence: eb('last_sequence', '+', 1) }))
    .where('id', '=', params.endpointId)
    .returning('last_sequence')
    .executeTakeFirstOrThrow();
  return row.last_sequence;
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
  'd.sequence',
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

/** One delivery of an endpoint, by the id its receiver saw (Facturier-Delivery), with what a resend copies. */
export async function findEndpointDelivery(db: Db, params: { organizationId: number; endpointId: number; uuid: string }) {
  return db
    .selectFrom('webhook_deliveries as d')
    .select(['d.id', 'd.event_id', 'd.event_type', 'd.body', 'd.sequence'])
    .where('d.organization_id', '=', params.organizationId)
    .where('d.endpoint_id', '=', params.endpointId)
    .where('d.uuid', '=', params.uuid)
    .executeTakeFirst();
}

/**
 * The events an endpoint was sent (or meant to be) between two instants, once each (its first delivery), in their
 * sequence order; not the pings, nor an event still pending (it is on its way already).
 */
export async function eventsToReplay(
  db: Db,
  params: { organizationId: number; endpointId: number; from: string; to: string; limit: number },
) {
  return db
    .selectFrom('webhook_deliveries as d')
    .select(['d.event_id', 'd.event_type', 'd.body', 'd.sequence'])
    .where('d.organization_id', '=', params.organizationId)
    .where('d.endpoint_id', '=', params.endpointId)
    .where('d.created_at', '>=', params.from)
    .where('d.created_at', '<', params.to)
    .where('d.event_type', '!=', 'ping')
    .where((eb) =>
      eb(
        'd.id',
        'in',
        eb
          .selectFrom('webhook_deliveries as f')
          .select((f) => f.fn.min('f.id').as('id'))
          .where('f.endpoint_id', '=', params.endpointId)
          .groupBy('f.event_id'),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as p')
            .select('p.id')
            .whereRef('p.event_id', '=', 'd.event_id')
            .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
            .where('p.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('d.sequence')
    .orderBy('d.id')
    .limit(params.limit)
    .execute();
}

/** Deletes the log older than the retention: answers how many deliveries went. */
export async function purgeDeliveries(db: Db, params: { before: string }): Promise<number> {
  const result = await db.deleteFrom('webhook_deliveries').where('created_at', '<', params.before).executeTakeFirst();
  return Number(result.numDeletedRows);
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
    .select([
      'd.id',
      'd.uuid',
      'd.event_type',
      'd.body',
      'd.attempts',
      'd.endpoint_id',
      'd.organization_id',
      'd.sequence',
      'd.created_at',
      'd.schedule_from',
      'e.url',
      'e.secret',
    ])
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

/** A 2xx: the endpoint answers again, its failing window closes. */
export async function resetFailures(db: Db, params: { endpointId: number }): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ consecutive_failures: 0, failing_since: null })
    .where('id', '=', params.endpointId)
    .execute();
}

/**
 * Counts one more failed attempt and opens the failing window at the first (kept until a 2xx). Answers when the
 * window opened and whether the endpoint is on, for the caller to decide whether it has failed for too long.
 */
export async function countFailure(db: Db, params: { endpointId: number; now: string }) {
  return db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      consecutive_failures: eb('consecutive_failures', '+', 1),
      failing_since: eb.fn.coalesce('failing_since', eb.val(params.now)),
    }))
    .where('id', '=', params.endpointId)
    .returning(['consecutive_failures', 'enabled', 'failing_since', 'organization_id', 'url'])
    .executeTakeFirst();
}

/** Turns an endpoint off after it failed every attempt for the whole window; answers whether this call did it. */
export async function disableFailingEndpoint(db: Db, params: { endpointId: number; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_at: params.now, updated_at: params.now })
    .where('id', '=', params.endpointId)
    .where('enabled', '=', 1)
    .where('failing_since', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Where to tell the owners of an organisation that one of its endpoints was turned off. */
export async function ownerEmails(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select(['users.email', 'users.first_name', 'organizations.name as organization'])
    .where('memberships.organization_id', '=', params.organizationId)
    .where('memberships.role', '=', 'owner')
    .execute();
}
