import type { Db } from '../connection';
import type { MigrationDb } from './helpers';
import { appendAudit, appendIssue } from '../../services/audit';
import { archiveContent, documentOf } from '../../services/pdf-archive';
import { fromStoredUnits } from '../../../shared/money';

/**
 * Documents issued before the log existed (0010) have no issue entry, and PDFs kept before archives were logged
 * (0013) no archive entry: one of each is appended now, in issue order, marked `backfilled`, so verify covers them.
 * A migration rather than a startup step because it must run once: after it, every issue and archive writes its
 * entry in the same transaction, so an entry missing later is tampering, and a repair at each start would cover it.
 * The entries are built by the log's own code (today's legal content and hashes), which verify recomputes. Skipping
 * what already has an entry makes a rerun after a crash harmless.
 */
export async function up(db: MigrationDb): Promise<void> {
  // On PostgreSQL the migrator already runs each migration in a transaction (DDL is transactional there).
  const inTransaction = (work: (trx: Db) => Promise<void>) =>
    db.isTransaction ? work(db as unknown as Db) : (db as unknown as Db).transaction().execute(work);
  await inTransaction(async (trx) => {
    const logged = await trx
      .selectFrom('audit_log')
      .select(['organization_id', 'event', 'content'])
      .where('event', 'in', ['issue', 'archive'])
      .execute();
    const has = new Set(logged.map((row) => `${row.event}:${row.organization_id}:${documentIdOf(row.content)}`));
    const issued = await trx
      .selectFrom('documents')
      .select(['id', 'organization_id', 'type', 'number', 'currency', 'total', 'pdf_path', 'pdf_sha256', 'pdf_size'])
      .where('status', '!=', 'draft')
      .where('number', 'is not', null)
      .orderBy('issued_at')
      .orderBy('id')
      .execute();
    for (const doc of issued)
      if (!has.has(`issue:${doc.organization_id}:${doc.id}`))
        await appendIssue(trx, doc.organization_id, doc.id, undefined, { backfilled: true });
    for (const doc of issued) {
      if (has.has(`archive:${doc.organization_id}:${doc.id}`) || !doc.pdf_path || !doc.pdf_sha256 || doc.pdf_size === null) continue;
      const archive = { pdf_path: doc.pdf_path, pdf_sha256: doc.pdf_sha256, pdf_size: doc.pdf_size };
      await appendAudit(trx, doc.organization_id, 'archive', {
        document: documentOf({ ...doc, totals: { total: fromStoredUnits(doc.total) } }),
        pdf: archiveContent(archive),
        backfilled: true,
      });
    }
  });
}

function documentIdOf(content: string): number | undefined {
  try {
    const id = (JSON.parse(content) as { document?: { id?: unknown } }).document?.id;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
