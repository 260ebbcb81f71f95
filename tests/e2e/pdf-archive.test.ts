import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { ARCHIVE_ALTERED } from '../../src/server/services/pdf-archive';

let server: TestServer;
let session: Session;

beforeAll(async () => {
  server = await startTestServer();
  session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser());
});
afterAll(async () => {
  await server?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const download = (uuid: string) => fetch(`${server.url}/documents/download/${uuid}`);
const pdfOf = async (uuid: string) => {
  const response = await download(uuid);
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
};
const archiveOf = (id: number) =>
  server.app.connection.db
    .selectFrom('documents')
    .select(['pdf_path', 'pdf_sha256', 'pdf_size'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('issued invoices and credit notes: the PDF kept at the first download', () => {
  it('re-downloads an invoice byte for byte after a payment, a credit note and a template change', async () => {
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 3, 150), line('Formation', 1, 87.5, 10)] });

    // Two first downloads racing: one rendering, one archive, the same bytes to both.
    const [first, racing] = await Promise.all([pdfOf(invoice.uuid), pdfOf(invoice.uuid)]);
    expect(new TextDecoder().decode(first.slice(0, 5))).toBe('%PDF-');
    expect(sha256(racing)).toBe(sha256(first));
    const kept = await archiveOf(invoice.id);
    expect(kept.pdf_path).toBe(`archive/1/${invoice.uuid}.pdf`); // the first organisation of this fresh database
    expect(kept.pdf_sha256).toBe(sha256(first));
    expect(kept.pdf_size).toBe(first.length);
    const file = path.join(server.dataDir, String(kept.pdf_path));
    expect(sha256(fs.readFileSync(file))).toBe(kept.pdf_sha256);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 100 })).status).toBe(201);
    const credit = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
      type: 'credit',
      lines: [{ id: invoice.items[0].id, quantity: 1 }],
    });
    expect((await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`)).status).toBe(200);
    const template = (await session.rest('GET', '/api/settings?key=document')).body.data;
    template.margins.first_page.left = 4;
    template.header.push({ columns: [{ cols: 12, elements: [{ type: 'text', content: 'Merci pour votre confiance' }] }] });
    expect((await session.rest('PUT', '/api/settings?key=document', template)).status).toBe(200);

    const again = await pdfOf(invoice.uuid);
    expect(sha256(again)).toBe(sha256(first));
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);

    // The credit note is kept too, once issued; a second download gives the same bytes.
    const creditUuid = (await session.rest('GET', `/api/documents/${credit.body.data.id}`)).body.uuid as string;
    const creditPdf = await pdfOf(creditUuid);
    expect(sha256(await pdfOf(creditUuid))).toBe(sha256(creditPdf));
    expect((await archiveOf(credit.body.data.id)).pdf_sha256).toBe(sha256(creditPdf));
  });

  it('refuses to serve a kept PDF altered on disk, with a French message', async () => {
    const customerId = (await session.rest('GET', '/api/customers')).body.data[0].id as number;
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 500)] });
    await pdfOf(invoice.uuid);
    const kept = await archiveOf(invoice.id);
    const file = path.join(server.dataDir, String(kept.pdf_path));
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);

    const refused = await download(invoice.uuid);
    expect(refused.status).toBe(500);
    expect(refused.headers.get('content-type')).not.toBe('application/pdf');
    expect(JSON.stringify(await refused.json())).toContain(ARCHIVE_ALTERED);
    // Nothing was re-rendered over it: the record stays what it was.
    expect(await archiveOf(invoice.id)).toEqual(kept);

    fs.rmSync(file);
    const missing = await download(invoice.uuid);
    expect(missing.status).toBe(500);
    expect(JSON.stringify(await missing.json())).toContain(ARCHIVE_ALTERED);
  });

  it('keeps rendering quotes on each download, without keeping them', async () => {
    const customerId = (await session.rest('GET', '/api/customers')).body.data[0].id as number;
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Devis', 1, 100)] });
    await pdfOf(estimate.uuid);
    expect((await archiveOf(estimate.id)).pdf_sha256).toBeNull();
  });
});
