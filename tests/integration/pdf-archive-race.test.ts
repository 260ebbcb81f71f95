import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDocument } from '../../src/server/db/queries/documents';
import { recordPdfArchive } from '../../src/server/db/queries/pdf-archives';
import { archivedPdf, archivePath } from '../../src/server/services/pdf-archive';
import { registered } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { startTestServer, type TestServer } from '../helpers/server';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('keeping a PDF when two processes print it at once', () => {
  it('the rendering that loses the race never replaces the kept file: both serve the recorded PDF', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 800)] });
    const { db } = server.app.deps;
    const row = await db.selectFrom('documents').select('organization_id').where('id', '=', invoice.id).executeTakeFirstOrThrow();
    const doc = await findDocument(db, { organizationId: row.organization_id, id: invoice.id });
    if (!doc) throw new Error('document missing');
    const kept = path.join(server.dataDir, archivePath(doc));
    const theirs = Buffer.from('%PDF-1.7\n% printed by the other process\n%%EOF\n');
    const ours = Buffer.from('%PDF-1.7\n% printed here, a moment later\n%%EOF\n');

    // While this process prints, another one (its own lock, same database and data folder) keeps its PDF first.
    const served = await archivedPdf(server.app.deps.db, server.dataDir, doc, async () => {
      fs.mkdirSync(path.dirname(kept), { recursive: true });
      fs.writeFileSync(kept, theirs);
      const archive = { pdf_path: archivePath(doc), pdf_sha256: sha256(theirs), pdf_size: theirs.length };
      expect(await recordPdfArchive(db, { organizationId: doc.organization_id, documentId: doc.id, archive })).toBe(true);
      return ours;
    });
    expect(served.equals(theirs)).toBe(true);
    expect(fs.readFileSync(kept).equals(theirs)).toBe(true);
    expect(fs.readdirSync(path.dirname(kept)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // The next download serves the same bytes, checked against the recorded SHA-256.
    const again = await archivedPdf(db, server.dataDir, doc, async () => {
      throw new Error('must not print again');
    });
    expect(again.equals(theirs)).toBe(true);
  });

  it('the first to record keeps its file under the kept name, with nothing left beside it', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 500)] });
    const { db } = server.app.deps;
    const row = await db.selectFrom('documents').select('organization_id').where('id', '=', invoice.id).executeTakeFirstOrThrow();
    const doc = await findDocument(db, { organizationId: row.organization_id, id: invoice.id });
    if (!doc) throw new Error('document missing');
    const bytes = Buffer.from('%PDF-1.7\n% the only rendering\n%%EOF\n');
    expect((await archivedPdf(db, server.dataDir, doc, async () => bytes)).equals(bytes)).toBe(true);
    const kept = path.join(server.dataDir, archivePath(doc));
    expect(fs.readFileSync(kept).equals(bytes)).toBe(true);
    expect(fs.readdirSync(path.dirname(kept)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const recorded = await db.selectFrom('documents').select('pdf_sha256').where('id', '=', doc.id).executeTakeFirstOrThrow();
    expect(recorded.pdf_sha256).toBe(sha256(bytes));
  });
});
