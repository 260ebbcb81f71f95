import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { createApiClient } from '../../scripts/api-client';
import { seedWithKey } from '../../scripts/seed';
import { SELLER_IDENTITY } from '../../scripts/seed/customers';
import type { AppRouter } from '../../src/server/routers/_app';
import { hashToken } from '../../src/server/auth/tokens';
import { clock } from '../../src/server/clock';
import {
  API_KEY_REVOKED,
  API_KEY_SELF_REFUSAL,
  API_KEY_UNKNOWN,
  AUTHORIZATION_MALFORMED,
  apiKeyScopeRefusal,
} from '../../src/server/auth/api-keys';
import { ROLE_REFUSAL, type Role } from '../../src/shared/roles';

const RATE_LIMIT = 25;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { API_KEY_MAX_PER_MINUTE: String(RATE_LIMIT) } });
});
afterAll(() => server.close());

/** A REST call carrying only the key (no cookie), as curl or a script would. */
async function withKey(secret: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: a REST answer is plain JSON, checked by expect()
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as any, headers: response.headers };
}

async function createKey(owner: Session, name: string, scope: 'read' | 'write') {
  const answer = await owner.rest('POST', '/api/api-keys', { name, scope });
  expect(answer.status).toBe(201);
  return answer.body.data as { id: number; secret: string; prefix: string };
}

describe('API keys: created, listed, revoked', () => {
  it('answers the secret once, keeps only its SHA-256, lists the key without it, and revokes it', async () => {
    const { session: owner } = await registered(server.url);
    const created = await owner.rest('POST', '/api/api-keys', { name: '  Comptabilité  ', scope: 'read' });
    expect(created.status).toBe(201);
    expect(created.body.messages).toBe('Clé d’API créée : copiez-la maintenant, elle ne sera plus affichée');
    const { secret, prefix, id } = created.body.data;
    expect(secret).toMatch(/^fk_live_[a-z2-7]{52}$/);
    expect(prefix).toBe(secret.slice(0, 12));
    expect(created.body.data).toMatchObject({ name: 'Comptabilité', scope: 'read', last_used_at: null, created_by: 'Camille Durand' });

    const row = await server.app.deps.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashToken(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(12));

    const list = await owner.rest('GET', '/api/api-keys');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, data: [{ id, name: 'Comptabilité', scope: 'read', prefix }] });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(12));
    expect(list.body.data[0]).not.toHaveProperty('secret');
    expect(list.body.data[0]).not.toHaveProperty('secret_hash');

    // Used once: « dernière utilisation » is set.
    expect((await withKey(secret, 'GET', '/api/customers')).status).toBe(200);
    expect((await owner.rest('GET', '/api/api-keys')).body.data[0].last_used_at).toEqual(expect.any(String));

    expect(await owner.rest('DELETE', `/api/api-keys/${id}`)).toMatchObject({ status: 200, body: { messages: 'Clé d’API révoquée' } });
    expect((await owner.rest('GET', '/api/api-keys')).body).toEqual({ total: 0, data: [] });
    expect(await withKey(secret, 'GET', '/api/customers')).toMatchObject({ status: 401, body: { messages: API_KEY_REVOKED } });
    expect(await owner.rest('DELETE', `/api/api-keys/${id}`)).toMatchObject({ status: 404, body: { messages: 'Clé d’API introuvable' } });
  });

  it('refuses an empty name and an unknown scope in French (400), and creates nothing', async () => {
    const { session: owner } = await registered(server.url);
    const empty = await owner.rest('POST', '/api/api-keys', { name: '   ', scope: 'read' });
    expect(empty).toMatchObject({ status: 400 });
    expect(String(empty.body.messages)).toContain('Donnez un nom à la clé');
    const scope = await owner.rest('POST', '/api/api-keys', { name: 'Zapier', scope: 'admin' });
    expect(scope.status).toBe(400);
    expect(String(scope.body.messages)).toContain('Portée inconnue : choisissez read (lecture seule) ou write (lecture et écriture)');
    const missing = await owner.rest('POST', '/api/api-keys', { scope: 'write' });
    expect(missing.status).toBe(400);
    expect(String(missing.body.messages)).toContain('Donnez un nom à la clé');
    await expect(owner.trpc().apiKeys.create.mutate({ name: '', scope: 'read' })).rejects.toThrow('Donnez un nom à la clé');
    expect((await owner.rest('GET', '/api/api-keys')).body.total).toBe(0);
  });

  it('lets only owners and admins manage keys', async () => {
    const { session: owner } = await registered(server.url);
    const key = await createKey(owner, 'Export', 'read');
    for (const role of ['member', 'accountant'] satisfies Role[]) {
      const { session, profile } = await registered(server.url);
      await sql`update memberships set role = ${role} where user_id = ${profile.id}`.execute(server.app.deps.db);
      expect(await session.rest('GET', '/api/api-keys')).toMatchObject({ status: 403, body: { messages: ROLE_REFUSAL } });
      expect(await session.rest('POST', '/api/api-keys', { name: 'x', scope: 'read' })).toMatchObject({ status: 403 });
    }
    const { session: admin, profile } = await registered(server.url);
    await sql`update memberships set role = 'admin' where user_id = ${profile.id}`.execute(server.app.deps.db);
    expect((await admin.rest('POST', '/api/api-keys', { name: 'CI', scope: 'write' })).status).toBe(201);
    // The owner's key belongs to another organisation than this admin's: 404, as any other record.
    expect(await admin.rest('DELETE', `/api/api-keys/${key.id}`)).toMatchObject({ status: 404 });
  });
});

