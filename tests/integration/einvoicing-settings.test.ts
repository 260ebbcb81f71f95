import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { withServerDb } from '../helpers/database';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { insertMembership } from '../../src/server/db/queries/organizations';
import { ROLE_REFUSAL } from '../../src/shared/roles';
import { AfnorClient } from '../../src/server/einvoice/afnor/client';
import { AfnorError } from '../../src/server/einvoice/afnor/errors';
import { AfnorTokenCache } from '../../src/server/einvoice/afnor/tokens';

let server: TestServer;
let pa: FakePa;

beforeAll(async () => {
  [server, pa] = await Promise.all([startTestServer(), startFakePa()]);
});
afterEach(() => {
  pa.reset();
});
afterAll(async () => {
  // Every request the product sent and every answer the fake gave conformed to the official OpenAPI documents.
  expect(pa.violations).toEqual([]);
  await Promise.all([server.close(), pa.close()]);
});

const oauthSettings = () => ({
  mode: 'afnor',
  flow_url: pa.flowUrl,
  directory_url: pa.directoryUrl,
  token_url: pa.tokenUrl,
  client_id: pa.clientId,
  client_secret: pa.clientSecret,
  pa_matricule: '0042',
  syntax: 'factur-x',
});

const storedRow = (organizationId: number) =>
  withServerDb(server, (db) =>
    db.selectFrom('einvoicing_settings').selectAll().where('organization_id', '=', organizationId).executeTakeFirst(),
  );

async function connected(): Promise<{ session: Session; organizationId: number }> {
  const owner = await registered(server.url);
  const put = await owner.session.rest('PUT', '/api/settings/einvoicing', oauthSettings());
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { session: owner.session, organizationId: owner.profile.organization.id };
}

