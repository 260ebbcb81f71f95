import type { StoredDocument } from '../../shared/schemas/document-model';
import type { Db } from '../db/connection';
import { findDocument } from '../db/queries/documents';
import { logger } from '../logger';
import { archivedPdf, isArchived } from './pdf-archive';

/**
 * The PDF of an invoice or credit note is rendered and kept as soon as it is issued. It runs after the
 * issuing transaction has committed and beside the answer, never inside either: printing takes Chromium a second or
 * more, which no transaction is held open for and no user waits on. A download meanwhile waits on the same
 * per-document lock and serves the same bytes; a rendering that fails is logged, and the first download keeps it.
 *
 * At shutdown the printing is abandoned rather than awaited: Chromium prints pages of this very server, which stops
 * serving at once. Nothing is written before the PDF is printed (then beside its name, renamed as the row records
 * it), so an abandoned print leaves no file and no row: the first download prints and keeps it as usual.
 */
export class IssueArchiver {
  // This process's renderings in flight, awaited at its shutdown: nothing another process needs to see.
  private readonly running = new Set<Promise<void>>();
  private abandoned = false;
  /** Rejects at abandon(): a print in flight ends then, not once Chromium has closed (seconds on a busy machine). */
  private readonly whenAbandoned: Promise<never>;
  private rejectAbandoned: (error: Error) => void = () => {};

  /** `render` undefined: nothing is kept at issue (tests that do not exercise it; the first download then keeps it). */
  constructor(private readonly deps: { db: Db; dataDir: string; render?: (doc: StoredDocument) => Promise<Buffer> }) {
    this.whenAbandoned = new Promise<never>((_, reject) => {
      this.rejectAbandoned = reject;
    });
    this.whenAbandoned.catch(() => {}); // awaited only through the prints that race it
  }

  /** Starts keeping the PDF of a document just issued; returns at once. */
  afterIssue(organizationId: number, documentId: number, userId?: number): void {
    const { render } = this.deps;
    if (!render || this.abandoned) return;
    const job = this.keep(organizationId, documentId, render, userId).finally(() => this.running.delete(job));
    this.running.add(job);
  }

  private async keep(organizationId: number, documentId: number, render: (doc: StoredDocument) => Promise<Buffer>, userId?: number) {
    try {
      const doc = await findDocument(this.deps.db, { organizationId, id: documentId });
      if (!doc || !isArchived(doc)) return;
      // One waiting on the document's lock when the stop begins does not start printing.
      const print = () => (this.abandoned ? Promise.reject(new Error(ABANDONED)) : Promise.race([render(doc), this.whenAbandoned]));
      await archivedPdf(this.deps.db, this.deps.dataDir, doc, print, userId);
    } catch (error) {
      if (this.abandoned) logger.info({ message: `PDF not kept at issue: ${ABANDONED}`, document: documentId });
      else logger.error(`PDF not kept at issue (the first download will keep it): document ${documentId}`, error);
    }
  }

  /** The server is stopping: no PDF starts printing any more, and those printing fail now, their pages left to Chromium's close. */
  abandon(): void {
    this.abandoned = true;
    this.rejectAbandoned(new Error(ABANDONED));
  }

  /** How many PDFs are being kept now. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Resolves once every PDF being kept is written or has failed. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}

const ABANDONED = 'the server is stopping, its first download will print it';
