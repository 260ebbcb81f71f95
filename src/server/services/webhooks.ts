import crypto from 'node:crypto';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { fail } from '../errors';
import { clock, nowIso } from '../clock';
import { OutboundRefusedError } from '../net/outbound-guard';
import {
  deleteEndpoint,
  enabledEndpoints,
  findDelivery,
  findEndpoint,
  insertDeliveries,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  updateEndpoint,
} from '../db/queries/webhooks';
import {
  WEBHOOK_EVENTS,
  webhookInputSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookInput,
} from '../../shared/schemas/webhook';
import { attemptDelivery, kickWebhooks, resolveWebhookTarget, WEBHOOK_TARGET_REFUSED } from './webhook-delivery';

interface WebhookCtx {
  db: Db;
  env: Env;
  organizationId: number;
}

const NOT_FOUND = 'Webhook introuvable';

const eventsOf = (text: string): WebhookEventType[] => {
  const list: unknown = JSON.parse(text);
  return Array.isArray(list) ? list.filter((e): e is WebhookEventType => (WEBHOOK_EVENTS as readonly unknown[]).includes(e)) : [];
};

/**
 * Records an event for every endpoint (or, for a test ping, the one named) of the organisation that subscribed to it: one outbox row each, written with
 * `db` — pass the transaction that made the change, so the event commits or rolls back with it. `data` is the
 * resource as the API answers it, or a function that reads it (only called when some endpoint wants the event).
 * The rows are sent right after the commit (kickWebhooks) or by the scheduler's job. Answers the rows' ids.
 */
export async function emitEvent(
  db: Db,
  organizationId: number,
  type: WebhookEventType | 'ping',
  data: unknown,
  only?: { endpointId: number },
): Promise<number[]> {
  const endpoints = only
    ? [{ id: only.endpointId }]
    : (await enabledEndpoints(db, { organizationId })).filter((e) => eventsOf(e.events).includes(type as WebhookEventType));
  if (endpoints.length === 0) return [];
  const created_at = nowIso();
  const eventId = `evt_${crypto.randomUUID()}`;
  const payload = typeof data === 'function' ? await (data as () => unknown)() : data;
  const body = JSON.stringify({ id: eventId, type, created_at, organization_id: organizationId, data: payload });
  const rows = endpoints.map((e) => ({
    organization_id: organizationId,
    endpoint_id: e.id,
    uuid: crypto.randomUUID(),
    event_id: eventId,
    event_type: type,
    body,
    // A ping is sent at once by the request that asked for it, never by the outbox's runs.
    next_attempt_at: only ? null : created_at,
    created_at,
  }));
  const ids = await insertDeliveries(db, rows);
  if (!only) kickWebhooks();
  return ids;
}

/** Refuses, at saving, a URL whose host is or resolves to an internal address (checked again at each delivery). */
async function assertPublicTarget(env: Env, url: string): Promise<void> {
  try {
    await resolveWebhookTarget(new URL(url), env.outbound.allowPrivate);
  } catch (error) {
    if (error instanceof OutboundRefusedError) fail('BAD_REQUEST', WEBHOOK_TARGET_REFUSED);
    throw error;
  }
}

type EndpointRow = Awaited<ReturnType<typeof listEndpoints>>[number];

function endpointOf(
  row: Omit<EndpointRow, 'last_status' | 'last_response_status' | 'last_attempt_at'> & Partial<EndpointRow>,
): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: eventsOf(row.events),
    enabled: row.enabled === 1,
    consecutive_failures: row.consecutive_failures,
    disabled_at: row.disabled_at,
    secret_hint: `${row.secret.slice(0, 12)}…`,
    created_at: row.created_at,
    last_delivery: row.last_status
      ? { status: row.last_status, response_status: row.last_response_status ?? null, at: row.last_attempt_at ?? null }
      : null,
  };
}

export async function listWebhooks(ctx: WebhookCtx) {
  const data = (await listEndpoints(ctx.db, { organizationId: ctx.organizationId })).map(endpointOf);
  return { total: data.length, data };
}

async function foundEndpoint(ctx: WebhookCtx, id: number) {
  const row = await findEndpoint(ctx.db, { organizationId: ctx.organizationId, id });
  if (!row) fail('NOT_FOUND', NOT_FOUND);
  return row;
}

/**
 * The secret is answered here only, once (like an API key): it signs every delivery, so whoever reads it later
 * could forge them; a lost secret is replaced by deleting the endpoint and adding it again.
 */
export async function createWebhook(ctx: WebhookCtx, input: WebhookInput) {
  const values = webhookInputSchema.parse(input);
  await assertPublicTarget(ctx.env, values.url);
  const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
  const id = await insertEndpoint(ctx.db, { organizationId: ctx.organizationId, ...values, secret, now: nowIso() });
  return { ...endpointOf(await foundEndpoint(ctx, id)), secret };
}

export async function updateWebhook(ctx: WebhookCtx, id: number, input: WebhookInput): Promise<WebhookEndpoint> {
  const values = webhookInputSchema.parse(input);
  await foundEndpoint(ctx, id);
  await assertPublicTarget(ctx.env, values.url);
  await updateEndpoint(ctx.db, { organizationId: ctx.organizationId, id, ...values, now: nowIso() });
  return endpointOf(await foundEndpoint(ctx, id));
}

export async function deleteWebhook(ctx: WebhookCtx, id: number): Promise<void> {
  if ((await deleteEndpoint(ctx.db, { organizationId: ctx.organizationId, id })) === 0) fail('NOT_FOUND', NOT_FOUND);
}

type DeliveryRow = Awaited<ReturnType<typeof findDelivery>>;

const deliveryOf = (row: DeliveryRow): WebhookDelivery => ({
  id: row.uuid,
  event_id: row.event_id,
  type: row.event_type,
  status: row.status,
  attempts: row.attempts,
  created_at: row.created_at,
  last_attempt_at: row.last_attempt_at,
  next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
  response_status: row.response_status,
  response_ms: row.response_ms,
  response_body: row.response_body,
  error: row.error,
});

/** The endpoint's 50 latest deliveries, newest first, each with its last answer. */
export async function deliveriesOf(ctx: WebhookCtx, id: number) {
  await foundEndpoint(ctx, id);
  const data = (await listDeliveries(ctx.db, { organizationId: ctx.organizationId, endpointId: id, limit: 50 })).map(deliveryOf);
  return { total: data.length, data };
}

/** Sends a `ping` event now, even to an endpoint that is off (to check it before turning it back on). */
export async function testWebhook(ctx: WebhookCtx, id: number): Promise<{ messages: string; data: WebhookDelivery }> {
  await foundEndpoint(ctx, id);
  const [deliveryId] = await emitEvent(ctx.db, ctx.organizationId, 'ping', { message: 'Test de Facturier' }, { endpointId: id });
  if (deliveryId === undefined) fail('NOT_FOUND', NOT_FOUND);
  await attemptDelivery(ctx.db, deliveryId, clock.now(), { allowPrivate: ctx.env.outbound.allowPrivate, planLimits: ctx.env.planLimits });
  const delivery = deliveryOf(await findDelivery(ctx.db, { id: deliveryId }));
  const messages =
    delivery.status === 'delivered'
      ? `Test envoyé : réponse ${delivery.response_status} en ${delivery.response_ms} ms`
      : `Le test a échoué : ${delivery.error}`;
  return { messages, data: delivery };
}
