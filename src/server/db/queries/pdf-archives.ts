import type { Db } from '../connection';

/** The kept PDF of one document, as stored on its row (migration 0013). */
export type PdfArchiveRow = { pdf_path: string; pdf_sha256: string; pdf_size: number };

export async function findPdfArchive(db: Db, params: { organizationId: number; documentId: number }): Promise<PdfArchiveRow | undefined> {
  const row = await db
    .selectFrom('documents')
    .select(['pdf_path', 'pdf_sha256', 'pdf_size'])
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.documentId)
    .executeTakeFirst();
  if (!row?.pdf_path || !row.pdf_sha256 || row.pdf_size === null) return undefined;
  return { pdf_path: row.pdf_path, pdf_sha256: row.pdf_sha256, pdf_size: row.pdf_size };
}

/** Records the kept PDF once: a row that already has one is left as it is (the first archive is the record). */
export async function recordPdfArchive(
  db: Db,
  params: { organizationId: number; documentId: number; archive: PdfArchiveRow },
): Promise<boolean> {
  const result = await db
    .updateTable('documents')
    .set(params.archive)
    .where('organization_id', '=', params.organizationId)
    .where('id', '=', params.documentId)
    .where('pdf_sha256', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
