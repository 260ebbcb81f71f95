import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { clock } from '../../src/server/clock';
import { Scheduler } from '../../src/server/scheduler/scheduler';
import { JOBS } from '../../src/server/scheduler/jobs';
import { insertMembership } from '../../src/server/db/queries/organizations';
import { ROLE_REFUSAL } from '../../src/shared/roles';
import { WEBHOOK_TARGET_REFUSED } from '../../src/server/services/webhook-delivery';
import { Receiver, type Received } from '../helpers/webhook-receiver';

let server: TestServer;
const receiver = new Receiver();
beforeAll(async () => {
  server = await startTestServer();
  await receiver.start();
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
afterEach(() => {
  clock.now = () => new Date();
  receiver.reply = () => ({ status: 200, body: 'ok' });
});

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function addWebhook(session: Session, path: string, events: string[]) {
  const answer = await session.rest('POST', '/api/webhooks', { url: `${receiver.url}${path}`, events });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data as { id: number; secret: string };
}

const expense = (label: string) => ({
  date: '2026-03-12',
  supplier: 'TotalEnergies',
  category: 'deplacements',
  label,
  amount: '84,60',
  vat: [{ rate: 20, amount: 14.1 }],
  payment_method: 'card',
  status: 'paid',
});

/** What a receiver does (Stripe's scheme): HMAC-SHA256 of `${t}.${body}` with the secret, compared in constant time. */
function verify(received: Received, secret: string): { t: number } {
  const header = String(received.headers['facturier-signature']);
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = crypto.createHmac('sha256', secret).update(`${parts.t}.${received.body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  expect(given.length === expected.length && crypto.timingSafeEqual(given, expected), 'valid signature').toBe(true);
  return { t: Number(parts.t) };
}

describe('webhooks: signed deliveries', () => {
  it('delivers an event to a local HTTP server right after the commit, signed with the endpoint’s secret', async () => {
    const { session, profile } = await registered(server.url);
    const hook = await addWebhook(session, '/expenses', ['expense.created']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const other = await addWebhook(session, '/documents-only', ['document.issued']);
    const off = await session.rest('PUT', `/api/webhooks/${other.id}`, {
      url: `${receiver.url}/documents-only`,
      events: ['expense.created'],
      enabled: false,
    });
    expect(off).toMatchObject({ status: 200, body: { messages: 'Webhook mis à jour', data: { enabled: false } } });
    // The secret is given once: the list shows its start only.
    const listed = (await session.rest('GET', '/api/webhooks')).body;
    expect(listed.total).toBe(2);
    expect(JSON.stringify(listed)).not.toContain(hook.secret);
    expect(listed.data[0].secret_hint).toBe(`${hook.secret.slice(0, 12)}…`);

    const created = (await session.rest('POST', '/api/expenses', expense('Plein du Kangoo'))).body.data;
    const [got] = await until(
      () => receiver.at('/expenses'),
      (r) => r.length === 1,
      'the delivery',
    );
    if (!got) throw new Error('no delivery');
    const { t } = verify(got, hook.secret);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(30);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['facturier-event']).toBe('expense.created');
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({
      type: 'expense.created',
      organization_id: profile.organization.id,
      data: { id: created.id, supplier: 'TotalEnergies', label: 'Plein du Kangoo', amount: 84.6 },
    });
    expect(body.id).toMatch(/^evt_/);
    expect(Date.parse(body.created_at)).not.toBeNaN();
    // A tampered body does not verify.
    expect(() => verify({ ...got, body: got.body.replace('84.6', '8.46') }, hook.secret)).toThrow();

    const log = await until(
      async () => (await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body,
      (b) => b.data[0]?.status === 'delivered',
      'the log',
    );
    expect(log.data[0]).toMatchObject({
      id: got.headers['facturier-delivery'],
      event_id: body.id,
      type: 'expense.created',
      attempts: 1,
      response_status: 200,
      response_body: 'ok',
      error: '',
    });
    // Not subscribed, or turned off: nothing sent there.
    expect(receiver.at('/documents-only')).toHaveLength(0);
  });

  it('announces an invoice issued, sent and paid; each write and its event commit together', async () => {
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/invoices', ['document.issued', 'document.sent', 'payment.recorded']);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 2, 500)] });
    expect((await session.rest('POST', `/api/documents/${invoice.id}/sent`)).status).toBe(200);
    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 200 })).status).toBe(201);
    const got = await until(
      () => receiver.at('/invoices'),
      (r) => r.length === 3,
      'three deliveries',
    );
    const bodies = got.map((r) => {
      verify(r, hook.secret);
      return JSON.parse(r.body);
    });
    expect(bodies.map((b) => b.type).sort()).toEqual(['document.issued', 'document.sent', 'payment.recorded']);
    expect(bodies.find((b) => b.type === 'document.issued').data).toMatchObject({ id: invoice.id, number: invoice.number });
    expect(bodies.find((b) => b.type === 'payment.recorded').data).toMatchObject({ amount: 200, document: { id: invoice.id } });
    // Marking it sent again is not a second event.
    expect((await session.rest('POST', `/api/documents/${invoice.id}/sent`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.at('/invoices')).toHaveLength(3);
    // A refused write (a payment above what is left) writes no event either.
    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 99_999 })).status).toBe(409);
    expect((await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.total).toBe(3);
  });

  it('announces an estimate accepted or refused online, with who and why', async () => {
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/estimates', ['estimate.accepted', 'estimate.refused']);
    const { customerId } = await readyToInvoice(session);
    const estimate = () =>
      issued(session, { type: 'estimate', customer_id: customerId, maturity: '2026-12-31', items: [line('Rénovation', 1, 1500)] });
    const [yes, no] = [await estimate(), await estimate()];
    const answer = (uuid: string, action: string, body: unknown) =>
      fetch(`${server.url}/api/share/${uuid}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await answer(yes.uuid, 'accept', { name: 'Paul Martin', bon_pour_accord: true })).status).toBe(200);
    expect((await answer(no.uuid, 'refuse', { reason: 'Trop cher' })).status).toBe(200);
    const got = await until(
      () => receiver.at('/estimates'),
      (r) => r.length === 2,
      'two deliveries',
    );
    const bodies = got.map((r) => {
      verify(r, hook.secret);
      return JSON.parse(r.body);
    });
    expect(bodies.find((b) => b.type === 'estimate.accepted').data).toMatchObject({
      document: { id: yes.id, number: yes.number },
      name: 'Paul Martin',
    });
    expect(bodies.find((b) => b.type === 'estimate.refused').data).toMatchObject({ document: { id: no.id }, reason: 'Trop cher' });
  });

  it('announces the expenses a recurring expense makes, once each, with the job that makes them', async () => {
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/rent', ['expense.created']);
    const rent = await session.rest('POST', '/api/recurring-expenses', {
      supplier: 'SCI Loyer',
      label: 'Loyer',
      category: 'loyer',
      amount: 1200,
      vat: [{ rate: 20, amount: 200 }],
      payment_method: 'transfer',
      frequency: 'monthly',
      start_date: '2026-09-30',
    });
    expect(rent.status, JSON.stringify(rent.body)).toBe(201);
    const scheduler = new Scheduler(server.app.connection.db, JOBS, () => new Date('2026-11-05T10:00:00Z'), undefined, server.app.deps);
    expect((await scheduler.runDue(['recurring-expenses']))[0]?.message).toMatch(/^\d+ dépenses? créées?$/);
    const got = await until(
      () => receiver.at('/rent'),
      (r) => r.length === 2,
      'two deliveries',
    );
    const dates = got.map((r) => {
      verify(r, hook.secret);
      return JSON.parse(r.body).data.date;
    });
    expect(dates.sort()).toEqual(['2026-09-30', '2026-10-30']);
    await scheduler.runDue(['recurring-expenses']);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.at('/rent')).toHaveLength(2);
  });

  it('retries a failed delivery after the backoff (1 min, then 5 min), by the scheduler’s job, and logs the answers', async () => {
    const t0 = new Date('2026-11-23T10:00:00Z');
    clock.now = () => t0;
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/flaky', ['expense.created']);
    receiver.reply = (_path, count) => (count <= 2 ? { status: 500, body: 'x'.repeat(5000) } : { status: 204 });
    await session.rest('POST', '/api/expenses', expense('Retry'));
    await until(
      () => receiver.at('/flaky'),
      (r) => r.length === 1,
      'the first attempt',
    );
    const first = await until(
      async () => (await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data[0],
      (d) => d?.attempts === 1,
      'the first attempt logged',
    );
    expect(first).toMatchObject({
      status: 'pending',
      response_status: 500,
      error: 'Réponse HTTP 500',
      next_attempt_at: '2026-11-23T10:01:00.000Z',
    });
    expect(first.response_body).toBe('x'.repeat(1024));

    const runAt = async (at: string) => {
      const scheduler = new Scheduler(server.app.connection.db, JOBS, () => new Date(at), undefined, server.app.deps);
      return (await scheduler.runDue(['webhooks']))[0];
    };
    expect(await runAt('2026-11-23T10:00:30Z')).toMatchObject({ ran: true, message: 'Webhooks : 0 envoyé, 0 en échec' });
    expect(receiver.at('/flaky')).toHaveLength(1);
    expect(await runAt('2026-11-23T10:01:00Z')).toMatchObject({ message: 'Webhooks : 0 envoyé, 1 en échec' });
    const second = (await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data[0];
    expect(second).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: '2026-11-23T10:06:00.000Z' });
    expect(await runAt('2026-11-23T10:05:59Z')).toMatchObject({ message: 'Webhooks : 0 envoyé, 0 en échec' });
    expect(await runAt('2026-11-23T10:06:00Z')).toMatchObject({ message: 'Webhooks : 1 envoyé, 0 en échec' });
    const retries = receiver.at('/flaky');
    expect(retries).toHaveLength(3);
    // The same event, the same delivery id, signed anew at each attempt.
    expect(new Set(retries.map((r) => r.body)).size).toBe(1);
    expect(new Set(retries.map((r) => r.headers['facturier-delivery'])).size).toBe(1);
    expect(verify(retries[2] as Received, hook.secret).t).toBe(Date.parse('2026-11-23T10:06:00Z') / 1000);
    expect((await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data[0]).toMatchObject({
      status: 'delivered',
      attempts: 3,
      response_status: 204,
      next_attempt_at: null,
    });
    expect((await session.rest('GET', '/api/webhooks')).body.data[0]).toMatchObject({ consecutive_failures: 0, enabled: true });
  });

  it('keeps an endpoint on through ten failures in a row (each event keeps its own schedule); a ping checks it', async () => {
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/down', ['expense.created']);
    receiver.reply = () => ({ status: 503 });
    for (let i = 0; i < 10; i++) await session.rest('POST', '/api/expenses', expense(`Panne ${i}`));
    await until(
      () => receiver.at('/down'),
      (r) => r.length === 10,
      'ten attempts',
    );
    const still = await until(
      async () => (await session.rest('GET', '/api/webhooks')).body.data[0],
      (w) => w.consecutive_failures === 10,
      'ten failures counted',
    );
    expect(still).toMatchObject({ enabled: true, disabled_at: null, last_delivery: { status: 'pending', response_status: 503 } });
    expect(still.failing_since).not.toBeNull();

    receiver.reply = () => ({ status: 200, body: 'ok' });
    const ping = await session.rest('POST', `/api/webhooks/${hook.id}/test`);
    expect(ping).toMatchObject({
      status: 200,
      body: { data: { type: 'ping', status: 'delivered', response_status: 200, sequence: null } },
    });
    expect(ping.body.messages).toMatch(/^Test envoyé : réponse 200 en \d+ ms$/);
    expect(JSON.parse(receiver.at('/down').at(-1)?.body ?? '{}')).toMatchObject({ type: 'ping', data: { message: 'Test de Facturier' } });
    expect((await session.rest('GET', '/api/webhooks')).body.data[0]).toMatchObject({ consecutive_failures: 0, failing_since: null });
  });

  it('follows no redirect: a 3xx is a failure that says so', async () => {
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/moved', ['expense.created']);
    receiver.reply = (path) => (path === '/moved' ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : { status: 200 });
    const ping = await session.rest('POST', `/api/webhooks/${hook.id}/test`);
    expect(ping.body).toMatchObject({
      messages: `Le test a échoué : Redirection non suivie (vers ${receiver.url}/elsewhere) : indiquez l’adresse finale`,
      data: { status: 'failed', response_status: 302, attempts: 1 },
    });
    expect(receiver.at('/elsewhere')).toHaveLength(0);
  });
});

