import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { defaultDocumentTemplate } from '../../src/shared/schemas/template';
import { defined } from '../../src/shared/defined';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A template change allowed on invoices: another font, wider margins, the position column hidden. */
const restyled = () => {
  const template = defaultDocumentTemplate();
  template.font_family = 'Georgia';
  template.margins.first_page.left = 4;
  defined(template.table.cols.find((c) => c.type === 'position')).visible = false;
  return template;
};

describe('issued documents keep the template in force at their issue (a change applies to documents issued afterwards)', () => {
  it('answers the template of the issue on GET /api/documents/{id} and on the share view, after a template change', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const before = await issued(session, { customer_id: customerId, items: [line('Conseil', 2, 450)] });
    expect(before.template).toEqual(defaultDocumentTemplate());
    const pending = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 300)] });
    // A draft has none: it renders with the current template, whatever it becomes.
    expect(pending.template).toBeNull();

    const template = restyled();
    expect((await session.rest('PUT', '/api/settings?key=document', template)).status).toBe(200);

    const read = (await session.rest('GET', `/api/documents/${before.id}`)).body;
    expect(read.template).toEqual(defaultDocumentTemplate());
    expect(read.template.font_family).toBe('Karla');
    expect(read.template.table.cols.find((c: { type: string }) => c.type === 'position').visible).toBe(true);
    expect((await session.trpc().documents.get.query({ id: before.id })).template?.font_family).toBe('Karla');
    const visitor = new Session(server.url);
    const shared = await visitor.rest('GET', `/api/share/${before.uuid}`);
    expect(shared.status).toBe(200);
    expect(shared.body.template).toEqual(defaultDocumentTemplate());

    // Issued after the change: the new template is the one kept.
    const after = (await session.rest('POST', `/api/documents/${pending.id}/issue`)).body.data;
    expect(after.template).toEqual(template);
    expect((await visitor.rest('GET', `/api/share/${after.uuid}`)).body.template.font_family).toBe('Georgia');
    expect((await session.rest('GET', `/api/documents/${pending.id}`)).body.template.margins.first_page.left).toBe(4);

    // A later change again leaves both issued documents as they were.
    expect((await session.rest('PUT', '/api/settings?key=document', { ...template, font_family: 'Verdana' })).status).toBe(200);
    expect((await visitor.rest('GET', `/api/share/${before.uuid}`)).body.template.font_family).toBe('Karla');
    expect((await visitor.rest('GET', `/api/share/${after.uuid}`)).body.template.font_family).toBe('Georgia');
  });

  it('renders a document issued before migration 0012 (no template kept) with the current template', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    await withServerDb(server, (db) => db.updateTable('documents').set({ template_snapshot: null }).where('id', '=', invoice.id).execute());
    expect((await session.rest('PUT', '/api/settings?key=document', restyled())).status).toBe(200);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body.template).toBeNull();
    expect((await new Session(server.url).rest('GET', `/api/share/${invoice.uuid}`)).body.template.font_family).toBe('Georgia');
  });

  it('keeps the template with an issued credit note too, and a draft stays on the current template', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    const credit = (await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).body.data;
    expect(credit.template).toBeNull();
    expect((await session.rest('PUT', '/api/settings?key=document', restyled())).status).toBe(200);
    const issuedCredit = (await session.rest('POST', `/api/documents/${credit.id}/issue`)).body.data;
    expect(issuedCredit.template.font_family).toBe('Georgia');
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body.template.font_family).toBe('Karla');
  });
});
