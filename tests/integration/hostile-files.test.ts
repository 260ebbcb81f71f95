import zlib from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { EINVOICE_XML_MAX_BYTES, EINVOICE_XML_MAX_LABEL } from '../../src/server/einvoice/xml-size';
import { readSupplierInvoice } from '../../src/server/einvoice/supplier-invoice';
import { IMPORT_LIMITS } from '../../src/server/services/csv-table';
import { LOGO_MAX_PIXELS } from '../../src/server/services/organization';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const expenseCount = async (session: Session) => (await session.rest('GET', '/api/expenses?per_page=1')).body.total as number;

/** `gigabytes` of zeros deflated as they stream (never held whole): ~1 MB per GB, the classic bomb. */
async function deflateBomb(gigabytes: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9, strategy: zlib.constants.Z_RLE });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < gigabytes * 1024; i++) {
    if (!deflate.write(zeros)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat(parts);
}

let bomb: Promise<Buffer> | undefined;
/** One gigabyte bomb for the whole file: making it costs a second of CPU. */
const sharedBomb = () => {
  bomb ??= deflateBomb(1);
  return bomb;
};

/** A minimal hybrid PDF whose `factur-x.xml` is `contents` as is, under `filter` (as Factur-X attaches its XML). */
async function pdfCarrying(contents: Uint8Array, filter: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  const { context } = doc;
  const file = context.register(
    PDFRawStream.of(context.obj({ Type: 'EmbeddedFile', Subtype: 'text/xml', Filter: filter, Length: contents.length }), contents),
  );
  const name = PDFString.of('factur-x.xml');
  const spec = context.register(
    context.obj({ Type: 'Filespec', F: name, UF: name, AFRelationship: 'Alternative', EF: { F: file, UF: file } }),
  );
  doc.catalog.set(PDFName.of('AF'), context.obj([spec]));
  doc.catalog.set(PDFName.of('Names'), context.obj({ EmbeddedFiles: { Names: [name, spec] } }));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** Runs `work` while sampling this process's memory (the server runs in it): the highest RSS rise, in MB. */
async function peakRssRise<T>(work: () => Promise<T>): Promise<{ result: T; rise: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, rise: (peak - before) / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

describe('compressed files are inflated under a cap', () => {
  it('a Factur-X PDF whose XML is a 1 MB deflate bomb (1 GB inflated): a French 400, small memory, the server answers', async () => {
    const { session } = await registered(server.url);
    const bomb = await sharedBomb();
    expect(bomb.length).toBeLessThan(1.2 * 1024 * 1024);
    const pdf = await pdfCarrying(bomb, 'FlateDecode');
    const body = { filename: 'bombe.pdf', content_base64: pdf.toString('base64') };

    const started = performance.now();
    const { result: answer, rise } = await peakRssRise(() => session.rest('POST', '/api/expenses/import', body));
    const elapsed = performance.now() - started;
    console.log(`deflate bomb (1 MB → 1 GB) in a Factur-X PDF: ${Math.round(elapsed)} ms, RSS rise ${Math.round(rise)} MB`);
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toBe(
      `Fichier : « bombe.pdf » : la facture jointe au PDF dépasse ${EINVOICE_XML_MAX_LABEL} une fois décompressée ; elle n’a pas été lue`,
    );
    expect(rise).toBeLessThan(200);
    expect(await expenseCount(session)).toBe(0);
    expect((await fetch(`${server.url}/api/version`)).status).toBe(200);
  });

  for (const [what, type] of [
    ['an object stream', '/ObjStm'],
    ['an object stream whose type hides behind a name escape', '/O#62jStm'],
  ]) {
    it(`${what} (which pdf-lib inflates whole while loading) holding the bomb: refused before pdf-lib reads it`, async () => {
      const { session } = await registered(server.url);
      const bomb = await sharedBomb();
      const pdf = Buffer.concat([
        Buffer.from(
          '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
            `3 0 obj << /Type ${type} /N 1 /First 4 /Filter /FlateDecode /Length ${bomb.length} >> stream\n`,
          'latin1',
        ),
        bomb,
        Buffer.from('\nendstream endobj\ntrailer << /Root 1 0 R /Size 4 >>\n%%EOF\n', 'latin1'),
      ]);
      const body = { filename: 'objets.pdf', content_base64: pdf.toString('base64') };
      const { result: answer, rise } = await peakRssRise(() => session.rest('POST', '/api/expenses/import', body));
      expect(answer.status).toBe(400);
      expect(answer.body.messages).toBe(
        `Fichier : « objets.pdf » : le PDF contient un flux qui dépasse ${EINVOICE_XML_MAX_LABEL} une fois décompressé ; il n’a pas été lu`,
      );
      expect(rise).toBeLessThan(200);
    });
  }

  it('a run-length bomb in the same place is stopped at the same cap', async () => {
    const { session } = await registered(server.url);
    // 0x81 then a byte: that byte 128 times. 1 MB of pairs → 64 MB.
    const bomb = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < bomb.length; i += 2) bomb[i] = 0x81;
    const pdf = await pdfCarrying(bomb, 'RunLengthDecode');
    const answer = await session.rest('POST', '/api/expenses/import', { filename: 'rle.pdf', content_base64: pdf.toString('base64') });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toBe(
      `Fichier : « rle.pdf » : la facture jointe au PDF dépasse ${EINVOICE_XML_MAX_LABEL} une fois décompressée ; elle n’a pas été lue`,
    );
    expect(await expenseCount(session)).toBe(0);
  });
});

describe('XML is measured before it is parsed', () => {
  it('an e-invoice XML over the cap is refused in French before libxml2 sees it', async () => {
    const xml = `<Invoice>${' '.repeat(EINVOICE_XML_MAX_BYTES)}</Invoice>`;
    await expect(readSupplierInvoice(xml)).rejects.toThrow(`La facture dépasse ${EINVOICE_XML_MAX_LABEL} : elle n’a pas été lue`);
  });
});

describe('CSV imports are capped while they are parsed', () => {
  const most = IMPORT_LIMITS.maxRows.toLocaleString('fr-FR');
  const customerCount = async (session: Session) => (await session.rest('GET', '/api/customers?per_page=1')).body.total as number;

  it('3 million one-letter rows (9 MB as JSON): refused at the row cap, before the rest is read', async () => {
    const { session } = await registered(server.url);
    const csv = `Nom\n${'a\n'.repeat(3_000_000)}`;
    const started = performance.now();
    const { result: answer, rise } = await peakRssRise(() => session.rest('POST', '/api/customers/import', { csv, dry_run: true }));
    console.log(`CSV of 3 million rows: ${Math.round(performance.now() - started)} ms, RSS rise ${Math.round(rise)} MB`);
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toBe(`Le fichier compte plus de ${most} lignes : ${most} au plus par import`);
    expect(rise).toBeLessThan(200);
    expect(await customerCount(session)).toBe(0);
  });

  it('a row of 4 million fields: refused at the field cap', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('POST', '/api/items/import', { csv: `Désignation${';'.repeat(4_000_000)}\nA`, dry_run: true });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toBe(`La ligne 1 compte plus de ${IMPORT_LIMITS.maxCells} colonnes : le fichier n’a pas été lu`);
  });

  it('exactly the row cap is read, blank lines not counted', async () => {
    const { session } = await registered(server.url);
    const csv = `Nom\n\n${Array.from({ length: IMPORT_LIMITS.maxRows }, (_, i) => `Client ${i}`).join('\n')}\n\n`;
    const answer = await session.rest('POST', '/api/customers/import', { csv, dry_run: true });
    expect(answer.status).toBe(200);
    expect(answer.body.data.total_rows).toBe(IMPORT_LIMITS.maxRows);
  });
});

describe('images are measured before anyone decodes them', () => {
  it('a 1 × 1 PNG declaring 40,000 × 40,000 pixels is refused as a logo, in French', async () => {
    const { session } = await registered(server.url);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    png.writeUInt32BE(40_000, 16);
    png.writeUInt32BE(40_000, 20);
    const answer = await session.rest('POST', '/api/organization/logo', { data_url: `data:image/png;base64,${png.toString('base64')}` });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toBe(`Le logo fait 40000 × 40000 pixels : ${LOGO_MAX_PIXELS / 1e6} millions de pixels au plus`);
    expect((await session.rest('GET', '/api/organization')).body.logo_url).toBeNull();
  });
});