describe('GET, PUT /api/settings/einvoicing', () => {
  it('keeps the folder connector for an organisation that never chose, and round-trips the settings without any secret', async () => {
    const { session } = await registered(server.url);
    expect(await session.rest('GET', '/api/settings/einvoicing')).toMatchObject({
      status: 200,
      body: { mode: 'folder', client_secret_set: false, token_set: false, syntax: 'factur-x' },
    });
    const put = await session.rest('PUT', '/api/settings/einvoicing', oauthSettings());
    expect(put.status).toBe(200);
    const expected = {
      mode: 'afnor',
      flow_url: pa.flowUrl,
      directory_url: pa.directoryUrl,
      token_url: pa.tokenUrl,
      client_id: pa.clientId,
      client_secret_set: true,
      token_set: false,
      pa_matricule: '0042',
      syntax: 'factur-x',
      profile: 'CIUS',
    };
    expect(put.body).toEqual({ messages: 'Mise à jour avec succès', data: expected });
    const get = await session.rest('GET', '/api/settings/einvoicing');
    expect(get.body).toEqual(expected);
    expect(JSON.stringify(get.body)).not.toContain(pa.clientSecret);
    // The tRPC door answers the same, without the secret either.
    expect(await session.trpc().einvoicing.settings.query()).toEqual(expected);
  });

  it('keeps the stored secret when a PUT leaves it out, and stores it encrypted (no plaintext in the row)', async () => {
    const { session, organizationId } = await connected();
    const sealed = (await storedRow(organizationId))?.client_secret ?? '';
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(pa.clientSecret);
    const row = JSON.stringify(await storedRow(organizationId));
    expect(row).not.toContain(pa.clientSecret);
    expect(row).not.toContain(Buffer.from(pa.clientSecret).toString('base64'));

    const { client_secret: _left, ...withoutSecret } = oauthSettings();
    const put = await session.rest('PUT', '/api/settings/einvoicing', { ...withoutSecret, pa_matricule: 'AB12' });
    expect(put.body.data).toMatchObject({ client_secret_set: true, pa_matricule: 'AB12' });
    expect((await storedRow(organizationId))?.client_secret).toBe(sealed);
    // Still the right secret: the platform accepts it.
    expect(await session.rest('POST', '/api/einvoicing/check')).toMatchObject({ status: 200, body: { flow: 'ok', directory: 'ok' } });
  });

  it('accepts a static bearer token instead of OAuth2, answered as token_set only', async () => {
    const { session, organizationId } = await registered(server.url).then((o) => ({
      session: o.session,
      organizationId: o.profile.organization.id,
    }));
    const put = await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa, 'ubl'));
    expect(put.body.data).toMatchObject({ token_set: true, client_secret_set: false, token_url: '', syntax: 'ubl' });
    expect(JSON.stringify(await storedRow(organizationId))).not.toContain(pa.staticToken);
    expect(await session.rest('POST', '/api/einvoicing/check')).toMatchObject({ status: 200, body: { flow: 'ok', directory: 'ok' } });
    expect(pa.calls.filter((c) => c.service === 'token')).toEqual([]);
  });

  it('answers a clear French 400 naming each bad field', async () => {
    const { session } = await registered(server.url);
    const missing = await session.rest('PUT', '/api/settings/einvoicing', {
      mode: 'afnor',
      flow_url: '',
      directory_url: '',
      token_url: pa.tokenUrl,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.messages).toEqual([
      'URL du Flow Service : obligatoire pour une plateforme agréée',
      'URL du Directory Service : obligatoire pour une plateforme agréée',
      'Matricule de la plateforme : obligatoire (4 caractères, donné par votre plateforme)',
      'Identifiant client OAuth2 : obligatoire avec une URL de jeton OAuth2',
      'Secret client OAuth2 : obligatoire avec une URL de jeton OAuth2',
    ]);
    expect(Object.keys(missing.body.fields)).toEqual(['flow_url', 'directory_url', 'pa_matricule', 'client_id', 'client_secret']);

    const malformed = await session.rest('PUT', '/api/settings/einvoicing', {
      ...oauthSettings(),
      flow_url: 'ftp://plateforme.fr',
      directory_url: 'pas une adresse',
      pa_matricule: '12',
      syntax: 'pdf',
    });
    expect(malformed.status).toBe(400);
    const text = JSON.stringify(malformed.body.messages);
    for (const label of ['URL du Flow Service', 'URL du Directory Service', 'Matricule de la plateforme', 'Format des factures']) {
      expect(text).toContain(label);
    }

    // Plain http only to loopback (and only with OUTBOUND_ALLOW_PRIVATE, as the tests set it).
    const clear = await session.rest('PUT', '/api/settings/einvoicing', {
      ...oauthSettings(),
      flow_url: 'http://plateforme.example.com/flow',
    });
    expect(clear).toMatchObject({
      status: 400,
      body: { messages: 'URL du Flow Service : https:// est obligatoire (les identifiants et les factures ne circulent pas en clair)' },
    });
    const { token_url: _t, client_id: _i, client_secret: _s, ...noAuth } = oauthSettings();
    const noToken = await session.rest('PUT', '/api/settings/einvoicing', noAuth);
    expect(noToken.body.messages).toBe(
      'Jeton d’accès : saisissez un jeton d’accès, ou l’URL du jeton OAuth2 avec l’identifiant et le secret client',
    );
    const noTokenUrl = await session.rest('PUT', '/api/settings/einvoicing', { ...oauthSettings(), token_url: '' });
    expect(noTokenUrl.body).toMatchObject({
      messages: 'URL du jeton OAuth2 : obligatoire avec un identifiant et un secret client OAuth2',
      fields: { token_url: 'Obligatoire avec un identifiant et un secret client OAuth2' },
    });
    expect((await session.rest('PUT', '/api/settings/einvoicing', { mode: 'sftp' })).body.messages).toContain('Connexion');
    // Nothing was saved by the refused writes.
    expect((await session.rest('GET', '/api/settings/einvoicing')).body.mode).toBe('folder');
  });

  it('lets owners and admins only read or change it', async () => {
    const owner = await registered(server.url);
    const organizationId = owner.profile.organization.id;
    for (const role of ['admin', 'member', 'accountant'] as const) {
      const person = await registered(server.url);
      await insertMembership(server.app.connection.db, { userId: person.profile.id, organizationId, role });
      expect((await person.session.rest('POST', `/api/organizations/${organizationId}/switch`)).status).toBe(200);
      const expected = role === 'admin' ? 200 : 403;
      expect((await person.session.rest('GET', '/api/settings/einvoicing')).status, role).toBe(expected);
      const put = await person.session.rest('PUT', '/api/settings/einvoicing', { mode: 'none' });
      expect(put.status, role).toBe(expected);
      if (expected === 403) expect(put.body.messages).toBe(ROLE_REFUSAL);
      expect((await person.session.rest('POST', '/api/einvoicing/check')).status, role).toBe(role === 'admin' ? 409 : 403);
    }
  });
});

