import { createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import superjson from 'superjson';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/server/routers/_app';
import { clock } from '../../src/server/clock';
import { IDEMPOTENCY_KEY_INVALID, IDEMPOTENCY_KEY_REUSED } from '../../src/server/http/idempotency';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
});

const REUSED = 'Cette clé Idempotency-Key a déjà servi pour une autre requête : envoyez une nouvelle clé pour une nouvelle action';

const invoiceBody = (customerId: number, label = 'Conseil') => ({
  type: 'invoice' as const,
  customer_id: customerId,
  date: '2026-11-02',
  items: [line(label, 1, 100)],
});

async function documentCount(session: Session): Promise<number> {
  return (await session.rest('GET', '/api/documents?per_page=100')).body.total;
}

/** The typed client with one Idempotency-Key on every request it sends. */
function trpcWithKey(session: Session, key: string, batch = false) {
  const link = (batch ? httpBatchLink : httpLink)({
    url: `${server.url}/api/trpc`,
    transformer: superjson,
    fetch: session.fetch,
    headers: () => ({ 'Idempotency-Key': key }),
  });
  return createTRPCClient<AppRouter>({ links: [link] });
}

describe('Idempotency-Key on POST (nothing doubled)', () => {
  it('a repeated POST /api/documents answers the first answer again and creates one document', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const headers = { 'Idempotency-Key': 'facture-clic-1' };
    const first = await session.rest('POST', '/api/documents', invoiceBody(customerId), headers);
    const again = await session.rest('POST', '/api/documents', invoiceBody(customerId), headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await documentCount(session)).toBe(1);
  });

  it('two simultaneous POSTs with the same key (a double click) run once', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const headers = { 'Idempotency-Key': 'double-clic' };
    const answers = await Promise.all([1, 2, 3].map(() => session.rest('POST', '/api/documents', invoiceBody(customerId), headers)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    expect(await documentCount(session)).toBe(1);
  });

  it('a repeated payment is recorded once and the balance stays right', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, invoiceBody(customerId));
    const payment = { date: '2026-11-10', amount: 40, method: 'transfer' };
    const headers = { 'Idempotency-Key': 'paiement-1' };
    const first = await session.rest('POST', `/api/documents/${invoice.id}/payments`, payment, headers);
    const [again, third] = await Promise.all([
      session.rest('POST', `/api/documents/${invoice.id}/payments`, payment, headers),
      session.rest('POST', `/api/documents/${invoice.id}/payments`, payment, headers),
    ]);
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    expect((await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.total).toBe(1);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ paid: 40, amount_due: 80 });
  });

  it('a tRPC mutation with the header, alone or in a batch of one, is applied once; two writes in a batch are refused', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const client = trpcWithKey(session, 'trpc-clic-1');
    const first = await client.documents.create.mutate(invoiceBody(customerId));
    const again = await client.documents.create.mutate(invoiceBody(customerId));
    expect(again.data.id).toBe(first.data.id);
    expect(again).toEqual(first);
    expect(await documentCount(session)).toBe(1);

    // Sent as a batch of one (what a batching client does with a lone write), it is keyed the same way.
    const batched = trpcWithKey(session, 'trpc-lot-1', true);
    const lone = await batched.documents.create.mutate(invoiceBody(customerId, 'Un'));
    expect((await batched.documents.create.mutate(invoiceBody(customerId, 'Un'))).data.id).toBe(lone.data.id);
    expect(await documentCount(session)).toBe(2);

    // Two writes in one batch are refused before either runs: nothing is created.
    await expect(
      Promise.all([
        batched.documents.create.mutate(invoiceBody(customerId, 'Deux')),
        batched.documents.create.mutate(invoiceBody(customerId, 'Trois')),
      ]),
    ).rejects.toThrow();
    expect(await documentCount(session)).toBe(2);
  });

  it('refuses the same key with another body, in French, on both doors', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const headers = { 'Idempotency-Key': 'meme-cle' };
    await session.rest('POST', '/api/documents', invoiceBody(customerId), headers);
    const other = await session.rest('POST', '/api/documents', invoiceBody(customerId, 'Autre chose'), headers);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ messages: REUSED });
    expect(IDEMPOTENCY_KEY_REUSED).toBe(REUSED);

    const client = trpcWithKey(session, 'meme-cle-trpc');
    await client.customers.create.mutate({ name: 'Client A' });
    await expect(client.customers.create.mutate({ name: 'Client B' })).rejects.toMatchObject({
      message: REUSED,
      data: { httpStatus: 422 },
    });
    expect(await documentCount(session)).toBe(1);
  });

  it('without a key, behaves as before: two POSTs create two documents', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    expect((await session.rest('POST', '/api/documents', invoiceBody(customerId))).status).toBe(201);
    expect((await session.rest('POST', '/api/documents', invoiceBody(customerId))).status).toBe(201);
    expect(await documentCount(session)).toBe(2);
  });

  it('scopes a key by user, stores errors too, refuses a malformed key, and forgets keys after 24 h', async () => {
    const alice = await registered(server.url);
    const bob = await registered(server.url);
    const alicesCustomer = await readyToInvoice(alice.session);
    const bobsCustomer = await readyToInvoice(bob.session);
    const headers = { 'Idempotency-Key': 'partagee' };
    const a = await alice.session.rest('POST', '/api/documents', invoiceBody(alicesCustomer.customerId), headers);
    const b = await bob.session.rest('POST', '/api/documents', invoiceBody(bobsCustomer.customerId), headers);
    expect(b.status).toBe(201);
    expect(b.body.data.id).not.toBe(a.body.data.id);

    // A refused input is answered again as it was (nothing was created the first time either).
    const invalid = { type: 'invoice', customer_id: alicesCustomer.customerId, date: 'hier', items: [] };
    const refused = await alice.session.rest('POST', '/api/documents', invalid, { 'Idempotency-Key': 'invalide' });
    expect(refused.status).toBe(400);
    expect(await alice.session.rest('POST', '/api/documents', invalid, { 'Idempotency-Key': 'invalide' })).toMatchObject({
      status: 400,
      body: refused.body,
    });

    const malformed = await alice.session.rest('POST', '/api/documents', invoiceBody(alicesCustomer.customerId), {
      'Idempotency-Key': 'x'.repeat(256),
    });
    expect(malformed).toMatchObject({ status: 400, body: { messages: IDEMPOTENCY_KEY_INVALID } });

    clock.now = () => new Date(Date.now() + 25 * 60 * 60 * 1000);
    const later = await alice.session.rest('POST', '/api/documents', invoiceBody(alicesCustomer.customerId), headers);
    expect(later.status).toBe(201);
    expect(later.body.data.id).not.toBe(a.body.data.id);
    expect(await documentCount(alice.session)).toBe(2);
  });

  it('is documented in /api/openapi.json as an optional header of every POST operation', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    const doc = (await response.json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; required: boolean }[] }>>;
    };
    // Stripe's doors are Stripe's (the plans', and each organisation's card payments): made idempotent by the event's
    // own id and the session's, not by this header.
    const stripeDoors = ['/api/stripe/webhook', '/api/stripe/webhook/{organisation}'];
    const posts = Object.entries(doc.paths).flatMap(([path, item]) => (item.post && !stripeDoors.includes(path) ? [item.post] : []));
    expect(posts.length).toBeGreaterThan(10);
    for (const post of posts)
      expect(post.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    for (const door of stripeDoors) expect(doc.paths[door]?.post?.parameters?.some((p) => p.name === 'Idempotency-Key')).toBe(false);
    expect(doc.paths['/api/documents/{id}']?.put?.parameters?.some((p) => p.name === 'Idempotency-Key')).toBe(false);
  });
});
