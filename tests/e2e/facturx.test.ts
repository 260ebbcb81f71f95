import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, createApp } from '../../src/server/app';
import { fontProgramEmbedded, pdfAObstacles, toFacturX } from '../../src/server/einvoice/facturx';
import { readFacturX } from '../../src/server/einvoice/facturx-read';
import { validateEinvoice } from '../../src/server/einvoice/validate';
import { logger } from '../../src/server/logger';
import { FACTURX_FAILED } from '../../src/server/pdf/document-pdf';
import { registered, Session } from '../helpers/clients';
import { issued, line, owedStatus, readyToInvoice } from '../helpers/documents';
import { testEnv } from '../helpers/server';

// The kept PDF of an invoice or credit note made Factur-X on the real path: Chromium prints the share page, the
// injected provider gives the CII (an official EN 16931 sample here: buildEinvoiceXml is connected by the lead), and
// the result is what is archived, hashed, logged and downloaded. Rendering needs the built SPA (global setup).
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/einvoice/cii');
const cii = fs.readFileSync(path.join(FIXTURES, 'CII_example2.xml'), 'utf8');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const { env, dataDir } = testEnv();
/** The provider's calls, and the documents for which it fails (as buildEinvoiceXml would on a broken rule). */
const asked: [number, number][] = [];
const failing = new Set<number>();
let app: App;
let url: string;
let session: Session;

async function start(einvoiceXml?: (organizationId: number, documentId: number) => Promise<string>) {
  app = await createApp(env, { archiveOnIssue: true, einvoiceXml: einvoiceXml ?? null });
  url = await app.listen();
}

