import type { Kysely } from 'kysely';

/**
 * The template in force when a document was issued, kept with it (JSON, null for drafts): a later template change
 * restyles documents issued afterwards, never one already sent. Documents issued before this migration have none
 * and keep following the current template.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('documents').addColumn('template_snapshot', 'text').execute();
}
