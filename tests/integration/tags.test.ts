import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('tags (REST and tRPC)', () => {
  it('creates, lists, renames, recolours, rescopes and deletes on both doors', async () => {
    const { session } = await registered(server.url);
    expect((await session.rest('GET', '/api/tags')).body).toEqual({ total: 0, data: [] });

    const vip = await session.rest('POST', '/api/tags', { name: 'VIP', color: 'red', scopes: ['customer'] });
    expect(vip.status).toBe(201);
    expect(vip.body).toEqual({
      messages: 'Ajouté avec succès',
      data: { id: expect.any(Number), name: 'VIP', color: 'red', scopes: ['customer'], usage: { customer: 0, item: 0, document: 0 } },
    });
    const promo = await session.trpc().tags.create.mutate({ name: 'Promo' });
    expect(promo.data).toMatchObject({ color: 'gray', scopes: ['customer', 'item', 'document'] }); // defaults

    const list = await session.rest('GET', '/api/tags');
    expect(list.body.total).toBe(2);
    expect(list.body.data.map((t: { name: string }) => t.name)).toEqual(['Promo', 'VIP']);
    expect((await session.rest('GET', '/api/tags?scope=item')).body.data.map((t: { name: string }) => t.name)).toEqual(['Promo']);
    expect((await session.trpc().tags.list.query({ scope: 'customer' })).total).toBe(2);

    const renamed = await session.rest('PUT', `/api/tags/${vip.body.data.id}`, {
      name: 'Grand compte',
      color: 'purple',
      scopes: ['item', 'customer'],
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      messages: 'Mis à jour avec succès',
      data: { name: 'Grand compte', color: 'purple', scopes: ['customer', 'item'] },
    });
    const viaTrpc = await session
      .trpc()
      .tags.update.mutate({ id: promo.data.id, data: { name: 'Promo', color: 'green', scopes: ['item'] } });
    expect(viaTrpc.data.color).toBe('green');

    expect((await session.rest('DELETE', `/api/tags/${vip.body.data.id}`)).body).toEqual({ messages: 'Supprimé avec succès' });
    expect(await session.trpc().tags.delete.mutate({ id: promo.data.id })).toEqual({ messages: 'Supprimé avec succès' });
    expect((await session.rest('GET', '/api/tags')).body.total).toBe(0);
  });

  it('refuses a duplicate name in any case with 409, and bad input with French messages naming the field', async () => {
    const { session } = await registered(server.url);
    await session.rest('POST', '/api/tags', { name: 'École' });
    expect(await session.rest('POST', '/api/tags', { name: '  école ' })).toMatchObject({
      status: 409,
      body: { messages: 'L’étiquette « École » existe déjà' },
    });
    const other = (await session.rest('POST', '/api/tags', { name: 'Lycée' })).body.data;
    expect((await session.rest('PUT', `/api/tags/${other.id}`, { name: 'ÉCOLE' })).status).toBe(409);
    expect((await session.rest('PUT', `/api/tags/${other.id}`, { name: 'lycée', color: 'blue' })).status).toBe(200); // its own name, recased

    for (const [body, message] of [
      [{ name: '' }, 'Le nom de l’étiquette est obligatoire'],
      [{ name: 'X', color: 'fuchsia' }, 'Couleur'],
      [{ name: 'X', scopes: [] }, 'Portée : cochez au moins un type de fiche'],
      [{ name: 'X', scopes: ['invoice'] }, 'Portée'],
    ] as const) {
      const answer = await session.rest('POST', '/api/tags', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body.messages)).toContain(message);
    }
  });

  it('another organisation’s tag is 404 on every path and cannot be put on a record', async () => {
    const { session: owner } = await registered(server.url);
    const { session: stranger } = await registered(server.url);
    const id = (await owner.rest('POST', '/api/tags', { name: 'Secret' })).body.data.id;
    expect((await stranger.rest('PUT', `/api/tags/${id}`, { name: 'Volé' })).status).toBe(404);
    expect((await stranger.rest('DELETE', `/api/tags/${id}`)).status).toBe(404);
    expect((await stranger.rest('GET', '/api/tags')).body.total).toBe(0);
    const refused = await stranger.rest('POST', '/api/customers', { name: 'Client', tag_ids: [id] });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toContain('Étiquettes : l’étiquette n° ');
    expect((await stranger.rest('GET', '/api/customers')).body.total).toBe(0); // nothing half-written
    expect((await owner.rest('GET', '/api/tags')).body.data[0].name).toBe('Secret');
  });

  it('tags customers and items within each tag’s scope, answers chips, and filters lists by tag', async () => {
    const { session } = await registered(server.url);
    const vip = (await session.rest('POST', '/api/tags', { name: 'VIP', color: 'red', scopes: ['customer'] })).body.data;
    const bio = (await session.rest('POST', '/api/tags', { name: 'Bio', color: 'green', scopes: ['item', 'customer'] })).body.data;

    const created = await session.rest('POST', '/api/customers', { name: 'Atelier Bleu', tag_ids: [vip.id, bio.id] });
    expect(created.status).toBe(201);
    expect(created.body.data.tags).toEqual([
      { id: bio.id, name: 'Bio', color: 'green' },
      { id: vip.id, name: 'VIP', color: 'red' },
    ]);
    expect(created.body.data.tag_ids).toEqual([bio.id, vip.id]);
    const plain = (await session.trpc().customers.create.mutate({ name: 'Boulangerie Martin' })).data;
    expect(plain.tags).toEqual([]); // tag_ids is optional

    const scope = await session.rest('POST', '/api/items', { name: 'Pain', unit_price: 2, tag_ids: [vip.id] });
    expect(scope.status).toBe(400);
    expect(scope.body.messages).toBe(
      'Étiquettes : « VIP » ne s’applique pas aux articles. Changez sa portée dans Paramètres → Étiquettes.',
    );
    expect((await session.rest('GET', '/api/items?archived=include')).body.total).toBe(0);
    expect((await session.rest('POST', '/api/items', { name: 'Pain', unit_price: 2, tag_ids: ['x'] })).body.messages).toContain(
      'Étiquettes',
    );
    const pain = (await session.rest('POST', '/api/items', { name: 'Pain bio', unit_price: 2, tag_ids: [bio.id] })).body.data;
    expect(pain.tags).toEqual([{ id: bio.id, name: 'Bio', color: 'green' }]);
    await session.rest('POST', '/api/items', { name: 'Croissant', unit_price: 1 });

    const names = async (path: string) => (await session.rest('GET', path)).body.data.map((r: { name: string }) => r.name);
    expect(await names(`/api/customers?tag=${vip.id}`)).toEqual(['Atelier Bleu']);
    expect(await names(`/api/customers?tag=`)).toEqual(['Atelier Bleu', 'Boulangerie Martin']); // an empty filter is no filter
    expect(await names(`/api/items?tag=${bio.id}`)).toEqual(['Pain bio']);
    expect((await session.trpc().items.list.query({ tag: vip.id })).total).toBe(0);
    expect((await session.rest('GET', '/api/customers?tag=abc')).status).toBe(400);
    expect((await session.rest('GET', `/api/customers/${created.body.data.id}`)).body.tags).toHaveLength(2);

    // A PUT replaces the tags; the list answers them too.
    const edited = await session.rest('PUT', `/api/customers/${plain.id}`, { name: 'Boulangerie Martin', tag_ids: [vip.id] });
    expect(edited.body.data.tags).toEqual([{ id: vip.id, name: 'VIP', color: 'red' }]);
    expect(await names(`/api/customers?tag=${vip.id}`)).toEqual(['Atelier Bleu', 'Boulangerie Martin']);
    const usage = (await session.rest('GET', '/api/tags')).body.data;
    expect(usage.find((t: { id: number }) => t.id === bio.id).usage).toEqual({ customer: 1, item: 1, document: 0 });
    expect(usage.find((t: { id: number }) => t.id === vip.id).usage).toEqual({ customer: 2, item: 0, document: 0 });

    // Narrowing a scope takes the tag off the kinds it no longer covers.
    await session.rest('PUT', `/api/tags/${bio.id}`, { name: 'Bio', color: 'green', scopes: ['item'] });
    expect((await session.rest('GET', `/api/customers/${created.body.data.id}`)).body.tags.map((t: { name: string }) => t.name)).toEqual([
      'VIP',
    ]);
    expect(await names(`/api/items?tag=${bio.id}`)).toEqual(['Pain bio']);

    // Deleting a tag in use removes its assignments; the records stay.
    expect((await session.rest('DELETE', `/api/tags/${vip.id}`)).status).toBe(200);
    const customers = (await session.rest('GET', '/api/customers')).body;
    expect(customers.total).toBe(2);
    expect(customers.data.every((c: { tags: unknown[] }) => c.tags.length === 0)).toBe(true);
    expect((await session.rest('GET', `/api/customers?tag=${vip.id}`)).body.total).toBe(0);
    const again = (await session.rest('POST', '/api/tags', { name: 'VIP', scopes: ['customer'] })).body.data;
    expect(again.usage.customer).toBe(0); // a new tag never inherits old assignments
  });
});
