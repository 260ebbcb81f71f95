import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_KINDS, startServer, type ServerUnderTest } from '../helpers/built-server';
import { registered, type Session } from '../helpers/clients';
import { draft, line, readyToInvoice } from '../helpers/documents';
import { MAX_BATCH_CALLS } from '../../src/shared/api-limits';
import { HEAVY_WRITES_PER_SESSION } from '../../src/server/auth/rate-limit';

let server: ServerUnderTest;

const documentCount = async (session: Session) => (await session.rest('GET', '/api/documents?per_page=1')).body.total as number;

/** An invoice of `lines` lines: what the review copied 600 times in one request. */
async function bigDraft(session: Session, lines: number) {
  const { customerId } = await readyToInvoice(session);
  return draft(session, {
    type: 'invoice',
    customer_id: customerId,
    items: Array.from({ length: lines }, (_, i) => line(`Ligne ${i + 1}`, 1, 10)),
  });
}

describe.each(SERVER_KINDS)('on the %s server', (kind) => {
  beforeAll(async () => {
    server = await startServer(kind);
  });
  afterAll(() => server.close());

  describe('hostile batches', () => {
    it('600 copies in one POST batch: a French 400 at once, nothing copied, and the server keeps answering', async () => {
      const { session } = await registered(server.url);
      const invoice = await bigDraft(session, 200);
      const paths = Array.from({ length: 600 }, () => 'documents.duplicate').join(',');
      const input = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [i, { json: { id: invoice.id } }]));
      const [hostile, version] = await Promise.all([
        session.rest('POST', `/api/trpc/${paths}?batch=1`, input),
        fetch(`${server.url}/api/version`),
      ]);
      expect(hostile.status).toBe(400);
      expect(hostile.body.messages).toBe(`Trop d’appels dans un même lot (600) : ${MAX_BATCH_CALLS} au plus par requête`);
      expect(version.status).toBe(200);
      expect(await documentCount(session)).toBe(1);
    });

    it('two writes in one batch are refused before either runs', async () => {
      const { session } = await registered(server.url);
      const invoice = await bigDraft(session, 1);
      const answer = await session.rest('POST', '/api/trpc/documents.duplicate,documents.duplicate?batch=1', {
        0: { json: { id: invoice.id } },
        1: { json: { id: invoice.id } },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.messages).toBe('Les modifications s’envoient une par requête, pas en lot');
      expect(await documentCount(session)).toBe(1);
    });

    it('150 reads in one GET batch are refused; 20 are answered', async () => {
      const { session } = await registered(server.url);
      const invoice = await bigDraft(session, 1);
      const batch = (n: number) => {
        const paths = Array.from({ length: n }, () => 'documents.get').join(',');
        const input = encodeURIComponent(
          JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { json: { id: invoice.id } }]))),
        );
        return session.rest('GET', `/api/trpc/${paths}?batch=1&input=${input}`);
      };
      const tooMany = await batch(150);
      expect(tooMany.status).toBe(400);
      const allowed = await batch(MAX_BATCH_CALLS);
      expect(allowed.status, JSON.stringify(allowed.body.filter((r: { error?: unknown }) => r.error)).slice(0, 1500)).toBe(200);
      expect(allowed.body).toHaveLength(MAX_BATCH_CALLS);
    });

    it('the typed client splits its reads into batches the server takes', async () => {
      const { session } = await registered(server.url);
      const invoice = await bigDraft(session, 1);
      const client = session.trpc();
      const all = await Promise.all(Array.from({ length: 45 }, () => client.documents.get.query({ id: invoice.id })));
      expect(all).toHaveLength(45);
    });
  });

  describe('heavy writes per session and organisation', () => {
    it(`copies beyond ${HEAVY_WRITES_PER_SESSION} a minute are refused in French; another organisation is not slowed`, async () => {
      const { session } = await registered(server.url);
      const invoice = await bigDraft(session, 1);
      const statuses: number[] = [];
      for (let i = 0; i < HEAVY_WRITES_PER_SESSION + 2; i++) {
        statuses.push((await session.rest('POST', `/api/documents/${invoice.id}/duplicate`)).status);
      }
      expect(statuses.filter((s) => s === 201)).toHaveLength(HEAVY_WRITES_PER_SESSION);
      const refused = await session.rest('POST', `/api/documents/${invoice.id}/duplicate`);
      expect(refused.status).toBe(429);
      expect(refused.body.messages).toBe(
        'Trop d’opérations lourdes en une minute (copies, imports, envois, PDF) : réessayez dans un instant',
      );
      expect(await documentCount(session)).toBe(HEAVY_WRITES_PER_SESSION + 1);

      const { session: other } = await registered(server.url);
      const theirs = await bigDraft(other, 1);
      expect((await other.rest('POST', `/api/documents/${theirs.id}/duplicate`)).status).toBe(201);
      // Light work goes on for the limited session.
      expect((await session.rest('GET', '/api/documents?per_page=1')).status).toBe(200);
    });
  });

  describe('references to another organisation', () => {
    it('a document naming another organisation’s order is refused in French, on create and on update; its own order is kept', async () => {
      const { session: theirs } = await registered(server.url);
      const { customerId: theirCustomer } = await readyToInvoice(theirs);
      const theirOrder = await draft(theirs, { type: 'order', customer_id: theirCustomer, items: [line('Commande', 1, 10)] });

      const { session } = await registered(server.url);
      const { customerId } = await readyToInvoice(session);
      const body = { type: 'invoice', date: '2026-11-02', customer_id: customerId, items: [line('Prestation', 1, 100)] };
      const refused = await session.rest('POST', '/api/documents', { ...body, order_id: theirOrder.id });
      expect(refused.status).toBe(400);
      expect(refused.body.messages).toBe('Commande : introuvable');
      expect(await documentCount(session)).toBe(0);

      const ownOrder = await draft(session, { type: 'order', customer_id: customerId, items: [line('Commande', 1, 10)] });
      const invoice = await draft(session, { ...body, order_id: ownOrder.id });
      expect(invoice.order_id).toBe(ownOrder.id);
      const update = await session.rest('PUT', `/api/documents/${invoice.id}`, { ...body, order_id: theirOrder.id });
      expect([update.status, update.body.messages]).toEqual([400, 'Commande : introuvable']);
      expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body.order_id).toBe(ownOrder.id);
    });
  });
});
