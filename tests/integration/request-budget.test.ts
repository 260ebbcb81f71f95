import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { draft, line, readyToInvoice } from '../helpers/documents';
import { MAX_BATCH_CALLS } from '../../src/shared/api-limits';
import { BATCH_ANSWER_BUDGET_BYTES, BATCH_OVER_BUDGET } from '../../src/shared/api-limits';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** `n` reads of one document in one GET batch, as httpBatchLink sends them. */
function readBatch(session: Session, id: number, n: number) {
  const paths = Array.from({ length: n }, () => 'documents.get').join(',');
  const input = encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { json: { id } }]))));
  return session.rest('GET', `/api/trpc/${paths}?batch=1&input=${input}`);
}

/** The longest the event loop (the server's too: it runs in this process) was held while `work` ran, in ms. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stall: number; elapsed: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const result = await work();
  const elapsed = performance.now() - started;
  delay.disable();
  return { result, stall: delay.max / 1e6, elapsed };
}

describe('a budget per tRPC batch', () => {
  it('20 reads of a 2,000-line draft in one batch stop at the budget: the rest are refused in French, unrun', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const items = Array.from({ length: 2000 }, (_, i) => line(`Ligne ${i + 1}`, 1, 10));
    const big = await draft(session, { type: 'invoice', customer_id: customerId, items });

    const { result: batch, stall, elapsed } = await longestStall(() => readBatch(session, big.id, MAX_BATCH_CALLS));
    console.log(
      `20 × documents.get (2,000 lines) in one batch: ${Math.round(elapsed)} ms, longest event-loop stall ${Math.round(stall)} ms`,
    );
    expect(batch.status).toBe(207);
    const answered = batch.body.filter((a: { result?: unknown }) => a.result);
    const refused = batch.body.filter((a: { error?: unknown }) => a.error);
    // ~600 KB per answer: the budget lets a few through, never the 12 MB the batch asked for.
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThanOrEqual(Math.ceil(BATCH_ANSWER_BUDGET_BYTES / 500_000));
    expect(answered.length + refused.length).toBe(MAX_BATCH_CALLS);
    for (const answer of refused) {
      expect(answer.error.json.message).toBe(BATCH_OVER_BUDGET);
      expect(answer.error.json.data.httpStatus).toBe(413);
    }
    // Between two calls the server answers others: the batch never holds it for more than about one read.
    const version = await longestStall(() => fetch(`${server.url}/api/version`));
    expect(version.result.status).toBe(200);
  });

  it('a batch of light reads is answered whole', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const small = await draft(session, { type: 'invoice', customer_id: customerId, items: [line('Prestation', 1, 10)] });
    const light = await readBatch(session, small.id, MAX_BATCH_CALLS);
    expect(light.status).toBe(200);
    expect(light.body).toHaveLength(MAX_BATCH_CALLS);
  });
});

describe('request bodies are capped while they stream', () => {
  it('a chunked body with no declared length is refused once it passes the cap, on REST and on tRPC', async () => {
    const { session } = await registered(server.url);
    const chunk = new TextEncoder().encode(`"${'x'.repeat(64 * 1024)}`);
    let sent = 0;
    // 64 MB offered, never declared: the server stops reading at its 1 MB cap.
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          sent += chunk.length;
          if (sent > 64 * 1024 * 1024) controller.close();
          else controller.enqueue(chunk);
        },
      });
    for (const path of ['/api/customers', '/api/trpc/customers.create']) {
      sent = 0;
      const response = await session.fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: endless(),
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(await response.text()).toContain('La requête est trop volumineuse (1 Mo au plus)');
      expect(sent).toBeLessThan(16 * 1024 * 1024);
    }
    expect((await fetch(`${server.url}/api/version`)).status).toBe(200);
  });
});
