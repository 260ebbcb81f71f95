import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, registered, Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { ARCHIVE_ALTERED } from '../../src/server/services/pdf-archive';
import { issueDocument } from '../../src/server/services/document-lifecycle';

// Rendering needs the built SPA (the share page is what Chromium prints): this file sits with the browser tests,
// whose global setup builds it, though it drives no browser itself.
let server: TestServer;
let session: Session;

beforeAll(async () => {
  server = await startTestServer({ archiveOnIssue: true }); // as in production: each invoice's PDF kept at its issue
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
/** The PDFs being kept at issue, written: they print beside the issue's answer. */
const keptAtIssue = () => server.app.deps.issueArchiver.settled();
/** The log's archive entries, oldest first. */
const archiveEntries = async (of: Session) =>
  ((await of.rest('GET', '/api/audit?per_page=100')).body.data as { sequence: number; event: string; content: Record<string, unknown> }[])
    .filter((e) => e.event === 'archive')
    .reverse();

describe('issued invoices and credit notes: the PDF kept at issue', () => {
  it('keeps the PDF at issue, logs its SHA-256, and serves it byte for byte after a payment, a credit note and a template change', async () => {
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 3, 150), line('Formation', 1, 87.5, 10)] });
    await keptAtIssue();
    const first = await pdfOf(invoice.uuid);
    expect(new TextDecoder().decode(first.slice(0, 5))).toBe('%PDF-');
    const kept = await archiveOf(invoice.id);
    expect(kept.pdf_path).toBe(`archive/1/${invoice.uuid}.pdf`); // the first organisation of this fresh database
    expect(kept.pdf_sha256).toBe(sha256(first));
    expect(kept.pdf_size).toBe(first.length);
    const file = path.join(server.dataDir, String(kept.pdf_path));
    expect(sha256(fs.readFileSync(file))).toBe(kept.pdf_sha256);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const [logged, ...others] = await archiveEntries(session);
    expect(others).toEqual([]);
    expect(logged?.content).toMatchObject({
      event: 'archive',
      user: { name: expect.any(String) },
      document: { id: invoice.id, type: 'invoice', number: invoice.number },
      pdf: { path: kept.pdf_path, sha256: kept.pdf_sha256, size: kept.pdf_size },
    });

    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 100 })).status).toBe(201);
    const credit = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
      type: 'credit',
      lines: [{ id: invoice.items[0].id, quantity: 1 }],
    });
    expect((await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`)).status).toBe(200);
    await keptAtIssue();
    const template = (await session.rest('GET', '/api/settings?key=document')).body.data;
    template.margins.first_page.left = 4;
    template.header.push({ columns: [{ cols: 12, elements: [{ type: 'text', content: 'Merci pour votre confiance' }] }] });
    expect((await session.rest('PUT', '/api/settings?key=document', template)).status).toBe(200);

    const again = await pdfOf(invoice.uuid);
    expect(sha256(again)).toBe(sha256(first));
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);

    // The credit note was kept at its issue too, before the template change: its downloads serve that file.
    const creditKept = await archiveOf(credit.body.data.id);
    expect(creditKept.pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256(await pdfOf(credit.body.data.uuid))).toBe(creditKept.pdf_sha256);
    expect((await archiveEntries(session)).map((e) => (e.content.document as { id: number }).id)).toEqual([
      invoice.id,
      credit.body.data.id,
    ]);
    expect((await session.rest('GET', '/api/audit/verify')).body).toMatchObject({ ok: true });
  });

  it('when the PDF was not kept at issue, the first download keeps it, once, even when two race', async () => {
    const customerId = (await session.rest('GET', '/api/customers')).body.data[0].id as number;
    const created = await draft(session, { customer_id: customerId, items: [line('Maintenance', 2, 90)] });
    // Issued without the step that keeps its PDF, as when Chromium failed at that moment.
    const invoice = await issueDocument(server.app.deps.db, 1, created.id);
    await keptAtIssue();
    expect((await archiveOf(invoice.id)).pdf_sha256).toBeNull();

    const [first, racing] = await Promise.all([pdfOf(invoice.uuid), pdfOf(invoice.uuid)]);
    expect(sha256(racing)).toBe(sha256(first));
    expect((await archiveOf(invoice.id)).pdf_sha256).toBe(sha256(first));
    const logged = (await archiveEntries(session)).filter((e) => (e.content.document as { id: number }).id === invoice.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]?.content).toMatchObject({ user: null, pdf: { sha256: sha256(first) } });
  });

  it('a kept PDF altered or removed on disk: the download refuses it, verify and npm run audit:verify report its archive entry', async () => {
    const { session: owner } = await registered(server.url); // a chain of its own: its entries are numbered from 1
    const { customerId } = await readyToInvoice(owner);
    const invoice = await issued(owner, { customer_id: customerId, items: [line('Audit', 1, 500)] });
    await keptAtIssue();
    expect((await owner.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 2 });
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
    expect((await owner.rest('GET', '/api/audit/verify')).body).toMatchObject({ ok: false, entries: 2, first_broken: 2 });
    const script = await auditVerifyScript();
    expect(script.code).toBe(1);
    expect(script.out).toMatch(/✗ Atelier Fontaine \(n° \d+\) : journal altéré à partir de l’entrée n° 2 \(sur 2\)/);

    fs.rmSync(file);
    const missing = await download(invoice.uuid);
    expect(missing.status).toBe(500);
    expect(JSON.stringify(await missing.json())).toContain(ARCHIVE_ALTERED);
    expect((await owner.rest('GET', '/api/audit/verify')).body).toMatchObject({ ok: false, entries: 2, first_broken: 2 });
  });

  it('keeps rendering quotes on each download, without keeping them', async () => {
    const customerId = (await session.rest('GET', '/api/customers')).body.data[0].id as number;
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Devis', 1, 100)] });
    await keptAtIssue();
    await pdfOf(estimate.uuid);
    expect((await archiveOf(estimate.id)).pdf_sha256).toBeNull();
  });
});

/** `npm run audit:verify` on this server's database and data directory: its exit code and its French report. */
async function auditVerifyScript(): Promise<{ code: number; out: string }> {
  const env = { ...process.env, DATABASE_URL: `file:${server.dbPath}`, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' };
  try {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/audit-verify.ts'], { env });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}
