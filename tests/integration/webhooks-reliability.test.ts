import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { Receiver, type Received } from '../helpers/webhook-receiver';
import { clock } from '../../src/server/clock';
import { Scheduler } from '../../src/server/scheduler/scheduler';
import { JOBS } from '../../src/server/scheduler/jobs';
import { API_KEY_WEBHOOKS_REFUSAL } from '../../src/server/auth/api-keys';

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

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function addWebhook(session: Session, at: string) {
  const answer = await session.rest('POST', '/api/webhooks', { url: `${receiver.url}${at}`, events: ['expense.created'] });
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

/** The scheduler's job run at a given instant, as the test's clock says. */
async function runJob(job: string, at: Date) {
  const scheduler = new Scheduler(server.app.connection.db, JOBS, () => at, undefined, server.app.deps);
  return (await scheduler.runDue([job]))[0];
}

const attemptsOf = async (endpointId: number) =>
  server.app.connection.db
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempts', 'sequence'])
    .where('endpoint_id', '=', endpointId)
    .execute();

const bodyOf = (r: Received) => JSON.parse(r.body) as { id: string; sequence: number; data: { label: string } };
const minutes = (t: Date, n: number) => new Date(t.getTime() + n * 60_000);

describe('webhooks an integrator can rely on', () => {
  it('a receiver down during a burst of 50 events gets all 50 once it recovers, each delivery id once, numbered 1..50', async () => {
    const t0 = new Date('2026-11-23T10:00:00Z');
    clock.now = () => t0;
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/burst');
    let down = true;
    receiver.reply = () => (down ? { status: 503, body: 'maintenance' } : { status: 200, body: 'ok' });
    for (let i = 1; i <= 50; i++) expect((await session.rest('POST', '/api/expenses', expense(`Rafale ${i}`))).status).toBe(201);
    // Each event was tried right after its commit, and failed.
    await until(
      () => attemptsOf(hook.id),
      (rows) => rows.length === 50 && rows.every((r) => r.attempts === 1),
      'fifty first attempts',
    );
    const endpoint = (await session.rest('GET', '/api/webhooks')).body.data[0];
    expect(endpoint).toMatchObject({ enabled: true, disabled_at: null, consecutive_failures: 50 });

    // Ten seconds later the receiver is back; each delivery's own schedule brings it back a minute after its failure.
    down = false;
    const failedFirst = receiver.at('/burst').length;
    expect(failedFirst).toBe(50);
    expect(await runJob('webhooks', new Date(t0.getTime() + 10_000))).toMatchObject({ message: 'Webhooks : 0 envoyé, 0 en échec' });
    expect(await runJob('webhooks', minutes(t0, 1))).toMatchObject({ message: 'Webhooks : 50 envoyés, 0 en échec' });

    const delivered = receiver.at('/burst').slice(failedFirst);
    expect(delivered).toHaveLength(50);
    const ids = delivered.map((r) => r.headers['facturier-delivery']);
    expect(new Set(ids).size).toBe(50);
    const sequences = delivered.map((r) => bodyOf(r).sequence).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    for (const r of delivered) expect(r.headers['facturier-sequence']).toBe(String(bodyOf(r).sequence));
    // The numbers follow the order of the events: event n carries sequence n.
    for (const r of delivered) expect(bodyOf(r).data.label).toBe(`Rafale ${bodyOf(r).sequence}`);
    expect((await attemptsOf(hook.id)).every((r) => r.status === 'delivered' && r.attempts === 2)).toBe(true);
    // Nothing is sent twice afterwards.
    expect(await runJob('webhooks', minutes(t0, 30))).toMatchObject({ message: 'Webhooks : 0 envoyé, 0 en échec' });
    expect(receiver.at('/burst')).toHaveLength(100);
    expect((await session.rest('GET', '/api/webhooks')).body.data[0]).toMatchObject({ consecutive_failures: 0, failing_since: null });
  });

  it('turns an endpoint off only after three days of failures, mails the owner, keeps what follows and sends it all when turned back on', async () => {
    const t0 = new Date('2026-11-23T12:00:00Z');
    clock.now = () => t0;
    const { session, user } = await registered(server.url);
    const hook = await addWebhook(session, '/gone');
    receiver.reply = () => ({ status: 500 });
    await session.rest('POST', '/api/expenses', expense('Avant la panne'));
    await until(
      () => attemptsOf(hook.id),
      (rows) => rows[0]?.attempts === 1,
      'the first attempt',
    );
    const hours = (n: number) => new Date(t0.getTime() + n * 3_600_000);
    // The schedule: 1 min, 5 min, 30 min, 2 h, 12 h, then every 12 h until 72 h.
    expect(await runJob('webhooks', minutes(t0, 1))).toMatchObject({ message: 'Webhooks : 0 envoyé, 1 en échec' });
    expect((await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data[0]).toMatchObject({
      status: 'pending',
      next_attempt_at: minutes(t0, 6).toISOString(),
    });
    expect(await runJob('webhooks', hours(62))).toMatchObject({ message: 'Webhooks : 0 envoyé, 1 en échec' });
    expect((await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data[0]).toMatchObject({
      status: 'pending',
      next_attempt_at: hours(62.6).toISOString(),
    });
    expect(await runJob('webhooks', hours(71))).toMatchObject({ message: 'Webhooks : 0 envoyé, 1 en échec' });
    expect((await session.rest('GET', '/api/webhooks')).body.data[0]).toMatchObject({ enabled: true, failing_since: t0.toISOString() });
    const outbox = path.join(server.dataDir, 'outbox');
    const mailsBefore = fs.existsSync(outbox) ? fs.readdirSync(outbox).length : 0;
    expect(await runJob('webhooks', hours(72))).toMatchObject({ message: 'Webhooks : 0 envoyé, 1 en échec' });
    const off = (await session.rest('GET', '/api/webhooks')).body.data[0];
    expect(off).toMatchObject({ enabled: false, disabled_at: hours(72).toISOString() });
    expect((await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data[0]).toMatchObject({ status: 'failed' });
    const mails = fs.readdirSync(outbox).slice(mailsBefore);
    const mail = mails.map((f) => fs.readFileSync(path.join(outbox, f), 'utf8')).find((m) => m.includes(user.email));
    expect(mail).toBeDefined();
    expect(mail).toMatch(/Subject: =\?UTF-8\?|Subject: \[Facturier\] Webhook/);
    expect(mail?.replace(/=\r?\n/g, '')).toContain('/gone');

    // Off: new events are kept, not sent, and the job leaves them.
    clock.now = () => hours(73);
    await session.rest('POST', '/api/expenses', expense('Pendant la panne 1'));
    await session.rest('POST', '/api/expenses', expense('Pendant la panne 2'));
    expect(await runJob('webhooks', hours(73))).toMatchObject({ message: 'Webhooks : 0 envoyé, 0 en échec' });
    const attemptsWhileOff = receiver.at('/gone').length;
    expect((await attemptsOf(hook.id)).filter((r) => r.status === 'pending' && r.attempts === 0)).toHaveLength(2);

    receiver.reply = () => ({ status: 200, body: 'ok' });
    const on = await session.rest('PUT', `/api/webhooks/${hook.id}`, {
      url: `${receiver.url}/gone`,
      events: ['expense.created'],
      enabled: true,
    });
    expect(on).toMatchObject({
      status: 200,
      body: { messages: 'Webhook réactivé : 3 événements en attente partent maintenant', data: { enabled: true, disabled_at: null } },
    });
    const sent = await until(
      () => receiver.at('/gone').slice(attemptsWhileOff),
      (r) => r.length === 3,
      'the three missed events',
    );
    expect(sent.map((r) => bodyOf(r).sequence).sort()).toEqual([1, 2, 3]);
    expect(sent.map((r) => bodyOf(r).data.label).sort()).toEqual(['Avant la panne', 'Pendant la panne 1', 'Pendant la panne 2']);
    await until(
      () => attemptsOf(hook.id),
      (rows) => rows.every((r) => r.status === 'delivered'),
      'all delivered',
    );
  });

  it('« Renvoyer » sends one delivery again under a new id; a replay sends every event of a range once, in sequence order', async () => {
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/again');
    for (const label of ['Un', 'Deux', 'Trois']) await session.rest('POST', '/api/expenses', expense(label));
    await until(
      () => receiver.at('/again'),
      (r) => r.length === 3,
      'three deliveries',
    );
    const log = (await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data as {
      id: string;
      event_id: string;
      sequence: number;
    }[];
    const first = log.find((d) => d.sequence === 1);
    if (!first) throw new Error('no first delivery');
    const resent = await session.rest('POST', `/api/webhooks/${hook.id}/deliveries/${first.id}/resend`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.messages).toMatch(/^Renvoyé : réponse 200 en \d+ ms$/);
    expect(resent.body.data).toMatchObject({ event_id: first.event_id, sequence: 1, status: 'delivered', attempts: 1 });
    expect(resent.body.data.id).not.toBe(first.id);
    const again = receiver.at('/again')[3];
    expect(again?.headers['facturier-delivery']).toBe(resent.body.data.id);
    expect(bodyOf(again as Received)).toMatchObject({ id: first.event_id, sequence: 1 });

    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const replay = await session.rest('POST', `/api/webhooks/${hook.id}/replay`, { from: day(-1), to: day(1) });
    expect(replay).toMatchObject({ status: 200, body: { messages: '3 événements renvoyés', data: { replayed: 3 } } });
    const replayed = await until(
      () => receiver.at('/again').slice(4),
      (r) => r.length === 3,
      'the replay',
    );
    expect(replayed.map((r) => bodyOf(r).sequence).sort()).toEqual([1, 2, 3]);
    expect(new Set(replayed.map((r) => r.headers['facturier-delivery'])).size).toBe(3);
    const empty = await session.rest('POST', `/api/webhooks/${hook.id}/replay`, { from: '2020-01-01', to: '2020-02-01' });
    expect(empty.body).toMatchObject({ messages: 'Aucun événement dans cette période', data: { replayed: 0 } });

    // Bad input, in French; another organisation's delivery is not found.
    const backwards = await session.rest('POST', `/api/webhooks/${hook.id}/replay`, { from: day(1), to: day(-1) });
    expect(backwards.status).toBe(400);
    expect(String(backwards.body.messages)).toContain('La fin de la période doit suivre son début');
    const garbled = await session.rest('POST', `/api/webhooks/${hook.id}/replay`, { from: 'hier', to: day(1) });
    expect(garbled.status).toBe(400);
    expect(String(garbled.body.messages)).toContain('Début');
    const unknown = await session.rest('POST', `/api/webhooks/${hook.id}/deliveries/00000000-0000-4000-8000-000000000000/resend`);
    expect(unknown).toMatchObject({ status: 404, body: { messages: 'Envoi introuvable' } });
    const other = await registered(server.url);
    const foreign = await other.session.rest('POST', `/api/webhooks/${hook.id}/deliveries/${first.id}/resend`);
    expect(foreign).toMatchObject({ status: 404, body: { messages: 'Webhook introuvable' } });
  });

  it('an API key with the webhooks scope manages webhooks; without it, 403', async () => {
    const { session } = await registered(server.url);
    const withScope = await session.rest('POST', '/api/api-keys', { name: 'Intégration', scope: 'read', webhooks: true });
    expect(withScope.status, JSON.stringify(withScope.body)).toBe(201);
    expect(withScope.body.data).toMatchObject({ webhooks: true, scope: 'read' });
    const without = await session.rest('POST', '/api/api-keys', { name: 'Lecture', scope: 'write' });
    expect(without.body.data.webhooks).toBe(false);
    const call = async (secret: string, method: string, at: string, body?: unknown) => {
      const response = await fetch(`${server.url}${at}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: await response.json() };
    };
    const key = withScope.body.data.secret as string;
    const created = await call(key, 'POST', '/api/webhooks', { url: `${receiver.url}/by-key`, events: ['expense.created'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await call(key, 'GET', '/api/webhooks')).body.total).toBe(1);
    expect((await call(key, 'GET', `/api/webhooks/${created.body.data.id}/deliveries`)).status).toBe(200);
    const replay = await call(key, 'POST', `/api/webhooks/${created.body.data.id}/replay`, { from: '2026-01-01', to: '2026-02-01' });
    expect(replay.status).toBe(200);
    // The scope adds the webhooks, nothing else: a read key still writes nothing.
    expect((await call(key, 'POST', '/api/customers', { name: 'Non', type: 'company' })).status).toBe(403);

    const plain = without.body.data.secret as string;
    for (const [method, at, body] of [
      ['GET', '/api/webhooks', undefined],
      ['POST', '/api/webhooks', { url: `${receiver.url}/x`, events: ['expense.created'] }],
      ['POST', `/api/webhooks/${created.body.data.id}/replay`, { from: '2026-01-01', to: '2026-02-01' }],
    ] as const) {
      expect(await call(plain, method, at, body)).toEqual({ status: 403, body: { messages: API_KEY_WEBHOOKS_REFUSAL } });
    }
    const invalid = await session.rest('POST', '/api/api-keys', { name: 'X', scope: 'read', webhooks: 'oui' });
    expect(invalid).toMatchObject({ status: 400, body: { messages: 'Webhooks : true ou false est attendu' } });
  });

  it('purges the delivery log past its 30 days, by the daily job', async () => {
    const now = new Date();
    const { session } = await registered(server.url);
    const hook = await addWebhook(session, '/old');
    clock.now = () => new Date(now.getTime() - 40 * 86_400_000);
    await session.rest('POST', '/api/expenses', expense('Ancienne'));
    clock.now = () => new Date(now.getTime() - 29 * 86_400_000);
    await session.rest('POST', '/api/expenses', expense('Récente'));
    await until(
      () => attemptsOf(hook.id),
      (rows) => rows.length === 2 && rows.every((r) => r.status === 'delivered'),
      'two deliveries',
    );
    clock.now = () => now;
    // The job purges every organisation's log: the other tests' deliveries (some at fixed dates) may be old enough too.
    expect(await runJob('webhooks-purge', now)).toMatchObject({
      ran: true,
      message: expect.stringMatching(/^\d+ envois? de plus de 30 jours supprimés?$/),
    });
    const left = (await session.rest('GET', `/api/webhooks/${hook.id}/deliveries`)).body.data;
    expect(left).toHaveLength(1);
    expect(left[0].sequence).toBe(2);
  });
});