describe('POST /api/einvoicing/check', () => {
  it('calls both healthchecks with an OAuth2 token fetched once and cached', async () => {
    const { session } = await connected();
    expect(await session.rest('POST', '/api/einvoicing/check')).toMatchObject({ status: 200, body: { flow: 'ok', directory: 'ok' } });
    expect(await session.rest('POST', '/api/einvoicing/check')).toMatchObject({ status: 200 });
    expect(pa.calls.filter((c) => c.service === 'token')).toHaveLength(1);
    expect(
      pa.calls
        .filter((c) => c.path === '/v1/healthcheck')
        .map((c) => `${c.service} ${c.status}`)
        .sort(),
    ).toEqual(['directory 200', 'directory 200', 'flow 200', 'flow 200']);
  });

  it('answers 502 naming the Flow Service when it is down, in French', async () => {
    const { session } = await connected();
    pa.fail({ target: 'flow', kind: 'unavailable' });
    const answer = await session.rest('POST', '/api/einvoicing/check');
    expect(answer).toMatchObject({
      status: 502,
      body: { messages: ['Flow Service : service indisponible (HTTP 503) (code RESOURCE_ERROR), réessayez plus tard'] },
    });
    expect(JSON.stringify(answer.body)).not.toContain('Directory');
  });

  it('gets a new token after a 401 on an expired one, and retries once', async () => {
    const { session } = await connected();
    expect((await session.rest('POST', '/api/einvoicing/check')).status).toBe(200);
    pa.calls.length = 0;
    pa.expireTokens();
    expect(await session.rest('POST', '/api/einvoicing/check')).toMatchObject({ status: 200, body: { flow: 'ok', directory: 'ok' } });
    const statuses = pa.calls.map((c) => `${c.service} ${c.status}`);
    expect(statuses.filter((s) => s.endsWith('401')).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 'token 200').length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 'flow 200' || s === 'directory 200')).toHaveLength(2);
  });

  it('says in French when the token server refuses the credentials or the platform throttles, and keeps serving', async () => {
    const owner = await registered(server.url);
    await owner.session.rest('PUT', '/api/settings/einvoicing', { ...oauthSettings(), client_secret: 'mauvais-secret' });
    expect(await owner.session.rest('POST', '/api/einvoicing/check')).toMatchObject({
      status: 502,
      body: { messages: ['Serveur d’authentification OAuth2 : identifiant ou secret client refusé (HTTP 401)'] },
    });
    const { session } = await connected();
    pa.fail({ target: 'directory', kind: 'unavailable', retryAfter: 30 });
    pa.fail({ target: 'flow', kind: 'server-error' });
    expect((await session.rest('POST', '/api/einvoicing/check')).body.messages).toEqual([
      'Flow Service : erreur de la plateforme (HTTP 500) (code INTERNAL_ERROR), réessayez plus tard',
      'Directory Service : service indisponible (HTTP 503) (code RESOURCE_ERROR), réessayez plus tard',
    ]);
    pa.reset();
    // The process survived all of it.
    expect(await session.rest('POST', '/api/einvoicing/check')).toMatchObject({ status: 200 });
    expect((await session.rest('GET', '/api/auth')).status).toBe(200);
  });

  it('names a platform that does not answer at all', async () => {
    const { session } = await registered(server.url);
    // A closed port on loopback: connection refused, said as such.
    await session.rest('PUT', '/api/settings/einvoicing', { ...oauthSettings(), flow_url: 'http://127.0.0.1:9/flow-service' });
    const answer = await session.rest('POST', '/api/einvoicing/check');
    expect(answer.status).toBe(502);
    expect(answer.body.messages[0]).toMatch(/^Flow Service : connexion refusée/);
  });

  it('answers 409 when no platform is configured', async () => {
    const { session } = await registered(server.url);
    expect(await session.rest('POST', '/api/einvoicing/check')).toMatchObject({ status: 409 });
  });
});

