import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PdfArchiveRow } from '../db/queries/pdf-archives';

export const fileSha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Whether a kept PDF is still on disk with its recorded size and SHA-256: verify's check of an archive entry. */
export async function archiveIntact(dataDir: string, archive: PdfArchiveRow): Promise<boolean> {
  try {
    const bytes = await fs.readFile(path.join(dataDir, archive.pdf_path));
    return bytes.length === archive.pdf_size && fileSha256(bytes) === archive.pdf_sha256;
  } catch {
    return false;
  }
}
