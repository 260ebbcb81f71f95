import { isPostgres } from '../db/dialect';
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Db } from '../db/connection';
import { actingForNoOrganization } from '../db/write-scope';
import { logger } from '../logger';
import { OutboundRefusedError, resolveOutbound } from '../net/outbound-guard';
import { featureRefusalFor } from './subscriptions';
import {
  claimDelivery,
  countFailure,
  deliveryToSend,
  disableFailingEndpoint,
  dueDeliveries,
  recordAttempt,
  resetFailures,
} from '../db/queries/webhooks';
import { failedForTooLong, nextAttemptAfter } from './webhook-schedule';

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of an answer's body the log keeps. */
const RESPONSE_KEPT_BYTES = 1024;
/** An attempt in flight holds its delivery this long (well past the timeout), so nobody else sends it meanwhile. */
const CLAIM_MS = 60_000;

export const WEBHOOK_TARGET_REFUSED =
  'URL : cette adresse n’est pas joignable depuis Facturier ; les adresses internes (localhost, réseau privé, lien local) ne sont pas acceptées';

/** Stripe's scheme: HMAC-SHA256 of `${timestamp}.${body}` with the endpoint's secret, in hex. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The port a URL connects to: its own, or its scheme's. */
const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/**
 * The one address a webhook URL may be sent to, resolved now (net/outbound-guard.ts): loopback, link-local,
 * private and unique-local addresses are refused, at saving and again at each delivery after DNS resolution.
 * A webhook may use any port of a public host, so the guard is given the URL's own port.
 */
export async function resolveWebhookTarget(url: URL, allowPrivate: boolean): Promise<string> {
  const port = portOf(url);
  return resolveOutbound(url.hostname, port, { allowPrivate, ports: [port] });
}

interface PostResult {
  status: number | null;
  ms: number;
  body: string;
  error: string;
}

/** One POST, to the address resolved (never the name again: no DNS rebinding), no redirect followed, 10 s at most. */
async function post(urlText: string, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  let address: string;
  try {
    url = new URL(urlText);
    address = await resolveWebhookTarget(url, allowPrivate);
  } catch (error) {
    const message = error instanceof OutboundRefusedError ? WEBHOOK_TARGET_REFUSED : 'URL invalide';
    return { status: null, ms: elapsed(), body: '', error: message };
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, ms: elapsed() });
    };
    const request = (url.protocol === 'https:' ? https : http).request(
      {
        method: 'POST',
        host: address,
        port: portOf(url),
        path: `${url.pathname}${url.search}`,
        // The certificate is checked against the name typed, while the socket goes to the address checked above.
        servername: net.isIP(hostname) ? undefined : hostname,
        headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_KEPT_BYTES) {
            chunks.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - kept));
            kept += Math.min(chunk.length, RESPONSE_KEPT_BYTES - kept);
          }
          // The rest of a long answer is not read: the log keeps a kilobyte.
          if (kept >= RESPONSE_KEPT_BYTES) response.destroy();
        });
        const done = () => {
          const status = response.statusCode ?? null;
          const text = Buffer.concat(chunks).toString('utf8');
          const location = response.headers.location;
          const error =
            status !== null && status >= 300 && status < 400
              ? `Redirection non suivie${location ? ` (vers ${location.slice(0, 200)})` : ''} : indiquez l’adresse finale`
              : status !== null && (status < 200 || status >= 300)
                ? `Réponse HTTP ${status}`
                : '';
          finish({ status, body: text, error });
        };
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: null, body: '', error: `Pas de réponse en ${WEBHOOK_TIMEOUT_MS / 1000} s` });
    }, WEBHOOK_TIMEOUT_MS);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'ECONNREFUSED'
          ? 'Connexion refusée'
          : error.code === 'ECONNRESET'
            ? 'Connexion interrompue'
            : error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT')
              ? `Certificat TLS refusé (${error.code})`
              : `Échec de la connexion (${error.code ?? error.message})`;
      finish({ status: null, body: '', error: reason });
    });
    request.end(body);
  });
}

/**
 * Sends one delivery once, as claimed, and records the answer: delivered on a 2xx; otherwise tried again at the
 * next step of its own schedule (webhook-schedule.ts), or failed when its window is over (a test ping is never
 * retried). A 2xx closes the endpoint's failing window; an endpoint that has failed every attempt for the whole
 * window is turned off and its owners are told (rules.onDisabled). What it misses meanwhile is kept.
 */
