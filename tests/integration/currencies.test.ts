import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmptyTestDatabase } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { createMigrator, migrateToLatest } from '../../src/server/migrate';
import { defined } from '../../src/shared/defined';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const messagesOf = (body: { messages?: unknown }) => JSON.stringify(body?.messages);
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

async function trpcError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCClientError) return error.data as { httpStatus: number; messages: string | string[] };
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('Paramètres → Devises (REST door)', () => {
  it('starts with the base currency only, enriched from the catalogue', async () => {
    const { session } = await registered(server.url);
    const list = await session.rest('GET', '/api/currencies');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.data).toEqual([
      {
        id: expect.any(Number),
        code: 'EUR',
        name: 'Euro',
        symbol: '€',
        symbol_native: '€',
        decimal_digits: 2,
        rate: '1',
        rate_date: expect.stringMatching(dayPattern),
        updated_at: expect.any(String),
        base: true,
      },
    ]);
  });

  it('enables a currency with a rate typed the French way, edits its rate, and removes it', async () => {
    const { session } = await registered(server.url);
    const added = await session.rest('POST', '/api/currencies', { code: 'usd', rate: '1,085' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      messages: 'Ajouté avec succès',
      data: { code: 'USD', name: 'Dollar des États-Unis', symbol_native: '$', decimal_digits: 2, rate: '1.085', base: false },
    });
    expect(added.body.data.rate_date).toMatch(dayPattern);

    const jpy = await session.rest('POST', '/api/currencies', { code: 'JPY', rate: 162.35, rate_date: '2026-01-15' });
    expect(jpy.body.data).toMatchObject({ code: 'JPY', decimal_digits: 0, rate: '162.35', rate_date: '2026-01-15' });

    const id = added.body.data.id;
    const edited = await session.rest('PUT', `/api/currencies/${id}`, { rate: 1.0923, rate_date: '2026-02-01' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      messages: 'Mis à jour avec succès',
      data: { id, code: 'USD', rate: '1.0923', rate_date: '2026-02-01' },
    });

    const list = await session.rest('GET', '/api/currencies');
    expect(list.body.total).toBe(3);
    expect(list.body.data.map((c: { code: string }) => c.code)).toEqual(['EUR', 'JPY', 'USD']); // the base first

    const removed = await session.rest('DELETE', `/api/currencies/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ messages: 'Supprimé avec succès' });
    expect((await session.rest('GET', '/api/currencies')).body.data.map((c: { code: string }) => c.code)).toEqual(['EUR', 'JPY']);
    expect((await session.rest('DELETE', `/api/currencies/${id}`)).status).toBe(404);
  });

  it.each([
    [{ code: 'XYZ', rate: 1 }, 'Code devise « XYZ » inconnu du catalogue'],
    [{ code: 'EURO', rate: 1 }, 'Code devise « EURO » inconnu du catalogue'],
    [{ rate: 1 }, 'Code devise : choisissez une devise du catalogue'],
    [{ code: 'USD', rate: 0 }, 'Le taux de change doit être supérieur à 0'],
    [{ code: 'USD', rate: '-1,2' }, 'Le taux de change doit être supérieur à 0'],
    [{ code: 'USD', rate: '1,0850001' }, 'Taux de change : 6 décimales au plus'],
    [{ code: 'USD', rate: 0.1 + 0.2 }, 'Taux de change : 6 décimales au plus'],
    [{ code: 'USD', rate: 'un euro' }, 'Le taux de change doit être un nombre'],
    [{ code: 'USD', rate: true }, 'Le taux de change doit être un nombre'],
    [{ code: 'USD' }, 'Le taux de change doit être un nombre'],
    [{ code: 'USD', rate: 1, rate_date: '2026-02-30' }, 'Date du taux : cette date n’existe pas'],
    [{ code: 'USD', rate: 1, rate_date: 'hier' }, 'Date du taux : une date AAAA-MM-JJ'],
  ])('POST refuses %j with a French message naming the field', async (body, message) => {
    const { session } = await registered(server.url);
    const answer = await session.rest('POST', '/api/currencies', body);
    expect(answer.status).toBe(400);
    expect(messagesOf(answer.body)).toContain(message);
    expect((await session.rest('GET', '/api/currencies')).body.total).toBe(1);
  });

  it('PUT refuses a bad rate and keeps the stored one; a bad id is 400, an unknown one 404', async () => {
    const { session } = await registered(server.url);
    const { id } = (await session.rest('POST', '/api/currencies', { code: 'GBP', rate: '0,8412' })).body.data;
    for (const [rate, message] of [
      [-3, 'supérieur à 0'],
      ['0,12345678', '6 décimales au plus'],
      ['abc', 'doit être un nombre'],
    ] as const) {
      const answer = await session.rest('PUT', `/api/currencies/${id}`, { rate });
      expect(answer.status).toBe(400);
      expect(messagesOf(answer.body)).toContain(message);
    }
    expect((await session.rest('GET', '/api/currencies')).body.data[1]).toMatchObject({ code: 'GBP', rate: '0.8412' });
    expect((await session.rest('PUT', '/api/currencies/abc', { rate: 1 })).status).toBe(400);
    expect((await session.rest('PUT', '/api/currencies/999999', { rate: 1 })).status).toBe(404);
  });

  it('refuses a currency already enabled, the base currency included (409)', async () => {
    const { session } = await registered(server.url);
    expect((await session.rest('POST', '/api/currencies', { code: 'CHF', rate: '0,94' })).status).toBe(201);
    const again = await session.rest('POST', '/api/currencies', { code: 'chf', rate: '0,95' });
    expect(again.status).toBe(409);
    expect(again.body.messages).toBe('La devise CHF est déjà activée');
    const base = await session.rest('POST', '/api/currencies', { code: 'EUR', rate: 1 });
    expect(base.status).toBe(409);
    expect(base.body.messages).toBe('La devise EUR est déjà activée');
  });

  it('keeps the base currency at rate 1: it can be neither re-rated nor removed (409)', async () => {
    const { session } = await registered(server.url);
    const eur = (await session.rest('GET', '/api/currencies')).body.data[0];
    const rerate = await session.rest('PUT', `/api/currencies/${eur.id}`, { rate: 2 });
    expect(rerate.status).toBe(409);
    expect(rerate.body.messages).toContain('devise de référence');
    const remove = await session.rest('DELETE', `/api/currencies/${eur.id}`);
    expect(remove.status).toBe(409);
    expect(remove.body.messages).toContain('ne peut pas être retirée');
    expect((await session.rest('GET', '/api/currencies')).body.data).toEqual([eur]);
  });

  it('a currency set on live customers stays, with their count (409); once they are archived it can go', async () => {
    const { session } = await registered(server.url);
    const { id } = (await session.rest('POST', '/api/currencies', { code: 'USD', rate: '1,085' })).body.data;
    const a = (await session.rest('POST', '/api/customers', { name: 'Acme Inc.', type: 'individual', currency: 'USD' })).body.data;
    const b = (await session.rest('POST', '/api/customers', { name: 'Globex', type: 'individual', currency: 'USD' })).body.data;
    await session.rest('POST', '/api/customers', { name: 'Dupont', type: 'individual' }); // EUR: does not count

    const refused = await session.rest('DELETE', `/api/currencies/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.messages).toBe('La devise USD est utilisée par 2 clients : changez leur devise d’abord');
    await session.rest('DELETE', `/api/customers/${a.id}`);
    expect((await session.rest('DELETE', `/api/currencies/${id}`)).body.messages).toBe(
      'La devise USD est utilisée par 1 client : changez leur devise d’abord',
    );
    await session.rest('DELETE', `/api/customers/${b.id}`);
    expect((await session.rest('DELETE', `/api/currencies/${id}`)).status).toBe(200);
  });

  it('another organisation’s currency is 404 on every path and never listed', async () => {
    const { session: owner } = await registered(server.url);
    const { session: stranger } = await registered(server.url);
    const usd = (await owner.rest('POST', '/api/currencies', { code: 'USD', rate: '1,085' })).body.data;
    const eur = (await owner.rest('GET', '/api/currencies')).body.data[0];
    for (const id of [usd.id, eur.id]) {
      const put = await stranger.rest('PUT', `/api/currencies/${id}`, { rate: 3 });
      expect(put.status).toBe(404);
      expect(put.body.messages).toBe('Devise introuvable');
      expect((await stranger.rest('DELETE', `/api/currencies/${id}`)).status).toBe(404);
    }
    expect((await stranger.rest('GET', '/api/currencies')).body.data.map((c: { id: number }) => c.id)).not.toContain(usd.id);
    expect((await owner.rest('GET', '/api/currencies')).body.data.find((c: { code: string }) => c.code === 'USD')).toMatchObject({
      rate: '1.085',
    });
    // The stranger may enable USD too: codes are unique per organisation only.
    expect((await stranger.rest('POST', '/api/currencies', { code: 'USD', rate: '1,1' })).status).toBe(201);
  });

  it('is 401 logged out', async () => {
    const anonymous = new Session(server.url);
    expect((await anonymous.rest('GET', '/api/currencies')).status).toBe(401);
    expect((await anonymous.rest('POST', '/api/currencies', { code: 'USD', rate: 1 })).status).toBe(401);
  });

  it('restates the rates when the base currency changes in Système général', async () => {
    const { session } = await registered(server.url);
    await session.rest('POST', '/api/currencies', { code: 'USD', rate: '1,085' });
    await session.rest('POST', '/api/currencies', { code: 'JPY', rate: '162,35' });
    const settings = (await session.rest('GET', '/api/settings')).body;
    expect(
      (await session.rest('PUT', '/api/settings', { ...settings, currency_format: { ...settings.currency_format, currency: 'USD' } }))
        .status,
    ).toBe(200);

    const list = (await session.rest('GET', '/api/currencies')).body.data as { code: string; rate: string; base: boolean }[];
    expect(list.map(({ code, rate, base }) => ({ code, rate, base }))).toEqual([
      { code: 'USD', rate: '1', base: true },
      { code: 'EUR', rate: '0.921659', base: false }, // 1 / 1,085
      { code: 'JPY', rate: '149.631336', base: false }, // 162,35 / 1,085
    ]);

    // A base that was not enabled joins at rate 1.
    await session.rest('PUT', '/api/settings', { ...settings, currency_format: { ...settings.currency_format, currency: 'CAD' } });
    expect((await session.rest('GET', '/api/currencies')).body.data[0]).toMatchObject({ code: 'CAD', rate: '1', base: true });
  });
});

