import crypto from 'node:crypto';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { fail } from '../errors';
import { clock, nowIso } from '../clock';
import { OutboundRefusedError } from '../net/outbound-guard';
import {
  deleteEndpoint,
  eventsToReplay,
  findDelivery,
  findEndpoint,
  findEndpointDelivery,
  insertDeliveries,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  purgeDeliveries,
  subscribedEndpoints,
  takeSequence,
  updateEndpoint,
} from '../db/queries/webhooks';
import {
  WEBHOOK_EVENTS,
  webhookInputSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookInput,
  type WebhookReplayInput,
  WEBHOOK_LOG_RETENTION_DAYS,
  WEBHOOK_REPLAY_MAX_EVENTS,
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
 * Records an event for every endpoint of the organisation that subscribed to it (or, for a test ping, the one named):
 * one outbox row each, written with `db` — pass the transaction that made the change, so the event commits or rolls
 * back with it. An endpoint that is off gets its row too: it waits there and is sent when the endpoint is turned back
 * on. Each endpoint numbers its events (`sequence`, in the body and the Facturier-Sequence header), so a receiver can
 * restore their order. `data` is the resource as the API answers it, or a function that reads it (only called when
 * some endpoint wants the event). The rows are sent right after the commit (kickWebhooks) or by the scheduler's job.
 * Answers the rows' ids.
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
    : (await subscribedEndpoints(db, { organizationId })).filter((e) => eventsOf(e.events).includes(type as WebhookEventType));
  if (endpoints.length === 0) return [];
  const created_at = nowIso();
  const eventId = `evt_${crypto.randomUUID()}`;
  const payload = typeof data === 'function' ? await (data as () => unknown)() : data;
  const rows = [];
  for (const e of endpoints) {
    // A ping is outside the event stream: it takes no number, so a receiver never waits for one.
    const sequence = only ? null : await takeSequence(db, { endpointId: e.id });
    const envelope = { id: eventId, type, created_at, organization_id: organizationId, ...(sequence === null ? {} : { sequence }) };
    rows.push({
      organization_id: organizationId,
      endpoint_id: e.id,
      uuid: crypto.randomUUID(),
      event_id: eventId,
      event_type: type,
      body: JSON.stringify({ ...envelope, data: payload }),
      sequence,
      // A ping is sent at once by the request that asked for it, never by the outbox's runs.
      next_attempt_at: only ? null : created_at,
      schedule_from: created_at,
      created_at,
    });
  }
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
    failing_since: row.failing_since,
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

/** Saves an endpoint; turned back on, it sends at once what it missed. Answers how many events that is. */
export async function updateWebhook(
  ctx: WebhookCtx,
  id: number,
  input: WebhookInput,
): Promise<{ endpoint: WebhookEndpoint; released: number }> {
  const values = webhookInputSchema.parse(input);
  await foundEndpoint(ctx, id);
  await assertPublicTarget(ctx.env, values.url);
  const { released } = await updateEndpoint(ctx.db, { organizationId: ctx.organizationId, id, ...values, now: nowIso() });
  if (released > 0) kickWebhooks();
  return { endpoint: endpointOf(await foundEndpoint(ctx, id)), released };
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
  sequence: row.sequence,
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

const DELIVERY_NOT_FOUND = 'Envoi introuvable';

/**
 * « Renvoyer »: the same event (same id, same sequence, same body) as a new delivery, with its own id and schedule,
 * sent now when the endpoint is on (else kept until it is turned back on). A receiver that already handled the event
 * recognises it by its event id.
 */
export async function resendDelivery(
  ctx: WebhookCtx,
  id: number,
  deliveryId: string,
): Promise<{ messages: string; data: WebhookDelivery }> {
  const endpoint = await foundEndpoint(ctx, id);
  const original = await findEndpointDelivery(ctx.db, { organizationId: ctx.organizationId, endpointId: id, uuid: deliveryId });
  if (!original) fail('NOT_FOUND', DELIVERY_NOT_FOUND);
  const now = nowIso();
  const [newId] = await insertDeliveries(ctx.db, [
    {
      organization_id: ctx.organizationId,
      endpoint_id: id,
      uuid: crypto.randomUUID(),
      event_id: original.event_id,
      event_type: original.event_type,
      body: original.body,
      sequence: original.sequence,
      // Held for the attempt below (a crash before it leaves the delivery due a minute later), or kept while off.
      next_attempt_at: endpoint.enabled === 1 ? new Date(clock.now().getTime() + 60_000).toISOString() : now,
      schedule_from: now,
      created_at: now,
    },
  ]);
  if (newId === undefined) fail('NOT_FOUND', DELIVERY_NOT_FOUND);
  if (endpoint.enabled !== 1) {
    return {
      messages: 'Renvoi enregistré : il partira dès que le webhook sera réactivé',
      data: deliveryOf(await findDelivery(ctx.db, { id: newId })),
    };
  }
  await attemptDelivery(ctx.db, newId, clock.now(), { allowPrivate: ctx.env.outbound.allowPrivate, planLimits: ctx.env.planLimits });
  const delivery = deliveryOf(await findDelivery(ctx.db, { id: newId }));
  const messages =
    delivery.status === 'delivered'
      ? `Renvoyé : réponse ${delivery.response_status} en ${delivery.response_ms} ms`
      : `Le renvoi a échoué : ${delivery.error}${delivery.next_attempt_at ? ' ; nouvel essai automatique prévu' : ''}`;
  return { messages, data: delivery };
}

/**
 * Sends again every event of a time range (each once, in sequence order) as new deliveries, due now: after a
 * receiver lost data of its own, or to fill a new system. Events still on their way are not doubled.
 */
export async function replayEvents(
  ctx: WebhookCtx,
  id: number,
  input: WebhookReplayInput,
): Promise<{ messages: string; data: { replayed: number } }> {
  const endpoint = await foundEndpoint(ctx, id);
  const events = await eventsToReplay(ctx.db, {
    organizationId: ctx.organizationId,
    endpointId: id,
    from: input.from,
    to: input.to,
    limit: WEBHOOK_REPLAY_MAX_EVENTS + 1,
  });
  if (events.length > WEBHOOK_REPLAY_MAX_EVENTS)
    fail('BAD_REQUEST', `Plus de ${WEBHOOK_REPLAY_MAX_EVENTS} événements dans cette période : choisissez une période plus courte`);
  const now = nowIso();
  await insertDeliveries(
    ctx.db,
    events.map((e) => ({
      organization_id: ctx.organizationId,
      endpoint_id: id,
      uuid: crypto.randomUUID(),
      event_id: e.event_id,
      event_type: e.event_type,
      body: e.body,
      sequence: e.sequence,
      next_attempt_at: now,
      schedule_from: now,
      created_at: now,
    })),
  );
  if (events.length > 0 && endpoint.enabled === 1) kickWebhooks();
  const count = events.length;
  const what =
    count === 0 ? 'Aucun événement dans cette période' : `${count} événement${count > 1 ? 's' : ''} ${count > 1 ? 'renvoyés' : 'renvoyé'}`;
  return {
    messages: endpoint.enabled === 1 || count === 0 ? what : `${what} : ils partiront dès que le webhook sera réactivé`,
    data: { replayed: count },
  };
}

/** The delivery log is kept WEBHOOK_LOG_RETENTION_DAYS days, then deleted (the scheduler's daily job). */
export async function purgeWebhookLog(db: Db, now: Date): Promise<number> {
  return purgeDeliveries(db, { before: new Date(now.getTime() - WEBHOOK_LOG_RETENTION_DAYS * 86_400_000).toISOString() });
}
