import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db/connection';
import { findPdfArchive, recordPdfArchive, type PdfArchiveRow } from '../db/queries/pdf-archives';
import { isLegalRecord } from '../../shared/document-status';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { AppError } from '../errors';
import { logger } from '../logger';
import { appendAudit } from './audit';
import { fileSha256 as sha256 } from './archive-file';

export const ARCHIVE_ALTERED =
  'Le PDF conservé de ce document ne correspond plus à son empreinte enregistrée : il a été modifié ou endommagé. Il n’est pas servi ; contactez l’administrateur du serveur.';

/** An issued invoice or credit note is printed once, and that PDF is the one every download serves. */
export const isArchived = (doc: Pick<StoredDocument, 'type' | 'status'>): boolean => isLegalRecord(doc.type) && doc.status !== 'draft';

/** Where a document's PDF is kept, relative to the data directory (so the directory can move with its database). */
export const archivePath = (doc: Pick<StoredDocument, 'organization_id' | 'uuid'>): string =>
  path.join('archive', String(doc.organization_id), `${doc.uuid}.pdf`);

/**
 * Per-document queue: two first downloads racing in this process render once. Across processes (PostgreSQL) two may
 * both render; the row's conditional update then picks one, and only that one is moved under the kept name
 * (`archivedPdf`), so the file always matches the recorded SHA-256.
 */
const locks = new Map<number, Promise<unknown>>();

async function serialized<T>(documentId: number, work: () => Promise<T>): Promise<T> {
  const previous = locks.get(documentId) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(work);
  locks.set(documentId, current);
  try {
    return await current;
  } finally {
    if (locks.get(documentId) === current) locks.delete(documentId);
  }
}

/** The kept file, read and checked against its stored SHA-256: a mismatch is refused, never served. */
async function readArchive(dataDir: string, doc: StoredDocument, archive: PdfArchiveRow): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path.join(dataDir, archive.pdf_path));
  } catch (error) {
    logger.error(`Archived PDF unreadable: document ${doc.id}, ${archive.pdf_path}`, error);
    throw new AppError('INTERNAL_SERVER_ERROR', ARCHIVE_ALTERED);
  }
  const actual = sha256(bytes);
  if (actual !== archive.pdf_sha256 || bytes.length !== archive.pdf_size) {
    logger.error(
      `Archived PDF altered: document ${doc.id}, ${archive.pdf_path}, expected ${archive.pdf_sha256} (${archive.pdf_size} bytes), found ${actual} (${bytes.length} bytes)`,
    );
    throw new AppError('INTERNAL_SERVER_ERROR', ARCHIVE_ALTERED);
  }
  return bytes;
}

/**
 * Writes beside the final name (synced), for the caller to rename once the row records it: a crash leaves no
 * half-written archive under the kept name, and a rendering that lost the race never replaces the recorded one.
 */
async function writeBeside(file: string, bytes: Uint8Array): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomUUID()}.tmp`;
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return temp;
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * The PDF of an issued invoice or credit note: the kept one, checked; else (at issue, or at the first download when
 * that failed) `render()` prints it, it is written under the data directory, and its SHA-256 is recorded on the row
 * and in the log together. The check of the row is repeated inside the per-document lock, so a download that waited
 * serves what the first one kept.
 */
export async function archivedPdf(
  db: Db,
  dataDir: string,
  doc: StoredDocument,
  render: () => Promise<Buffer>,
  userId?: number,
): Promise<Buffer> {
  const ids = { organizationId: doc.organization_id, documentId: doc.id };
  const kept = await findPdfArchive(db, ids);
  if (kept) return readArchive(dataDir, doc, kept);
  return serialized(doc.id, async () => {
    const again = await findPdfArchive(db, ids);
    if (again) return readArchive(dataDir, doc, again);
    const bytes = await render();
    const archive = { pdf_path: archivePath(doc), pdf_sha256: sha256(bytes), pdf_size: bytes.length };
    const file = path.join(dataDir, archive.pdf_path);
    const temp = await writeBeside(file, bytes);
    let recorded: boolean;
    try {
      recorded = await db.transaction().execute(async (trx) => {
        // The update holds the row until the commit: another process's attempt waits, then finds it recorded.
        if (!(await recordPdfArchive(trx, { ...ids, archive }))) return false;
        await appendAudit(trx, doc.organization_id, 'archive', { document: documentOf(doc), pdf: archiveContent(archive) }, userId);
        // Under the kept name before the commit: once the row says so, the file is there. A failed commit leaves a
        // file no row names; the next attempt replaces it.
        await fs.rename(temp, file);
        return true;
      });
    } finally {
      await fs.rm(temp, { force: true });
    }
    if (!recorded) {
      // Another process recorded one first: that one is the record, and this rendering is not served.
      const first = await findPdfArchive(db, ids);
      if (first) return readArchive(dataDir, doc, first);
    }
    return bytes;
  });
}

/** What an archive entry says of the document and of its kept PDF. */
export const documentOf = (doc: Pick<StoredDocument, 'id' | 'type' | 'number' | 'currency'> & { totals: { total: number } }) => ({
  id: doc.id,
  type: doc.type,
  number: doc.number,
  total: doc.totals.total,
  currency: doc.currency,
});
const archiveContent = (archive: PdfArchiveRow) => ({ path: archive.pdf_path, sha256: archive.pdf_sha256, size: archive.pdf_size });
