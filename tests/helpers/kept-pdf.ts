import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { TestServer } from './server';
import { recordPdfArchive } from '../../src/server/db/queries/pdf-archives';
import { archivePath } from '../../src/server/services/pdf-archive';
import { fileSha256 } from '../../src/server/services/archive-file';

/**
 * An issued invoice's PDF as kept at its issue in production (where the issue prints it with Chromium): a real PDF,
 * made with pdf-lib, written where the archive keeps it and recorded with its hash, so that tests without a browser
 * build read the same path downloads and mails take. Answers the bytes kept.
 */
export async function keepPdf(server: TestServer, documentId: number): Promise<Buffer> {
  const db = server.app.connection.db;
  const stored = await db
    .selectFrom('documents')
    .select(['organization_id', 'uuid', 'number'])
    .where('id', '=', documentId)
    .executeTakeFirstOrThrow();
  const pdf = await PDFDocument.create();
  pdf.addPage().drawText(`Facture ${stored.number}`);
  const bytes = Buffer.from(await pdf.save());
  const relative = archivePath(stored);
  fs.mkdirSync(path.dirname(path.join(server.dataDir, relative)), { recursive: true });
  fs.writeFileSync(path.join(server.dataDir, relative), bytes);
  await recordPdfArchive(db, {
    organizationId: stored.organization_id,
    documentId,
    archive: { pdf_path: relative, pdf_sha256: fileSha256(bytes), pdf_size: bytes.length },
  });
  return bytes;
}
