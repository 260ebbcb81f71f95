import type { Kysely } from 'kysely';

/**
 * The PDF of an issued invoice or credit note, kept once rendered: its path under the data directory,
 * its size and its SHA-256. Every later download serves that file after checking its hash; null until the first one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('pdf_path', 'text').execute();
  await db.schema.alterTable('documents').addColumn('pdf_sha256', 'text').execute();
  await db.schema.alterTable('documents').addColumn('pdf_size', 'integer').execute();
}
