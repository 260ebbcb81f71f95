import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../errors';
import { findSharedRow } from '../services/share';
import { ChromiumMissingError } from '../pdf/pdf-renderer';
import { CHROMIUM_MISSING } from '../pdf/document-pdf';
import { documentPdfFile, type DocumentFileDeps } from '../services/document-pdf-file';
import { sendError } from './respond';
import { pdfFileName } from '../../shared/document-types';

export const DOWNLOAD_PREFIX = '/documents/download/';

/**
 * GET /documents/download/{uuid}: the document's PDF, printed by Chromium from its public page on this server; for an
 * issued invoice or credit note, the one kept under the data directory at its issue (or, when that failed, at its
 * first download).
 */
export async function serveDownload(req: IncomingMessage, res: ServerResponse, pathname: string, deps: DocumentFileDeps) {
  try {
    let uuid = '';
    try {
      uuid = decodeURIComponent(pathname.slice(DOWNLOAD_PREFIX.length)).toLowerCase();
    } catch {
      // A malformed escape is just another link that names no document.
    }
    const row = await findSharedRow(deps.db, uuid);
    const pdf = await documentPdfFile(deps, row);
    const name = pdfFileName(row.type, row.kind, row.number ?? 'brouillon');
    res.writeHead(200, {
      'Content-Type': 'application/pdf',
      'Content-Length': pdf.length,
      'Content-Disposition': `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'Cache-Control': 'private, no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : pdf);
  } catch (error) {
    if (error instanceof ChromiumMissingError) return sendError(res, new AppError('SERVICE_UNAVAILABLE', CHROMIUM_MISSING));
    if (error instanceof AppError) return sendError(res, error);
    sendError(res, new AppError('INTERNAL_SERVER_ERROR', 'Le PDF n’a pas pu être produit, réessayez dans un instant'));
  }
}