describe('Paramètres → Devises (tRPC door, the same procedures)', () => {
  it('lists, creates, updates and deletes, with the same answers and errors', async () => {
    const { session } = await registered(server.url);
    const client = session.trpc();
    const created = await client.currencies.create.mutate({ code: 'GBP', rate: '0,8412' });
    expect(created).toMatchObject({
      messages: 'Ajouté avec succès',
      data: { code: 'GBP', rate: '0.8412', base: false, name: 'Livre sterling' },
    });
    const updated = await client.currencies.update.mutate({ id: created.data.id, data: { rate: 0.85 } });
    expect(updated).toMatchObject({ messages: 'Mis à jour avec succès', data: { rate: '0.85' } });
    expect((await client.currencies.list.query()).data.map((c) => [c.code, c.rate])).toEqual([
      ['EUR', '1'],
      ['GBP', '0.85'],
    ]);
    expect(await trpcError(client.currencies.create.mutate({ code: 'GBP', rate: 1 }))).toMatchObject({ httpStatus: 409 });
    const bad = await trpcError(client.currencies.create.mutate({ code: 'ABC', rate: 'x' }));
    expect(bad.httpStatus).toBe(400);
    expect(JSON.stringify(bad.messages)).toContain('Code devise « ABC » inconnu du catalogue');
    expect(JSON.stringify(bad.messages)).toContain('Le taux de change doit être un nombre');
    expect(await client.currencies.delete.mutate({ id: created.data.id })).toEqual({ messages: 'Supprimé avec succès' });
    expect(await trpcError(client.currencies.delete.mutate({ id: created.data.id }))).toMatchObject({ httpStatus: 404 });
  });
});

