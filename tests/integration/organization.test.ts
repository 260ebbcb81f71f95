import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const PNG_1x1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const identity = {
  name: 'Atelier Fontaine',
  legal_form: 'SARL',
  capital: '10 000 €',
  siret: '552 032 534 00646',
  rcs_city: 'Paris',
  vat_number: 'fr27552032534',
  vat_regime: 'normal',
  vat_on_debits: true,
  email: 'contact@fontaine.example',
  address: { line1: '3 rue des Arts', postal_code: '75003', city: 'Paris' },
  identifications: [{ key: 'APE', value: '7022Z' }],
};

describe('Paramètres → Infos de l’entreprise (GET/PUT /api/organization)', () => {
  it('starts from the name given at registration, saves the legal identity, and renames the organisation', async () => {
    const { session, user } = await registered(server.url);
    const initial = await session.rest('GET', '/api/organization');
    expect(initial.body).toMatchObject({ name: user.organization, vat_regime: 'normal', siret: '', logo_url: null });

    const saved = await session.rest('PUT', '/api/organization', identity);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      messages: 'Mise à jour avec succès',
      data: { name: 'Atelier Fontaine', vat_number: 'FR27552032534', vat_on_debits: true },
    });
    expect((await session.rest('GET', '/api/auth')).body.organization.name).toBe('Atelier Fontaine');
    expect((await session.trpc().organization.get.query()).identifications).toEqual([{ key: 'APE', value: '7022Z' }]);
  });

  it.each([
    [{ ...identity, name: '' }, 'Le nom de l’entreprise est obligatoire'],
    [{ ...identity, siret: '55203253400647' }, 'SIRET invalide'],
    [{ ...identity, vat_number: 'FR00552032534' }, 'la clé ne correspond pas au SIREN'],
    [{ ...identity, vat_regime: 'micro' }, 'Régime de TVA'],
  ])('refuses %#', async (body, message) => {
    const { session, user } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/organization', body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.messages)).toContain(message);
    expect((await session.rest('GET', '/api/organization')).body.name).toBe(user.organization);
  });

  it('stores a PNG logo on disk, serves it publicly under a random name, replaces and deletes it', async () => {
    const { session } = await registered(server.url);
    const first = await session.rest('POST', '/api/organization/logo', { data_url: PNG_1x1 });
    expect(first.status).toBe(200);
    const url: string = first.body.data.logo_url;
    expect(url).toMatch(/^\/uploads\/logos\/[0-9a-f-]{36}\.png$/);
    const image = await fetch(`${server.url}${url}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect((await session.rest('GET', '/api/organization')).body.logo_url).toBe(url);

    const second = (await session.rest('POST', '/api/organization/logo', { data_url: PNG_1x1 })).body.data.logo_url;
    expect(second).not.toBe(url);
    expect((await fetch(`${server.url}${url}`)).status).toBe(404); // the replaced file is gone
    expect((await session.rest('DELETE', '/api/organization/logo')).status).toBe(200);
    expect((await fetch(`${server.url}${second}`)).status).toBe(404);
    expect((await session.rest('GET', '/api/organization')).body.logo_url).toBeNull();
  });

  it.each([
    ['an SVG', 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=', 400, 'PNG, JPEG ou WebP'],
    ['a text file called PNG', `data:image/png;base64,${Buffer.from('pas une image').toString('base64')}`, 400, 'n’est pas une image'],
    ['an image over 1 MB', `data:image/png;base64,iVBORw0KGgo${'A'.repeat(1_500_000)}`, 400, 'dépasse 1 Mo'],
  ])('refuses %s', async (_label, dataUrl, status, message) => {
    const { session } = await registered(server.url);
    const answer = await session.rest('POST', '/api/organization/logo', { data_url: dataUrl });
    expect(answer.status).toBe(status);
    expect(JSON.stringify(answer.body.messages)).toContain(message);
    expect((await session.rest('GET', '/api/organization')).body.logo_url).toBeNull();
  });

  it('serves only names the server generated, and is 401 logged out', async () => {
    expect((await fetch(`${server.url}/uploads/logos/../../test.db`)).status).toBe(404);
    expect((await fetch(`${server.url}/uploads/logos/%2e%2e%2ftest.db`)).status).toBe(404);
    expect((await new Session(server.url).rest('GET', '/api/organization')).status).toBe(401);
  });
});
