import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { defined } from '../../src/shared/defined';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Several taxes on one item need the organisation's opt-in (Paramètres → TVA); the KIT row has two. */
async function withTaxes(severalPerLine = false) {
  const r = await registered(server.url);
  if (severalPerLine) {
    const settings = (await r.session.rest('GET', '/api/settings')).body;
    await r.session.rest('PUT', '/api/settings', { ...settings, multiple_taxes_per_line: true });
  }
  const taxes = (await r.session.rest('GET', '/api/taxes')).body.data as { id: number; rate: number }[];
  return {
    ...r,
    tva20: defined(
      taxes.find((t) => t.rate === 20),
      'taxes.find((t) => t.rate === 20)',
    ).id,
    tva55: defined(
      taxes.find((t) => t.rate === 5.5),
      'taxes.find((t) => t.rate === 5.5)',
    ).id,
  };
}

describe('items (REST and tRPC)', () => {
  it('creates, lists, searches, sorts by price, updates, archives and restores', async () => {
    const { session, tva20, tva55 } = await withTaxes();
    const conseil = await session.rest('POST', '/api/items', {
      code: 'CONS-J',
      name: 'Journée de conseil',
      unit: 'jour',
      unit_price: 650,
      kind: 'service',
      tax_ids: [tva20],
    });
    expect(conseil.status).toBe(201);
    expect(conseil.body).toMatchObject({
      messages: 'Ajouté avec succès',
      data: { code: 'CONS-J', unit_price: 650, active: true, tax_ids: [tva20], deleted_at: null },
    });
    await session.trpc().items.create.mutate({
      code: 'LIV-1',
      name: 'Livre « Compter juste »',
      unit: 'u',
      unit_price: 24.9,
      kind: 'goods',
      tax_ids: [tva55],
    });
    await session.rest('POST', '/api/items', { name: 'Forfait installation', unit: 'forfait', unit_price: 99.99 });

    const byPrice = (await session.rest('GET', '/api/items?sort_by=unit_price&sort_order=desc')).body;
    expect(byPrice.total).toBe(3);
    expect(byPrice.data.map((i: { unit_price: number }) => i.unit_price)).toEqual([650, 99.99, 24.9]);
    expect((await session.rest('GET', '/api/items?search=cons')).body.data.map((i: { code: string }) => i.code)).toEqual(['CONS-J']);
    expect((await session.rest('GET', '/api/items?kind=goods')).body.total).toBe(1);

    const id = conseil.body.data.id;
    const updated = await session.rest('PUT', `/api/items/${id}`, {
      code: 'CONS-J',
      name: 'Journée de conseil',
      unit: 'jour',
      unit_price: 700,
      tax_ids: [tva20],
      active: false,
    });
    expect(updated.body.data).toMatchObject({ unit_price: 700, active: false });
    expect((await session.rest('GET', '/api/items?active=active')).body.total).toBe(2);
    expect((await session.rest('DELETE', `/api/items/${id}`)).body.messages).toBe('Archivé avec succès');
    expect((await session.rest('GET', '/api/items')).body.total).toBe(2);
    expect((await session.rest('POST', `/api/items/${id}/restore`)).body.data.deleted_at).toBeNull();
  });

  it.each([
    [{ name: 'X', unit_price: -5 }, 400, 'Le prix unitaire ne peut être négatif'],
    [{ name: '', unit_price: 5 }, 400, 'La désignation est obligatoire'],
    [{ name: 'X', unit_price: 'cinq' }, 400, 'Le prix unitaire est un nombre'],
    [{ name: 'X', unit_price: 5, unit: 'litre' }, 400, 'Unité inconnue : « litre »'],
    [{ name: 'X', unit_price: 5, tax_ids: [999999] }, 400, 'TVA inconnue'],
    [{ name: 'X', unit_price: 5, kind: 'objet' }, 400, 'Nature'],
  ])('refuses %j', async (body, status, message) => {
    const { session } = await withTaxes();
    const answer = await session.rest('POST', '/api/items', body);
    expect(answer.status).toBe(status);
    expect(JSON.stringify(answer.body.messages)).toContain(message);
    expect((await session.rest('GET', '/api/items?archived=include')).body.total).toBe(0);
  });

  it('refuses a duplicate code (any case) with 409, but not after the first one is archived', async () => {
    const { session } = await withTaxes();
    const first = (await session.rest('POST', '/api/items', { code: 'ABC', name: 'Premier', unit_price: 1 })).body.data;
    const dup = await session.rest('POST', '/api/items', { code: 'abc', name: 'Second', unit_price: 1 });
    expect(dup).toMatchObject({ status: 409, body: { messages: 'Le code article « abc » est déjà utilisé' } });
    await session.rest('DELETE', `/api/items/${first.id}`);
    expect((await session.rest('POST', '/api/items', { code: 'abc', name: 'Second', unit_price: 1 })).status).toBe(201);
    expect((await session.rest('POST', `/api/items/${first.id}/restore`)).status).toBe(409); // its code was taken meanwhile
  });

  it('another organisation’s item is 404 on every path, and its taxes cannot be used', async () => {
    const { session: owner, tva20 } = await withTaxes();
    const { session: stranger } = await withTaxes();
    const id = (await owner.rest('POST', '/api/items', { name: 'Secret', unit_price: 1 })).body.data.id;
    for (const [method, path, body] of [
      ['GET', `/api/items/${id}`],
      ['PUT', `/api/items/${id}`, { name: 'X', unit_price: 1 }],
      ['DELETE', `/api/items/${id}`],
      ['POST', `/api/items/${id}/restore`],
    ] as const) {
      expect((await stranger.rest(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await stranger.rest('POST', '/api/items', { name: 'X', unit_price: 1, tax_ids: [tva20] })).status).toBe(400);
  });
});

describe('tax rates and units (Paramètres → TVA, Unités)', () => {
  it('adds, edits and deletes rates; a rate or unit in use by an item cannot be deleted', async () => {
    const { session, tva20 } = await withTaxes();
    const added = await session.rest('POST', '/api/taxes', { title: 'TVA Corse 13 %', rate: 13 });
    expect(added).toMatchObject({ status: 201, body: { messages: 'Ajouté avec succès', data: { title: 'TVA Corse 13 %', rate: 13 } } });
    const edited = await session.rest('PUT', `/api/taxes/${added.body.data.id}`, { title: 'TVA Corse 13 %', rate: 13.5 });
    expect(edited.body.data.rate).toBe(13.5);
    expect((await session.rest('DELETE', `/api/taxes/${added.body.data.id}`)).body.messages).toBe('Supprimé avec succès');
    expect((await session.rest('GET', '/api/taxes')).body.total).toBe(5);

    await session.rest('POST', '/api/items', { name: 'Conseil', unit: 'h', unit_price: 80, tax_ids: [tva20] });
    const taxInUse = await session.rest('DELETE', `/api/taxes/${tva20}`);
    expect(taxInUse).toMatchObject({ status: 409, body: { messages: 'Cette TVA est utilisée par 1 article : changez-les d’abord' } });
    const units = (await session.rest('GET', '/api/units')).body.data as { id: number; name: string }[];
    const hour = defined(
      units.find((u) => u.name === 'h'),
      'units.find((u) => u.name === ’h’)',
    );
    expect((await session.rest('DELETE', `/api/units/${hour.id}`)).status).toBe(409);
    const kg = defined(
      units.find((u) => u.name === 'kg'),
      'units.find((u) => u.name === ’kg’)',
    );
    expect((await session.rest('DELETE', `/api/units/${kg.id}`)).status).toBe(200);
    expect((await session.rest('POST', '/api/units', { name: 'litre' })).status).toBe(201);
    expect((await session.rest('POST', '/api/units', { name: 'Litre' })).body.messages).toBe('L’unité « Litre » existe déjà');
  });

  it.each([
    [{ title: '', rate: 20 }, 'L’intitulé de la taxe est obligatoire'],
    [{ title: 'X', rate: -1 }, 'Le taux ne peut être négatif'],
    [{ title: 'X', rate: 120 }, 'Le taux ne peut dépasser 100 %'],
    [{ title: 'X', rate: 5.55555 }, 'Taux : 4 décimales au plus'],
  ])('refuses the rate %j', async (body, message) => {
    const { session } = await withTaxes();
    const answer = await session.rest('POST', '/api/taxes', body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.messages)).toContain(message);
  });

  it('another organisation’s rates and units are 404', async () => {
    const { session: owner, tva20 } = await withTaxes();
    const { session: stranger } = await withTaxes();
    expect((await stranger.rest('PUT', `/api/taxes/${tva20}`, { title: 'X', rate: 1 })).status).toBe(404);
    expect((await stranger.rest('DELETE', `/api/taxes/${tva20}`)).status).toBe(404);
    const unit = (await owner.rest('GET', '/api/units')).body.data[0].id;
    expect((await stranger.rest('DELETE', `/api/units/${unit}`)).status).toBe(404);
  });
});

describe('items CSV import and export', () => {
  const FILE = [
    'Code;Désignation;Unité;Prix unitaire HT;Nature;TVA;Actif',
    'CONS-J;Journée de conseil;jour;650;service;TVA 20 %;oui',
    'LIV-1;Livre « Compter juste »;u;24,90;bien;5,5;oui',
    'KIT;Kit de démarrage;u;120;bien;TVA 20 % + TVA 5,5 %;non',
    'CONS-J;Doublon dans le fichier;jour;1;service;;',
    'X1;Sans unité connue;litre;3;bien;;',
    'X2;Prix négatif;u;-3;bien;;',
    'X3;TVA inconnue;u;3;bien;TVA 7 %;',
  ].join('\r\n');

  it('reports every bad row (unit, rate, duplicate code, price), imports the rest, and exports what imports back', async () => {
    const { session, tva20, tva55 } = await withTaxes(true);
    await session.rest('POST', '/api/items', { code: 'X9', name: 'Déjà là', unit_price: 1 });
    const dry = await session.rest('POST', '/api/items/import', { csv: FILE, dry_run: true });
    expect(dry.body.data).toMatchObject({ total_rows: 7, valid: 3, created: 0 });
    expect(dry.body.data.rejected).toEqual([
      { line: 5, messages: ['Le code article « CONS-J » est déjà utilisé'] },
      { line: 6, messages: ['Unité inconnue : « litre »'] },
      { line: 7, messages: ['Le prix unitaire ne peut être négatif'] },
      { line: 8, messages: ['TVA inconnue : « TVA 7 % »'] },
    ]);
    expect((await session.rest('GET', '/api/items')).body.total).toBe(1);

    const real = await session.rest('POST', '/api/items/import', { csv: FILE, dry_run: false });
    expect(real.body).toMatchObject({ messages: '3 articles importés', data: { created: 3 } });
    const items = (await session.rest('GET', '/api/items?sort_by=code')).body.data as {
      code: string;
      unit_price: number;
      tax_ids: number[];
      active: boolean;
      kind: string;
    }[];
    expect(items.map((i) => [i.code, i.unit_price, i.tax_ids, i.active, i.kind])).toEqual([
      ['CONS-J', 650, [tva20], true, 'service'],
      ['KIT', 120, [tva20, tva55], false, 'goods'],
      ['LIV-1', 24.9, [tva55], true, 'goods'],
      ['X9', 1, [], true, 'service'],
    ]);

    const exported = (await session.rest('GET', '/api/items/export', undefined, { accept: 'application/json' })).body;
    expect(exported.filename).toMatch(/^articles-/);
    expect(exported.content).toContain('KIT;Kit de démarrage;;;u;120;bien;TVA 20 % + TVA 5,5 %;non');
    const { session: other } = await withTaxes(true);
    const again = await other.rest('POST', '/api/items/import', { csv: exported.content, dry_run: false });
    expect(again.body.data).toMatchObject({ created: 4, rejected: [] });
  });
});