describe('webhooks: what is refused', () => {
  it('refuses an unknown event, no event and a URL that is not http(s), in French, saving nothing', async () => {
    const { session } = await registered(server.url);
    expect(await session.rest('POST', '/api/webhooks', { url: `${receiver.url}/x`, events: ['invoice.exploded'] })).toMatchObject({
      status: 400,
      body: {
        messages:
          'Événements : « invoice.exploded » n’est pas un événement connu (document.issued, document.sent, payment.recorded, estimate.accepted, estimate.refused, expense.created)',
      },
    });
    expect(await session.rest('POST', '/api/webhooks', { url: `${receiver.url}/x`, events: [] })).toMatchObject({
      status: 400,
      body: { messages: 'Événements : Choisissez au moins un événement' },
    });
    expect(await session.rest('POST', '/api/webhooks', { url: 'ftp://exemple.fr/x', events: ['expense.created'] })).toMatchObject({
      status: 400,
      body: { messages: 'URL : Une adresse complète en http:// ou https:// est attendue, par exemple https://exemple.fr/webhooks' },
    });
    expect((await session.rest('GET', '/api/webhooks')).body.total).toBe(0);
  });

  it('answers 404 for another organisation’s webhook', async () => {
    const a = await registered(server.url);
    const b = await registered(server.url);
    const hook = await addWebhook(a.session, '/a', ['expense.created']);
    for (const [method, path] of [
      ['PUT', `/api/webhooks/${hook.id}`],
      ['DELETE', `/api/webhooks/${hook.id}`],
      ['GET', `/api/webhooks/${hook.id}/deliveries`],
      ['POST', `/api/webhooks/${hook.id}/test`],
    ] as const) {
      const body = method === 'PUT' ? { url: `${receiver.url}/b`, events: ['expense.created'] } : undefined;
      expect(await b.session.rest(method, path, body)).toMatchObject({ status: 404, body: { messages: 'Webhook introuvable' } });
    }
    expect(await a.session.rest('DELETE', `/api/webhooks/${hook.id}`)).toMatchObject({
      status: 200,
      body: { messages: 'Webhook supprimé' },
    });
    expect((await a.session.rest('GET', '/api/webhooks')).body.total).toBe(0);
  });

  it('lets owners and admins manage webhooks; a member or an accountant gets 403', async () => {
    const owner = await registered(server.url);
    const orgId = owner.profile.organization.id;
    const join = async (role: 'admin' | 'member' | 'accountant') => {
      const person = await registered(server.url);
      await insertMembership(server.app.connection.db, { userId: person.profile.id, organizationId: orgId, role });
      expect((await person.session.rest('POST', `/api/organizations/${orgId}/switch`)).status).toBe(200);
      return person.session;
    };
    const admin = await join('admin');
    expect((await admin.rest('POST', '/api/webhooks', { url: `${receiver.url}/admin`, events: ['expense.created'] })).status).toBe(201);
    for (const role of ['member', 'accountant'] as const) {
      const session = await join(role);
      expect(await session.rest('GET', '/api/webhooks'), role).toMatchObject({ status: 403, body: { messages: ROLE_REFUSAL } });
      expect(await session.rest('POST', '/api/webhooks', { url: `${receiver.url}/m`, events: ['expense.created'] }), role).toMatchObject({
        status: 403,
        body: { messages: ROLE_REFUSAL },
      });
    }
    expect((await owner.session.rest('GET', '/api/webhooks')).body.total).toBe(1);
  });
});

