import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { issued, line, owedStatus, readyToInvoice } from '../helpers/documents';
import { logger } from '../../src/server/logger';
import { CHROMIUM_MISSING } from '../../src/server/pdf/document-pdf';
import { IssueArchiver } from '../../src/server/services/issue-archive';

let server: TestServer;
beforeAll(async () => {
  // Keeps PDFs at issue, as in production, on a machine where Chromium cannot be found.
  server = await startTestServer({ archiveOnIssue: true, env: { CHROMIUM_PATH: '/nonexistent/chromium' } });
});
afterAll(() => server.close());

describe('keeping the PDF at issue', () => {
  it('an issue stands when its PDF cannot be printed: the failure is logged, nothing is kept, the first download will try again', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});
    try {
      const { session } = await registered(server.url);
      const { customerId } = await readyToInvoice(session);
      const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 800)] });
      expect(invoice).toMatchObject({ number: 'F2026-0001', status: owedStatus(invoice) });
      await server.app.deps.issueArchiver.settled();

      expect(errors).toHaveBeenCalledWith(
        `PDF not kept at issue (the first download will keep it): document ${invoice.id}`,
        expect.anything(),
      );
      const row = await server.app.connection.db
        .selectFrom('documents')
        .select(['number', 'pdf_path', 'pdf_sha256'])
        .where('id', '=', invoice.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ number: 'F2026-0001', pdf_path: null, pdf_sha256: null });
      const log = (await session.rest('GET', '/api/audit')).body.data as { event: string }[];
      expect(log.map((e) => e.event)).toEqual(['issue']);
      expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 1 });

      // The download is where it is tried again; without Chromium it says what to install.
      const download = await fetch(`${server.url}/documents/download/${invoice.uuid}`);
      expect(download.status).toBe(503);
      expect((await download.json()).messages).toBe(CHROMIUM_MISSING);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('a PDF being kept when the server stops', () => {
  it('is abandoned at once, however long its print would still take: nothing kept, the first download prints it', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {}); // the server's own print: no Chromium here
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 800)] });
    await server.app.deps.issueArchiver.settled();
    errors.mockRestore();
    const { organization_id } = await server.app.connection.db
      .selectFrom('documents')
      .select('organization_id')
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    // A print that only Chromium's close would end (a busy machine takes seconds to close it).
    let printing = false;
    const archiver = new IssueArchiver({
      db: server.app.connection.db,
      dataDir: server.dataDir,
      render: () => {
        printing = true;
        return new Promise<Buffer>(() => {});
      },
    });
    archiver.afterIssue(organization_id, invoice.id);
    await vi.waitFor(() => expect(printing).toBe(true));
    expect(archiver.inFlight).toBe(1);
    archiver.abandon();
    await archiver.settled();
    expect(archiver.inFlight).toBe(0);
    const row = await server.app.connection.db
      .selectFrom('documents')
      .select(['pdf_path', 'pdf_sha256'])
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ pdf_path: null, pdf_sha256: null });
    // Nothing starts once abandoned.
    printing = false;
    archiver.afterIssue(organization_id, invoice.id);
    expect(archiver.inFlight).toBe(0);
    expect(printing).toBe(false);
  });
});