describe('the XP Z12-013 client against the fake PA', () => {
  const connection = () => ({
    organizationId: 987_654,
    flowUrl: pa.flowUrl,
    directoryUrl: pa.directoryUrl,
    auth: { kind: 'oauth' as const, tokenUrl: pa.tokenUrl, clientId: pa.clientId, clientSecret: pa.clientSecret },
    allowPrivate: true,
  });

  it('keeps a token until shortly before expires_in, then fetches a new one', async () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const tokens = new AfnorTokenCache(() => now);
    const client = new AfnorClient(connection(), tokens);
    await client.healthcheck('flow');
    now += 3_500_000; // the fake grants 3600 s: still fresh 100 s before the end
    await client.healthcheck('directory');
    expect(pa.calls.filter((c) => c.service === 'token')).toHaveLength(1);
    now += 80_000; // 20 s before the end: renewed ahead of time
    await client.healthcheck('flow');
    expect(pa.calls.filter((c) => c.service === 'token')).toHaveLength(2);
  });

  it('gives up after its timeout with a French reason, and passes on 429 Retry-After', async () => {
    const client = new AfnorClient(connection(), new AfnorTokenCache());
    pa.fail({ target: 'flow', kind: 'timeout', times: 1 });
    const started = Date.now();
    const late = await client.call('flow', { method: 'GET', path: '/v1/healthcheck', timeoutMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(late).toBeInstanceOf(AfnorError);
    expect((late as AfnorError).message).toBe('Flow Service : pas de réponse en 1 s');
    expect((late as AfnorError).transient).toBe(true);

    // 429 is documented on the directory's lookups (not on healthchecks): the fake plays it there.
    pa.handle('directory', 'GET', '/v1/siren/code-insee:{siren}', () => ({ status: 404, body: { errorCode: 'NOT_FOUND' } }));
    pa.fail({ target: 'directory', kind: 'throttled', retryAfter: 7, times: 1 });
    const throttled = await client.call('directory', { method: 'GET', path: '/v1/siren/code-insee:123456789' }).catch((e: unknown) => e);
    expect(throttled).toMatchObject({ failure: 'throttled', retryAfterSeconds: 7, status: 429 });
    expect((throttled as AfnorError).message).toBe(
      'Directory Service : trop de requêtes (HTTP 429) (code TOO_MANY_REQUESTS), réessayez dans 7 s',
    );
  });

  it('the fake itself records what breaks the documents (its checks are live)', async () => {
    const own = await startFakePa();
    try {
      await fetch(`${own.flowUrl}/v1/healthcheck`, { headers: { 'request-id': 'pas-un-uuid' } });
      await fetch(`${own.flowUrl}/v1/flows/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"where":1}',
      });
      await fetch(`${own.flowUrl}/v1/nowhere`);
      own.handle('flow', 'GET', '/v1/healthcheck', () => ({ status: 418 }));
      await fetch(`${own.flowUrl}/v1/healthcheck`, { headers: { authorization: `Bearer ${own.staticToken}` } });
      const text = own.violations.join('\n');
      expect(text).toContain('flow GET /v1/healthcheck: header parameter Request-Id: data must match format "uuid"');
      expect(text).toContain('flow POST /v1/flows/search: body does not match its schema');
      expect(text).toContain('flow GET /v1/nowhere: no such operation');
      expect(text).toContain('flow GET /v1/healthcheck → 418: status not documented');
      expect(own.documentDefects).toHaveLength(2);

      // Multipart (POST /v1/flows): each part against its schema and its allowed media types.
      own.handle('flow', 'POST', '/v1/flows', () => ({ status: 400, body: { errorCode: 'TEST' } }));
      const post = (flowInfo: unknown, fileType: string) => {
        const form = new FormData();
        form.append('flowInfo', new Blob([JSON.stringify(flowInfo)], { type: 'application/json' }), 'flowInfo.json');
        form.append('file', new Blob(['<Invoice/>'], { type: fileType }), 'facture.xml');
        return fetch(`${own.flowUrl}/v1/flows`, { method: 'POST', headers: { authorization: `Bearer ${own.staticToken}` }, body: form });
      };
      const before = own.violations.length;
      const good = { trackingId: 'F2026-0001', name: 'facture.xml', processingRule: 'B2B', flowSyntax: 'CII', flowProfile: 'CIUS' };
      expect((await post(good, 'application/xml')).status).toBe(400);
      expect(own.violations.slice(before)).toEqual([]);
      await post({ name: 'facture.xml', flowSyntax: 'PDF' }, 'text/plain');
      const flows = own.violations.slice(before).join('\n');
      expect(flows).toContain('part flowInfo does not match its schema');
      expect(flows).toContain('part file of type text/plain, the document allows application/pdf, application/xml');
    } finally {
      await own.close();
    }
  });
});

describe('platform URLs with the outbound guard on (OUTBOUND_ALLOW_PRIVATE=false)', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ env: { OUTBOUND_ALLOW_PRIVATE: 'false' } });
  });
  afterAll(async () => {
    await strict.close();
  });

  it('refuses plain http and internal addresses, naming the field', async () => {
    const { session } = await registered(strict.url);
    const base = { mode: 'afnor', token: 'un-jeton', pa_matricule: '0042', directory_url: 'https://10.0.0.8/directory-service' };
    const answer = await session.rest('PUT', '/api/settings/einvoicing', { ...base, flow_url: pa.flowUrl });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toEqual([
      'URL du Flow Service : https:// est obligatoire (les identifiants et les factures ne circulent pas en clair)',
      'URL du Directory Service : cette adresse n’est pas joignable depuis Facturier (nom inconnu, ou adresse interne : localhost, réseau privé, lien local)',
    ]);
    expect((await session.rest('GET', '/api/settings/einvoicing')).body.mode).toBe('folder');
  });
});
