import type { StoredDocument } from '../../shared/schemas/document-model';
import type { Db } from '../db/connection';
import { findDocument } from '../db/queries/documents';
import { logger } from '../logger';
import { archivedPdf, isArchived } from './pdf-archive';

/**
 * Issue 12 §1: the PDF of an invoice or credit note is rendered and kept as soon as it is issued. It runs after the
 * issuing transaction has committed and beside the answer, never inside either: printing takes Chromium a second or
 * more, which no transaction is held open for and no user waits on. A download meanwhile waits on the same
 * per-document lock and serves the same bytes; a rendering that fails is logged, and the first download keeps it.
 */
export class IssueArchiver {
  // This process's renderings in flight, awaited at its shutdown: nothing another process needs to see.
  private readonly running = new Set<Promise<void>>();

  /** `render` undefined: nothing is kept at issue (tests that do not exercise it; the first download then keeps it). */
  constructor(private readonly deps: { db: Db; dataDir: string; render?: (doc: StoredDocument) => Promise<Buffer> }) {}

  /** Starts keeping the PDF of a document just issued; returns at once. */
  afterIssue(organizationId: number, documentId: number, userId?: number): void {
    const { render } = this.deps;
    if (!render) return;
    const job = this.keep(organizationId, documentId, render, userId).finally(() => this.running.delete(job));
    this.running.add(job);
  }

  private async keep(organizationId: number, documentId: number, render: (doc: StoredDocument) => Promise<Buffer>, userId?: number) {
    try {
      const doc = await findDocument(this.deps.db, { organizationId, id: documentId });
      if (!doc || !isArchived(doc)) return;
      await archivedPdf(this.deps.db, this.deps.dataDir, doc, () => render(doc), userId);
    } catch (error) {
      logger.error(`PDF not kept at issue (the first download will keep it): document ${documentId}`, error);
    }
  }

  /** Resolves once every PDF being kept is written or has failed: before the server stops serving the pages they print. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