describe('webhooks: no internal targets (OUTBOUND_ALLOW_PRIVATE off)', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ env: { OUTBOUND_ALLOW_PRIVATE: 'false' } });
  });
  afterAll(() => strict.close());

  it('refuses loopback, link-local, private and unique-local addresses when saving', async () => {
    const { session } = await registered(strict.url);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/hook',
      'http://[::1]/hook',
      'http://192.168.1.10/hook',
      'https://[fd00::1]/hook',
      'http://localhost:3000/hook',
    ]) {
      expect(await session.rest('POST', '/api/webhooks', { url, events: ['expense.created'] }), url).toMatchObject({
        status: 400,
        body: { messages: WEBHOOK_TARGET_REFUSED },
      });
    }
    expect((await session.rest('GET', '/api/webhooks')).body.total).toBe(0);
  });

  it('checks again at delivery: an internal target saved before is never contacted', async () => {
    const { session, profile } = await registered(strict.url);
    // As if the name had resolved to a public address when it was saved: written straight to the database.
    await strict.app.connection.db
      .insertInto('webhook_endpoints')
      .values({
        organization_id: profile.organization.id,
        url: `${receiver.url}/internal`,
        events: '["expense.created"]',
        secret: 'whsec_test',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const [hook] = (await session.rest('GET', '/api/webhooks')).body.data;
    const ping = await session.rest('POST', `/api/webhooks/${hook.id}/test`);
    expect(ping.body).toMatchObject({
      messages: `Le test a échoué : ${WEBHOOK_TARGET_REFUSED}`,
      data: { status: 'failed', response_status: null },
    });
    await session.rest('POST', '/api/expenses', expense('Interne'));
    await until(
      async () => (await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data,
      (d) => d.length === 2 && d[0].attempts === 1,
      'the refused attempt',
    );
    expect(receiver.at('/internal')).toHaveLength(0);
  });
});
