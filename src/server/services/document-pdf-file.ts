import type { Db } from '../db/connection';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { archivedPdf, isArchived } from './pdf-archive';
import { renderDocumentPdf, renderKeptPdf, type PdfDeps } from '../pdf/document-pdf';

export type DocumentFileDeps = PdfDeps & { db: Db; dataDir: string };

/**
 * The PDF the customer gets, the same for a download and an e-mail: for an issued invoice or credit note, the one kept
 * at its issue, byte for byte; for the other types, printed now from the public page.
 */
export async function documentPdfFile(deps: DocumentFileDeps, doc: StoredDocument): Promise<Buffer> {
  // Kept: a Factur-X when the server gives e-invoices.
  return isArchived(doc) ? archivedPdf(deps.db, deps.dataDir, doc, () => renderKeptPdf(deps, doc)) : renderDocumentPdf(deps, doc);
}
