import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { defined } from '../../src/shared/defined';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const danone = {
  name: 'Danone',
  legal_name: 'Danone SA',
  email: 'compta@danone.example',
  business_id: '552 032 534 00646',
  vat_number: 'FR 27 552032534',
  address: { line1: '17 boulevard Haussmann', postal_code: '75009', city: 'Paris' },
  maturity: 45,
};

describe('customers (REST and tRPC)', () => {
  it('creates customers numbered CL-00001, CL-00002… and answers CONTRACT.md’s shapes', async () => {
    const { session } = await registered(server.url);
    const first = await session.rest('POST', '/api/customers', danone);
    expect(first.status).toBe(201);
    expect(first.body.messages).toBe('Ajouté avec succès');
    expect(first.body.data).toMatchObject({
      number: 'CL-00001',
      name: 'Danone',
      vat_number: 'FR27552032534',
      business_id: '55203253400646',
      maturity: 45,
      deleted_at: null,
    });
    expect(first.body.data.address).toMatchObject({ city: 'Paris', country: 'France' });

    const second = await session.trpc().customers.create.mutate({ name: 'Marie Curie', type: 'individual', address: { city: 'Lyon' } });
    expect(second.data.number).toBe('CL-00002');

    const list = await session.rest('GET', '/api/customers?sort_by=number');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.data.map((c: { number: string }) => c.number)).toEqual(['CL-00001', 'CL-00002']);
    expect((await session.rest('GET', `/api/customers/${first.body.data.id}`)).body.name).toBe('Danone');
  });

  it('searches by name, number, e-mail and SIREN; filters by type and city; paginates', async () => {
    const { session } = await registered(server.url);
    for (const name of ['Atelier Bleu', 'Boulangerie Martin', 'Café 100%', 'Dupont & Fils']) {
      const created = await session.rest('POST', '/api/customers', {
        name,
        email: `${defined(name.split(' ')[0])
          .normalize('NFD')
          .replace(/[^a-z]/gi, '')
          .toLowerCase()}@exemple.fr`,
        address: { city: name.startsWith('B') ? 'Lyon' : 'Paris' },
      });
      expect(created.status).toBe(201);
    }
    await session.rest('POST', '/api/customers', danone);
    const names = async (q: string) => (await session.rest('GET', `/api/customers?${q}`)).body.data.map((c: { name: string }) => c.name);
    expect(await names('search=boulang')).toEqual(['Boulangerie Martin']);
    expect(await names('search=CL-00003')).toEqual(['Café 100%']);
    expect(await names('search=atelier%40')).toEqual(['Atelier Bleu']);
    expect(await names('search=552032534')).toEqual(['Danone']);
    expect(await names('search=100%25')).toEqual(['Café 100%']); // a typed % is a character, not a wildcard
    expect(await names('city=lyon')).toEqual(['Boulangerie Martin']);
    expect(await names('type=individual')).toEqual([]);
    const page2 = await session.rest('GET', '/api/customers?per_page=2&page=2&sort_by=name');
    expect(page2.body).toMatchObject({ total: 5 });
    expect(page2.body.data.map((c: { name: string }) => c.name)).toEqual(['Café 100%', 'Danone']);
  });

  it('finds look-alikes before a save: same SIREN, or same name and e-mail, archived ones too', async () => {
    const { session } = await registered(server.url);
    const created = (await session.rest('POST', '/api/customers', danone)).body.data;
    const trpc = session.trpc();
    // A SIRET of the same company: same SIREN.
    expect((await trpc.customers.duplicates.query({ name: 'Autre nom', business_id: '55203253400012' })).data).toEqual([
      {
        id: created.id,
        number: 'CL-00001',
        name: 'Danone',
        email: 'compta@danone.example',
        business_id: '55203253400646',
        deleted_at: null,
        reason: 'siren',
      },
    ]);
    // Same name and e-mail, case and spaces aside.
    expect((await trpc.customers.duplicates.query({ name: ' danone ', email: 'COMPTA@danone.example' })).data).toMatchObject([
      { id: created.id, reason: 'name_email' },
    ]);
    // Same name with another e-mail, a partial SIREN, or the customer being edited: nothing.
    expect((await trpc.customers.duplicates.query({ name: 'Danone', email: 'autre@danone.example' })).data).toEqual([]);
    expect((await trpc.customers.duplicates.query({ name: 'X', business_id: '5520' })).data).toEqual([]);
    expect((await trpc.customers.duplicates.query({ business_id: '552032534', exclude_id: created.id })).data).toEqual([]);
    // Archived: still found (restoring beats a second record).
    await session.rest('DELETE', `/api/customers/${created.id}`);
    expect((await trpc.customers.duplicates.query({ business_id: '552 032 534' })).data[0]).toMatchObject({ id: created.id });
    // Another organisation's customer is never named.
    const { session: other } = await registered(server.url);
    expect((await other.trpc().customers.duplicates.query({ business_id: '552032534' })).data).toEqual([]);
    // A bad input is refused with a French message.
    await expect(trpc.customers.duplicates.query({ name: 'x'.repeat(201) })).rejects.toThrow(/Nom/);
  });

  it('updates with the same validation, archives (soft delete) and restores; numbers are never reused', async () => {
    const { session } = await registered(server.url);
    const created = (await session.rest('POST', '/api/customers', danone)).body.data;
    const updated = await session.rest('PUT', `/api/customers/${created.id}`, { ...danone, name: 'Danone France', maturity: 30 });
    expect(updated).toMatchObject({
      status: 200,
      body: { messages: 'Mis à jour avec succès', data: { name: 'Danone France', maturity: 30, number: 'CL-00001' } },
    });

    expect((await session.rest('DELETE', `/api/customers/${created.id}`)).body).toEqual({ messages: 'Archivé avec succès' });
    expect((await session.rest('GET', '/api/customers')).body.total).toBe(0);
    expect((await session.rest('GET', '/api/customers?archived=only')).body.data[0].deleted_at).toMatch(/^\d{4}-/);
    const editArchived = await session.rest('PUT', `/api/customers/${created.id}`, danone);
    expect(editArchived.status).toBe(409);

    const next = (await session.rest('POST', '/api/customers', { name: 'Nouveau' })).body.data;
    expect(next.number).toBe('CL-00002'); // the archived customer keeps CL-00001
    const restored = await session.rest('POST', `/api/customers/${created.id}/restore`);
    expect(restored.body.data).toMatchObject({ deleted_at: null, number: 'CL-00001' });
    expect((await session.rest('GET', '/api/customers')).body.total).toBe(2);
  });

  it.each([
    [{ name: '' }, 'Le nom du client est obligatoire'],
    [{ name: 'X', business_id: '552032535' }, 'SIREN invalide'],
    [{ name: 'X', vat_number: 'FR00552032534' }, 'la clé ne correspond pas au SIREN'],
    [{ name: 'X', email: 'pas-une-adresse' }, 'Adresse e-mail du client invalide'],
    [{ name: 'X', type: 'individual', business_id: '552032534' }, 'Un particulier n’a pas de SIREN/SIRET'],
    [{ name: 'X', maturity: 'trente' }, 'Délai de paiement'],
  ])('refuses %j with 400 and writes nothing', async (body, message) => {
    const { session, profile } = await registered(server.url);
    const answer = await session.rest('POST', '/api/customers', body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.messages)).toContain(message);
    expect((await session.rest('GET', '/api/customers?archived=include')).body.total).toBe(0);
    // Not even a row the list would hide.
    const rows = await withServerDb(server, (db) =>
      db.selectFrom('customers').select('id').where('organization_id', '=', profile.organization.id).execute(),
    );
    expect(rows).toEqual([]);
  });

  it('another organisation’s customer is 404 on every path, never revealed', async () => {
    const { session: owner } = await registered(server.url);
    const { session: stranger } = await registered(server.url);
    const id = (await owner.rest('POST', '/api/customers', danone)).body.data.id;
    for (const [method, path, body] of [
      ['GET', `/api/customers/${id}`],
      ['PUT', `/api/customers/${id}`, danone],
      ['DELETE', `/api/customers/${id}`],
      ['POST', `/api/customers/${id}/restore`],
    ] as const) {
      const answer = await stranger.rest(method, path, body);
      expect(answer, `${method} ${path}`).toMatchObject({ status: 404, body: { messages: 'Client introuvable' } });
    }
    expect((await stranger.rest('GET', '/api/customers')).body.total).toBe(0);
    expect((await owner.rest('GET', `/api/customers/${id}`)).body.name).toBe('Danone');
  });

  it('refuses bad ids and is 401 logged out', async () => {
    const { session } = await registered(server.url);
    expect((await session.rest('GET', '/api/customers/abc')).status).toBe(400);
    expect((await session.rest('GET', '/api/customers/999999')).status).toBe(404);
    expect((await new Session(server.url).rest('GET', '/api/customers')).status).toBe(401);
  });
});

describe('reference data', () => {
  it('a new organisation has the French VAT rates and the usual units', async () => {
    const { session } = await registered(server.url);
    const taxes = await session.rest('GET', '/api/taxes');
    expect(taxes.body.total).toBe(5);
    expect(taxes.body.data.map((t: { rate: number }) => t.rate)).toEqual([20, 10, 5.5, 2.1, 0]);
    const units = await session.rest('GET', '/api/units');
    expect(units.body.data.map((u: { name: string }) => u.name)).toEqual(['u', 'h', 'jour', 'kg', 'm', 'm²', 'forfait']);
  });
});
