import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { draft, line, readyToInvoice } from '../helpers/documents';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const MODIFIED = 'Ce document a été modifié entre-temps : rechargez-le';

describe('documents: an update based on an old version is refused (lost edit)', () => {
  it('refuses the second of two updates based on the same version with 409, and keeps the first', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const base = doc.updated_at;

    const first = await session.rest('PUT', `/api/documents/${doc.id}`, {
      date: '2026-11-03',
      customer_id: customerId,
      items: [line('Audit', 2, 100)],
      base_updated_at: base,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.updated_at).not.toBe(base);

    // The empty first draft of the reproduction, saved from a form loaded before the first update.
    const second = await session.rest('PUT', `/api/documents/${doc.id}`, { date: '2026-11-02', items: [], base_updated_at: base });
    expect(second.status).toBe(409);
    expect(second.body.messages).toBe(MODIFIED);

    const kept = (await session.rest('GET', `/api/documents/${doc.id}`)).body;
    expect(kept.date).toBe('2026-11-03');
    expect(kept.customer_id).toBe(customerId);
    expect(kept.items.map((i: { item: string; quantity: number }) => [i.item, i.quantity])).toEqual([['Audit', 2]]);
    expect(kept.updated_at).toBe(first.body.data.updated_at);

    // Based on the current version, it goes through; a third based on the same one is refused again.
    const third = await session.rest('PUT', `/api/documents/${doc.id}`, {
      date: '2026-11-04',
      customer_id: customerId,
      items: [line('Audit', 3, 100)],
      base_updated_at: kept.updated_at,
    });
    expect(third.status).toBe(200);
    const again = await session.rest('PUT', `/api/documents/${doc.id}`, { date: '2026-11-05', base_updated_at: kept.updated_at });
    expect(again.status).toBe(409);
    expect(again.body.messages).toBe(MODIFIED);
  });

  it('refuses a stale update through the tRPC door too, in parallel: exactly one of two wins', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const client = session.trpc({ batch: false });
    const results = await Promise.allSettled([
      client.documents.update.mutate({
        id: doc.id,
        data: { date: '2026-11-03', customer_id: customerId, items: [line('A', 1, 10)], base_updated_at: doc.updated_at },
      }),
      client.documents.update.mutate({
        id: doc.id,
        data: { date: '2026-11-04', customer_id: customerId, items: [line('B', 1, 10)], base_updated_at: doc.updated_at },
      }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && String(refused.reason.message)).toBe(MODIFIED);
    const kept = (await session.rest('GET', `/api/documents/${doc.id}`)).body;
    const won = results.find((r) => r.status === 'fulfilled');
    expect(won?.status === 'fulfilled' && won.value.data.items[0]?.item).toBe(kept.items[0].item);
  });

  it('still takes an update without a version (API clients), as CONTRACT.md lets them', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    await session.rest('PUT', `/api/documents/${doc.id}`, { date: '2026-11-03', customer_id: customerId, items: [line('Audit', 2, 100)] });
    const blind = await session.rest('PUT', `/api/documents/${doc.id}`, { date: '2026-11-04', customer_id: customerId, items: [] });
    expect(blind.status).toBe(200);
    expect(blind.body.messages).toBe('Mis à jour avec succès');
    expect(blind.body.data.date).toBe('2026-11-04');
  });

  it('issues the version just saved, and refuses to issue when another save came in between', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, items: [] });
    const saved = await session.rest('PUT', `/api/documents/${doc.id}`, {
      date: '2026-11-02',
      customer_id: customerId,
      items: [line('Audit', 2, 100)],
      base_updated_at: doc.updated_at,
    });
    expect(saved.status).toBe(200);

    // Someone saves over it before the issue: the issue based on the first save is refused.
    const other = await session.rest('PUT', `/api/documents/${doc.id}`, {
      date: '2026-11-02',
      customer_id: customerId,
      items: [line('Autre', 1, 50)],
      base_updated_at: saved.body.data.updated_at,
    });
    expect(other.status).toBe(200);
    const refused = await session.rest('POST', `/api/documents/${doc.id}/issue`, { base_updated_at: saved.body.data.updated_at });
    expect(refused.status).toBe(409);
    expect(refused.body.messages).toBe(MODIFIED);
    expect((await session.rest('GET', `/api/documents/${doc.id}`)).body.stored_status).toBe('draft');

    const issued = await session.rest('POST', `/api/documents/${doc.id}/issue`, { base_updated_at: other.body.data.updated_at });
    expect(issued.status).toBe(200);
    expect(issued.body.data.number).toMatch(/^F/);
    expect(issued.body.data.items.map((i: { item: string }) => i.item)).toEqual(['Autre']);
    expect(issued.body.data.total).toBe(60);
  });
});