describe('Authorization: Bearer on REST and tRPC', () => {
  it('reads with a read key on REST and on /api/trpc, and refuses its writes with 403', async () => {
    const { session: owner } = await registered(server.url);
    await owner.rest('POST', '/api/customers', { name: 'Dupont SA' });
    const { secret } = await createKey(owner, 'Lecture', 'read');

    const list = await withKey(secret, 'GET', '/api/customers');
    expect(list).toMatchObject({ status: 200, body: { total: 1, data: [{ name: 'Dupont SA' }] } });
    const write = await withKey(secret, 'POST', '/api/customers', { name: 'Martin SARL' });
    expect(write).toMatchObject({ status: 403, body: { messages: apiKeyScopeRefusal('read') } });

    const { client } = createApiClient(server.url, { apiKey: secret });
    expect((await client.customers.list.query({})).total).toBe(1);
    await expect(client.customers.create.mutate({ name: 'Martin SARL' } as never)).rejects.toThrow(apiKeyScopeRefusal('read'));
    expect((await owner.rest('GET', '/api/customers')).body.total).toBe(1);
  });

  it('writes the day’s records with a write key, but never settings, members, keys or personal pages', async () => {
    const { session: owner } = await registered(server.url);
    const { secret } = await createKey(owner, 'Écriture', 'write');
    const created = await withKey(secret, 'POST', '/api/customers', { name: 'Martin SARL' });
    expect(created.status).toBe(201);
    const { client } = createApiClient(server.url, { apiKey: secret });
    expect((await client.items.create.mutate({ name: 'Conseil', unit_price: 100 } as never)).data.name).toBe('Conseil');
    const refusal = apiKeyScopeRefusal('write');
    expect(await withKey(secret, 'PUT', '/api/organization', { name: 'Autre' })).toMatchObject({
      status: 403,
      body: { messages: refusal },
    });
    expect(await withKey(secret, 'GET', '/api/api-keys')).toMatchObject({ status: 403, body: { messages: refusal } });
    expect(await withKey(secret, 'POST', '/api/api-keys', { name: 'x', scope: 'write' })).toMatchObject({ status: 403 });
    expect(await withKey(secret, 'POST', '/api/members', { email: 'a@b.fr', role: 'admin' })).toMatchObject({ status: 403 });
    expect(await withKey(secret, 'DELETE', `/api/customers/${created.body.data.id}`)).toMatchObject({ status: 403 });
    expect(await withKey(secret, 'GET', '/api/devices')).toMatchObject({ status: 403, body: { messages: API_KEY_SELF_REFUSAL } });
    // Its organisation is the key's: the user it answers is the key's creator there.
    expect((await withKey(secret, 'GET', '/api/auth')).body.organization.id).toEqual(
      (await owner.rest('GET', '/api/auth')).body.organization.id,
    );
  });

  it('never acts beyond its creator’s current role', async () => {
    const { session: owner, profile } = await registered(server.url);
    const { secret } = await createKey(owner, 'Écriture', 'write');
    await sql`update memberships set role = 'accountant' where user_id = ${profile.id}`.execute(server.app.deps.db);
    expect((await withKey(secret, 'GET', '/api/customers')).status).toBe(200);
    expect(await withKey(secret, 'POST', '/api/customers', { name: 'Martin SARL' })).toMatchObject({ status: 403 });
  });

  it('answers 404 for another organisation’s record, as for a session', async () => {
    const { session: other } = await registered(server.url);
    const foreign = await other.rest('POST', '/api/customers', { name: 'Ailleurs SAS' });
    const { session: owner } = await registered(server.url);
    const { secret } = await createKey(owner, 'Lecture', 'write');
    expect(await withKey(secret, 'GET', `/api/customers/${foreign.body.data.id}`)).toMatchObject({ status: 404 });
    expect(await withKey(secret, 'PUT', `/api/customers/${foreign.body.data.id}`, { name: 'Volé' })).toMatchObject({ status: 404 });
    expect((await other.rest('GET', `/api/customers/${foreign.body.data.id}`)).body.name).toBe('Ailleurs SAS');
  });

  it('answers 401 in French to an unknown or revoked key and a malformed header, never falling back to the cookie', async () => {
    const { session: owner } = await registered(server.url);
    const { secret, id } = await createKey(owner, 'Bientôt révoquée', 'write');
    await owner.rest('DELETE', `/api/api-keys/${id}`);
    // The owner's own cookie rides along: the revoked key still decides.
    expect(await owner.rest('GET', '/api/customers', undefined, { authorization: `Bearer ${secret}` })).toMatchObject({
      status: 401,
      body: { messages: API_KEY_REVOKED },
    });
    expect(await owner.rest('GET', '/api/customers', undefined, { authorization: 'Basic YTpi' })).toMatchObject({
      status: 401,
      body: { messages: AUTHORIZATION_MALFORMED },
    });
    expect(await withKey(`fk_live_${'a'.repeat(52)}`, 'GET', '/api/customers')).toMatchObject({
      status: 401,
      body: { messages: API_KEY_UNKNOWN },
    });
    expect(await withKey('nimporte', 'GET', '/api/auth')).toMatchObject({ status: 401, body: { messages: API_KEY_UNKNOWN } });
    const trpc = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${server.url}/api/trpc`,
          transformer: superjson,
          headers: { authorization: `Bearer ${secret}`, cookie: owner.cookie ?? '' },
        }),
      ],
    });
    await expect(trpc.customers.list.query({})).rejects.toThrow(API_KEY_REVOKED);
  });

  it('needs no same-origin check: a key works from another site’s page, a cookie does not', async () => {
    const { session: owner } = await registered(server.url);
    const { secret } = await createKey(owner, 'Écriture', 'write');
    const foreign = { origin: 'https://ailleurs.example' };
    expect((await withKey(secret, 'POST', '/api/customers', { name: 'Martin SARL' }, foreign)).status).toBe(201);
    expect((await owner.rest('POST', '/api/customers', { name: 'Martin SARL' }, foreign)).status).toBe(403);
  });

  it('limits each key per minute: 429 in French with Retry-After, other keys unaffected', async () => {
    const { session: owner } = await registered(server.url);
    const busy = await createKey(owner, 'Script pressé', 'read');
    const calm = await createKey(owner, 'Script calme', 'read');
    for (let i = 0; i < RATE_LIMIT; i++) expect((await withKey(busy.secret, 'GET', '/api/taxes')).status).toBe(200);
    const refused = await withKey(busy.secret, 'GET', '/api/taxes');
    expect(refused.status).toBe(429);
    expect(refused.body.messages).toBe(
      `Trop de requêtes avec cette clé d’API : ${RATE_LIMIT} par minute au plus, réessayez dans un instant`,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const trpc = await fetch(`${server.url}/api/trpc/taxes.list`, { headers: { authorization: `Bearer ${busy.secret}` } });
    expect(trpc.status).toBe(429);
    expect((await withKey(calm.secret, 'GET', '/api/taxes')).status).toBe(200);
  });
});

describe('npm run seed with a key', () => {
  it('the typed client waits for Retry-After when its key is over the limit, then goes on', async () => {
    const { session: owner } = await registered(server.url);
    const { secret } = await createKey(owner, 'Script', 'read');
    for (let i = 0; i < RATE_LIMIT; i++) await withKey(secret, 'GET', '/api/taxes');
    expect((await withKey(secret, 'GET', '/api/taxes')).status).toBe(429);
    // The key's minute is nearly over: the refusal names a wait of a second or two, and the client honours it.
    const realNow = clock.now;
    clock.now = () => new Date(Date.now() + 59_000);
    try {
      const { client } = createApiClient(server.url, { apiKey: secret });
      expect((await client.taxes.list.query()).data.length).toBeGreaterThan(0);
    } finally {
      clock.now = realNow;
    }
  });

  it('fills the key’s organisation through the typed client, and refuses one that has data', async () => {
    const seedServer = await startTestServer();
    try {
      const { session: owner } = await registered(seedServer.url);
      const secret = (await owner.rest('POST', '/api/api-keys', { name: 'Seed', scope: 'write' })).body.data.secret;
      // The seller's identity is the owner's to write, not the key's: the seed says so before creating anything.
      await expect(seedWithKey(seedServer.url, secret, { documents: 5, seed: 3 })).rejects.toThrow(
        'complétez d’abord Paramètres → Infos de l’entreprise',
      );
      expect((await owner.rest('GET', '/api/customers?per_page=1')).body.total).toBe(0);
      expect((await owner.rest('PUT', '/api/organization', SELLER_IDENTITY)).status).toBe(200);
      const summary = await seedWithKey(seedServer.url, secret, { documents: 5, seed: 3 });
      expect(summary.documents).toBe(5);
      expect((await owner.rest('GET', '/api/documents?per_page=1')).body.total).toBe(5);
      expect((await owner.rest('GET', '/api/customers?per_page=1')).body.total).toBe(summary.customers);
      await expect(seedWithKey(seedServer.url, secret, { documents: 5, seed: 3 })).rejects.toThrow('a déjà des clients ou des documents');
    } finally {
      await seedServer.close();
    }
  }, 180_000);
});