beforeAll(async () => {
  // First the server as it runs today, with no e-invoice provider: it keeps a plain PDF (the frozen case).
  await start();
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const download = async (uuid: string) => {
  const response = await fetch(`${url}/documents/download/${uuid}`);
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
};
const archiveOf = (id: number) =>
  app.connection.db.selectFrom('documents').select(['pdf_path', 'pdf_sha256', 'pdf_size']).where('id', '=', id).executeTakeFirstOrThrow();
const archiveEntries = async () =>
  (
    (await session.rest('GET', '/api/audit?per_page=100')).body.data as {
      event: string;
      content: { document: { id: number }; pdf: { sha256: string } };
    }[]
  )
    .filter((e) => e.event === 'archive')
    .map((e) => e.content);

let plain: { id: number; uuid: string; bytes: Uint8Array };
let customerId: number;

describe('Factur-X on the download path and in the archive', () => {
  it('before any provider: the invoice is kept as printed, a plain PDF with no embedded file', async () => {
    ({ session } = await registered(url));
    ({ customerId } = await readyToInvoice(session));
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 2, 400)] });
    await app.deps.issueArchiver.settled();
    const { status, bytes } = await download(invoice.uuid);
    expect(status).toBe(200);
    expect(await readFacturX(bytes)).toBeUndefined();
    plain = { id: invoice.id, uuid: invoice.uuid, bytes };
    await app.close();

    // The same database and data directory, now with the provider: the server from here on.
    await start(async (organizationId, documentId) => {
      asked.push([organizationId, documentId]);
      if (failing.has(documentId)) throw new Error('BR-CO-15 failed');
      return cii;
    });
    const signedIn = session.cookie;
    session = new Session(url); // the same user, signed in, on the restarted server's port
    session.cookie = signedIn;
  }, 120_000);

  it('an invoice issued with the provider is kept and served as Factur-X PDF/A-3B: its XML byte for byte, valid, hashed and logged', async () => {
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 3, 150), line('Formation', 1, 87.5, 10)] });
    await app.deps.issueArchiver.settled();
    const { organization_id } = await app.connection.db
      .selectFrom('documents')
      .select('organization_id')
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    expect(asked).toContainEqual([organization_id, invoice.id]);

    const { status, bytes } = await download(invoice.uuid);
    expect(status).toBe(200);
    const kept = await archiveOf(invoice.id);
    expect(kept.pdf_sha256).toBe(sha256(bytes));
    expect(kept.pdf_size).toBe(bytes.length);
    expect(sha256(fs.readFileSync(path.join(dataDir, String(kept.pdf_path))))).toBe(kept.pdf_sha256);
    expect((await archiveEntries()).find((e) => e.document.id === invoice.id)?.pdf.sha256).toBe(kept.pdf_sha256);

    const read = await readFacturX(bytes);
    expect(read?.name).toBe('factur-x.xml');
    expect(read?.relationship).toBe('/Alternative');
    expect(sha256(read?.bytes ?? new Uint8Array())).toBe(sha256(new TextEncoder().encode(cii)));
    expect((await validateEinvoice(read?.xml ?? '', 'cii')).ok).toBe(true);

    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    const xmp = doc.catalog.lookup(PDFName.of('Metadata'));
    expect(new TextDecoder().decode((xmp as PDFRawStream).contents)).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(doc.catalog.has(PDFName.of('OutputIntents'))).toBe(true);
    expect(doc.getTitle()).toBe(`Facture ${invoice.number} · Atelier Fontaine`);
    expect(doc.getCreationDate()?.toISOString()).toBe(`${invoice.issued_at.slice(0, 19)}.000Z`);
    // The fonts of this very print: every one embedded (FontFile*), nothing PDF/A forbids.
    let fonts = 0;
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      const dict = object instanceof PDFDict ? object : undefined;
      if (dict?.get(PDFName.of('Type'))?.toString() !== '/Font') continue;
      fonts += 1;
      expect(fontProgramEmbedded(doc, dict)).toBe(true);
    }
    expect(fonts).toBeGreaterThan(0);
    expect(pdfAObstacles(doc)).toEqual([]);

    // Served again byte for byte: the archive, not a new conversion.
    expect(sha256((await download(invoice.uuid)).bytes)).toBe(kept.pdf_sha256);
  }, 120_000);

  it('a credit note is Factur-X too', async () => {
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 300)] });
    const credit = await session.rest('POST', `/api/documents/${invoice.id}/convert`, {
      type: 'credit',
      lines: [{ id: invoice.items[0].id, quantity: 1 }],
    });
    const answer = await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`);
    expect(answer.status).toBe(200);
    await app.deps.issueArchiver.settled();
    const { status, bytes } = await download(answer.body.data.uuid);
    expect(status).toBe(200);
    expect((await readFacturX(bytes))?.xml).toBe(cii);
    expect((await PDFDocument.load(bytes, { updateMetadata: false })).getKeywords()).toBe('Avoir, Factur-X, EN 16931');
  }, 120_000);

  it('when the XML cannot be had, the issue stands, nothing is kept, the download says so, and the next download keeps the Factur-X', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});
    try {
      const draft = await session.rest('POST', '/api/documents', {
        date: '2026-11-02',
        customer_id: customerId,
        items: [line('Audit', 1, 900)],
      });
      failing.add(draft.body.data.id);
      const answer = await session.rest('POST', `/api/documents/${draft.body.data.id}/issue`);
      expect(answer.status).toBe(200);
      expect(answer.body.data.status).toBe(owedStatus(answer.body.data));
      await app.deps.issueArchiver.settled();
      expect(errors).toHaveBeenCalledWith(`Factur-X not produced, PDF not kept: document ${draft.body.data.id}`, expect.any(Error));
      expect(await archiveOf(draft.body.data.id)).toEqual({ pdf_path: null, pdf_sha256: null, pdf_size: null });

      const refused = await fetch(`${url}/documents/download/${answer.body.data.uuid}`);
      expect(refused.status).toBe(500);
      expect((await refused.json()).messages).toBe(FACTURX_FAILED);
      expect(await archiveOf(draft.body.data.id)).toMatchObject({ pdf_path: null });
      expect((await archiveEntries()).some((e) => e.document.id === draft.body.data.id)).toBe(false);

      failing.delete(draft.body.data.id);
      const { status, bytes } = await download(answer.body.data.uuid);
      expect(status).toBe(200);
      expect((await readFacturX(bytes))?.xml).toBe(cii);
      expect((await archiveOf(draft.body.data.id)).pdf_sha256).toBe(sha256(bytes));
    } finally {
      errors.mockRestore();
    }
  }, 120_000);

  it('the plain PDF kept before the provider existed stays as it was: frozen, never converted', async () => {
    const { status, bytes } = await download(plain.uuid);
    expect(status).toBe(200);
    expect(sha256(bytes)).toBe(sha256(plain.bytes));
    expect(await readFacturX(bytes)).toBeUndefined();
    expect(asked.some(([, id]) => id === plain.id)).toBe(false);
  });

  it('measures the PDF/A-3 step on a real print', async () => {
    const times: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const started = performance.now();
      await toFacturX(plain.bytes, cii, {
        type: 'invoice',
        number: 'F2026-0001',
        seller: 'Atelier Fontaine',
        issuedAt: new Date('2026-11-02T10:00:00Z'),
      });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.info(`Factur-X step on a Chromium print: median ${times[10]?.toFixed(1)} ms, p95 ${times[18]?.toFixed(1)} ms`);
    expect(times[10]).toBeLessThan(1000);
  });

  it('with the server’s own provider (buildEinvoiceXml, the default): the PDF carries the same CII the API answers, valid', async () => {
    await app.close();
    app = await createApp(env, { archiveOnIssue: true });
    url = await app.listen();
    const cookie = session.cookie;
    session = new Session(url);
    session.cookie = cookie;
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 3, 250)] });
    await app.deps.issueArchiver.settled();
    const { status, bytes } = await download(invoice.uuid);
    expect(status).toBe(200);
    const embedded = await readFacturX(bytes);
    const answer = await fetch(`${url}/api/documents/${invoice.id}/einvoice?format=cii`, { headers: { cookie: session.cookie ?? '' } });
    expect(answer.status).toBe(200);
    const xml = await answer.text();
    expect(embedded?.xml).toBe(xml);
    const validation = await validateEinvoice(xml, 'cii');
    expect(validation.ok, JSON.stringify(validation)).toBe(true);
  }, 120_000);
});
