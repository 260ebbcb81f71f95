import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';

let server: TestServer;
let missing: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  missing = await startTestServer({ env: { CHROMIUM_PATH: '/nonexistent/chromium' } });
});
afterAll(async () => {
  await server.close();
  await missing.close();
});

describe('public share link and download', () => {
  it('shows one issued document to anyone with its uuid, and records the view for the owner', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Cuisine', 1, 100)] });
    const converted = await session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' });
    const invoice = (await session.rest('POST', `/api/documents/${converted.body.data.id}/issue`)).body.data;

    const visitor = new Session(server.url);
    const answer = await visitor.rest('GET', `/api/share/${invoice.uuid}`);
    expect(answer.status).toBe(200);
    expect(answer.body.document).toMatchObject({ number: 'F2026-0001', total: 120, customer: { name: 'Boulangerie Martin' } });
    expect(answer.body.document.organization.identity).toContain('SIRET 55203253400646');
    expect(answer.body.template.numbering.invoice.prefix).toBe('F{year}-');
    expect(answer.body.settings.currency_format.currency).toBe('EUR');
    // Nothing else of the organisation: no links to its other documents, no ids of its records.
    for (const hidden of [
      'id',
      'linked',
      'origin',
      'corrects',
      'customer_id',
      'order_id',
      'viewed_at',
      'sent_at',
      'stored_status',
      'created_at',
    ])
      expect(answer.body.document).not.toHaveProperty(hidden);
    expect(answer.body.document.customer).not.toHaveProperty('id');
    expect(answer.body.document.items[0]).not.toHaveProperty('id');
    // The estimate is named only where the invoice's own terms quote it.
    expect(JSON.stringify(answer.body).match(/D2026-0001/g)).toHaveLength(1);

    const seen = (await session.rest('GET', `/api/documents/${invoice.id}`)).body.viewed_at;
    expect(seen).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The PDF renderer's own visit is not recorded as a view.
    const typed = await visitor.trpc().share.get.query({ uuid: invoice.uuid, print: true });
    expect(typed.document.number).toBe('F2026-0001');
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body.viewed_at).toBe(seen);
  });

  it('never shares a draft, and answers 404 to an unknown or malformed uuid', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Brouillon', 1, 10)] });
    const visitor = new Session(server.url);
    for (const uuid of [doc.uuid, '00000000-0000-4000-8000-000000000000', 'pas-un-uuid', "'; drop table documents; --"]) {
      const answer = await visitor.rest('GET', `/api/share/${encodeURIComponent(uuid)}`);
      expect(answer.status, uuid).toBe(404);
      expect(answer.body.messages).toBe('Document introuvable');
    }
    expect((await visitor.rest('GET', `/documents/download/${doc.uuid}`)).status).toBe(404);
  });

  it('answers 503 with how to install Chromium when it is missing, and the rest of the app keeps working', async () => {
    const { session } = await registered(missing.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const answer = await new Session(missing.url).rest('GET', `/documents/download/${invoice.uuid}`);
    expect(answer.status).toBe(503);
    expect(answer.body.messages).toContain('apt-get install -y chromium');
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).status).toBe(200);
  });
});