describe('migration 0006_currencies', () => {
  it('gives organisations that existed before it their base currency at rate 1', async () => {
    const empty = openEmptyTestDatabase();
    const { connection } = empty;
    await createMigrator(connection.db).migrateTo('0004_search');
    const now = new Date().toISOString();
    const ids: number[] = [];
    for (const name of ['Ancienne SARL', 'Genève SA', 'Sans réglages']) {
      const row = await connection.db
        .insertInto('organizations')
        .values({ name, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    await connection.db
      .insertInto('settings')
      .values({
        organization_id: defined(ids[0], 'ids[0]'),
        key: 'app',
        value: JSON.stringify({ currency_format: { currency: 'EUR' } }),
        updated_at: now,
      })
      .execute();
    await connection.db
      .insertInto('settings')
      .values({
        organization_id: defined(ids[1], 'ids[1]'),
        key: 'app',
        value: JSON.stringify({ currency_format: { currency: 'CHF' } }),
        updated_at: now,
      })
      .execute();
    await migrateToLatest(connection.db);
    const rows = await connection.db
      .selectFrom('currencies')
      .select(['organization_id', 'code', 'rate'])
      .orderBy('organization_id')
      .execute();
    expect(rows).toEqual([
      { organization_id: ids[0], code: 'EUR', rate: '1' },
      { organization_id: ids[1], code: 'CHF', rate: '1' },
      { organization_id: ids[2], code: 'EUR', rate: '1' },
    ]);
    await empty.remove();
  });
});