export async function attemptDelivery(db: Db, id: number, now: Date, rules: DeliveryRules): Promise<boolean> {
  const delivery = await deliveryToSend(db, { id });
  if (!delivery) return false;
  // After a downgrade below Équipe the endpoints stay, but nothing is sent; the log says why (no retry, and
  // the endpoint is not counted as failing: it works again with a plan that includes webhooks).
  const refusal = await featureRefusalFor(db, delivery.organization_id, 'webhooks', rules.planLimits);
  if (refusal) {
    await recordAttempt(db, {
      id,
      status: 'failed',
      attempts: delivery.attempts,
      at: now.toISOString(),
      nextAttemptAt: null,
      responseStatus: null,
      responseMs: 0,
      responseBody: '',
      error: `Non envoyé : ${refusal}`,
    });
    return false;
  }
  const allowPrivate = rules.allowPrivate;
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Facturier-Webhooks/1.0',
    'facturier-delivery': delivery.uuid,
    'facturier-event': delivery.event_type,
    'facturier-signature': `t=${timestamp},v1=${webhookSignature(delivery.secret, timestamp, delivery.body)}`,
  };
  if (delivery.sequence !== null) headers['facturier-sequence'] = String(delivery.sequence);
  const result = await post(delivery.url, headers, delivery.body, allowPrivate);
  const attempts = delivery.attempts + 1;
  const delivered = result.error === '';
  const from = Date.parse(delivery.schedule_from ?? delivery.created_at);
  const next = delivered || delivery.event_type === 'ping' ? null : nextAttemptAfter(from, now.getTime());
  const at = now.toISOString();
  await recordAttempt(db, {
    id,
    status: delivered ? 'delivered' : next === null ? 'failed' : 'pending',
    attempts,
    at,
    nextAttemptAt: next === null ? null : new Date(next).toISOString(),
    responseStatus: result.status,
    responseMs: result.ms,
    responseBody: result.body,
    error: result.error,
  });
  if (delivered) {
    await resetFailures(db, { endpointId: delivery.endpoint_id });
    return true;
  }
  const endpoint = await countFailure(db, { endpointId: delivery.endpoint_id, now: at });
  if (endpoint?.enabled === 1 && endpoint.failing_since && failedForTooLong(Date.parse(endpoint.failing_since), now.getTime())) {
    if (await disableFailingEndpoint(db, { endpointId: delivery.endpoint_id, now: at })) {
      logger.info({ event: 'webhook_endpoint_disabled', endpoint: delivery.endpoint_id, failing_since: endpoint.failing_since });
      try {
        await rules.onDisabled?.({ organizationId: endpoint.organization_id, url: endpoint.url, failingSince: endpoint.failing_since });
      } catch (error) {
        // The endpoint stays off and its page says so; a mail that could not go is not worth failing the run for.
        logger.error(`webhook endpoint ${delivery.endpoint_id}: the owners could not be told it was turned off`, error);
      }
    }
  }
  return false;
}

/**
 * What a delivery obeys: the outbound guard (OUTBOUND_ALLOW_PRIVATE) and the plans' limits (PLAN_LIMITS); and who
 * tells the owners when an endpoint is turned off (the app's mailer; absent where no mail can be sent).
 */
export interface DeliveryRules {
  allowPrivate: boolean;
  planLimits: boolean;
  onDisabled?: (endpoint: { organizationId: number; url: string; failingSince: string }) => Promise<void>;
}

/** Sends every delivery due at `now` (the scheduler's job, and the kick after a commit); counts what was delivered and what failed. */
export async function deliverDue(db: Db, now: Date, rules: DeliveryRules): Promise<{ delivered: number; failed: number }> {
  const report = { delivered: 0, failed: 0 };
  // In batches, each claimed first: a long outbox is worked through without holding all of it.
  for (let round = 0; round < 20; round++) {
    const due = await dueDeliveries(db, { now: now.toISOString(), limit: 20 });
    if (due.length === 0) break;
    const until = new Date(now.getTime() + CLAIM_MS).toISOString();
    const mine: number[] = [];
    for (const d of due) if (await claimDelivery(db, { id: d.id, expected: d.next_attempt_at, until })) mine.push(d.id);
    if (mine.length === 0) break;
    // Different endpoints in parallel: one slow receiver does not hold up the others for long.
    for (const ok of await Promise.all(mine.map((id) => attemptDelivery(db, id, now, rules)))) report[ok ? 'delivered' : 'failed']++;
  }
  return report;
}

/** The dispatchers of the running apps (one in production): an event just written wakes each of them. */
const dispatchers = new Set<WebhookDispatcher>();

/**
 * Asks for the outbox to be worked through soon. Called by emitEvent inside the event's transaction: the run starts
 * on a later tick, and its first query waits for the database connection that transaction holds (SQLite has one),
 * so it reads the outbox after the commit — and finds nothing after a rollback. Where the kick misses (another
 * process, a database with several connections), the scheduler's job sends it within the minute.
 */
export function kickWebhooks(): void {
  for (const dispatcher of dispatchers) dispatcher.kick();
}

export class WebhookDispatcher {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly rules: DeliveryRules,
    private readonly now: () => Date,
  ) {}

  start(): void {
    dispatchers.add(this);
  }

  /** Several kicks while a run is under way make one more run after it, not one each. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    // The run delivers every organisation's events: never as the procedure that kicked it (db/write-scope.ts).
    this.running = actingForNoOrganization(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      // PostgreSQL serves the pool's other connections while the event's transaction is still open, so a run started
      // by the kick may read the outbox before the commit: there the run is repeated shortly after, twice at most.
      const retries = isPostgres(this.db) ? [250, 1000] : [];
      do {
        this.again = false;
        try {
          let found = await deliverDue(this.db, this.now(), this.rules);
          for (const ms of retries) {
            if (found.delivered + found.failed > 0 || !dispatchers.has(this)) break;
            await new Promise((resolve) => setTimeout(resolve, ms));
            found = await deliverDue(this.db, this.now(), this.rules);
          }
        } catch (error) {
          logger.error('webhook deliveries: run after commit failed (the scheduler will try again)', error);
        }
      } while (this.again && dispatchers.has(this));
    }).finally(() => {
      this.running = null;
    });
  }

  /** Lets a run in flight finish before the database closes. */
  async stop(): Promise<void> {
    dispatchers.delete(this);
    await this.running;
  }
}
