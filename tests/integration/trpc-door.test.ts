import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src/server/routers/_app';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { DEMO_OWNER, loginOrRegister } from '../../scripts/seed';
import { createApiClient } from '../../scripts/api-client';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the /api/trpc door speaks tRPC’s wire format', () => {
  it('answers a batch of queries in one request, each with its own result or error', async () => {
    const { session } = await registered(server.url);
    const trpc = session.trpc();
    const [me, settings, bad] = await Promise.allSettled([
      trpc.auth.me.query(),
      trpc.settings.get.query(),
      trpc.settings.get.query({ key: 'inconnue' as 'document' }),
    ]);
    expect(me.status).toBe('fulfilled');
    expect(settings.status === 'fulfilled' && settings.value).toMatchObject({ theme: 'light' });
    expect(bad.status).toBe('rejected');
    const error = (bad as PromiseRejectedResult).reason as TRPCClientError<AppRouter>;
    expect(error.data).toMatchObject({ httpStatus: 400, code: 'BAD_REQUEST' });
    expect(error.message).toContain('Clé de paramètres inconnue');
  });

  it('answers 207 to a mixed batch and keeps tRPC’s JSON shape on the wire', async () => {
    const { session } = await registered(server.url);
    const input = encodeURIComponent(JSON.stringify({ 0: { json: null }, 1: { json: { key: 'x' } } }));
    const answer = await session.rest('GET', `/api/trpc/auth.me,settings.get?batch=1&input=${input}`);
    expect(answer.status).toBe(207);
    expect(answer.body[0].result.data.json.email).toMatch(/@exemple\.fr$/);
    expect(answer.body[1].error.json.data).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    expect(JSON.stringify(answer.body)).not.toContain('stack');
  });

  it('refuses a mutation sent as a query and a query sent as a mutation', async () => {
    const session = new Session(server.url);
    expect((await session.rest('GET', '/api/trpc/auth.logout')).status).toBe(404);
    expect((await session.rest('POST', '/api/trpc/auth.me', { json: null })).status).toBe(404);
  });

  it('still serves streaming clients through tRPC’s own adapter', async () => {
    const { session } = await registered(server.url);
    const response = await session.fetch(`${server.url}/api/trpc/auth.me?batch=1&input=${encodeURIComponent('{"0":{"json":null}}')}`, {
      headers: { 'trpc-accept': 'application/jsonl' },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"email"');
  });
});

describe('a read asked again with the same query string', () => {
  const trpcGet = (procedure: string, input: unknown) =>
    `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;

  it('is answered each time as the first time: a refusal stays one, a write shows at once, each procedure its own', async () => {
    const { session } = await registered(server.url);
    const withNul = trpcGet('customers.list', { search: 'a\u0000b' });
    const broken = `/api/trpc/customers.list?input=${encodeURIComponent('{"json":{"search":')}`;
    // A kept answer of the list without input: an input that does not parse must never be taken for none.
    expect((await session.rest('GET', '/api/trpc/customers.list')).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const refused = await session.rest('GET', withNul);
      expect(refused.status).toBe(400);
      expect(refused.body.error.json.message).toContain('Caractère nul interdit dans la saisie');
      expect((await session.rest('GET', broken)).status).toBe(400);
    }

    const list = trpcGet('customers.list', { search: 'Fontaine' });
    expect((await session.rest('GET', list)).body.result.data.json.total).toBe(0);
    expect((await session.rest('GET', list)).body.result.data.json.total).toBe(0);
    expect((await session.rest('POST', '/api/customers', { name: 'Atelier Fontaine' })).status).toBe(201);
    const after = await session.rest('GET', list);
    expect(after.body.result.data.json.total).toBe(1);
    expect(after.body.result.data.json.data[0].name).toBe('Atelier Fontaine');
    // Another input of the same length: its own answer.
    expect((await session.rest('GET', trpcGet('customers.list', { search: 'Fontainf' }))).body.result.data.json.total).toBe(0);

    // The same input text for another procedure: its own answer, not the customers'.
    const items = await session.rest('GET', trpcGet('items.list', { search: 'Fontaine' }));
    expect(items.status).toBe(200);
    expect(items.body.result.data.json.total).toBe(0);
  });
});

describe('seed', () => {
  it('registers the demo owner on a fresh database, then logs in on the next run', async () => {
    const first = await loginOrRegister(createApiClient(server.url).client);
    expect(first.created).toBe(true);
    expect(first.user.organization.name).toBe(DEMO_OWNER.organization);
    const second = await loginOrRegister(createApiClient(server.url).client);
    expect(second.created).toBe(false);
    expect(second.user.id).toBe(first.user.id);
  });
});
