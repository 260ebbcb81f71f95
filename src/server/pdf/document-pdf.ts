import type { StoredDocument } from '../../shared/schemas/document-model';
import { AppError } from '../errors';
import { logger } from '../logger';
import { metrics, secondsSince } from '../metrics';
import { runHeavy } from '../workers/heavy-work';
import type { PdfRenderer } from './pdf-renderer';

export const CHROMIUM_MISSING =
  'Le PDF ne peut être produit : Chromium est introuvable sur le serveur. Installez-le (Debian : apt-get install -y chromium) ou indiquez son chemin dans CHROMIUM_PATH.';
export const FACTURX_FAILED =
  'La facture électronique (Factur-X) de ce document n’a pas pu être produite : son PDF n’est pas encore conservé. Réessayez dans un instant ; si l’erreur persiste, contactez l’administrateur du serveur.';

/** The EN 16931 CII of an issued invoice or credit note; throws when it cannot give a valid one. */
export type EinvoiceXmlProvider = (organizationId: number, documentId: number) => Promise<string>;

export interface PdfDeps {
  pdf: PdfRenderer;
  /** This server's own address, where Chromium opens the pages it prints. */
  ownOrigin: () => string;
  /** Set: the kept PDF of an invoice or credit note is a Factur-X carrying this XML. Unset: the printed PDF is kept. */
  einvoiceXml?: EinvoiceXmlProvider;
}

/**
 * A document's PDF: its public page on this very server, printed by Chromium (which opens it with `?print=<key>`).
 * One rendering for downloads and archives.
 */
export async function renderDocumentPdf(deps: PdfDeps, doc: Pick<StoredDocument, 'uuid' | 'organization_id'>): Promise<Buffer> {
  if (!deps.pdf.available) throw new AppError('SERVICE_UNAVAILABLE', CHROMIUM_MISSING);
  const origin = deps.ownOrigin();
  const started = performance.now();
  try {
    // Organisations take turns for Chromium's pages (pdf-renderer.ts FairQueue).
    const pdf = await deps.pdf.render(`${origin}/share/${doc.uuid}`, origin, String(doc.organization_id));
    metrics.pdfs.observe({ outcome: 'ok' }, secondsSince(started));
    return pdf;
  } catch (error) {
    metrics.pdfs.observe({ outcome: 'error' }, secondsSince(started));
    throw error;
  }
}

/**
 * The PDF to keep for an issued invoice or credit note (pdf-archive.ts): printed, then made Factur-X with the CII
 * the provider gives. When the XML or the embedding fails, nothing is returned to keep: a plain PDF kept then would
 * stay the frozen record for ever, so the failure is logged and answered, and the next download tries again.
 */
export async function renderKeptPdf(deps: PdfDeps, doc: StoredDocument): Promise<Buffer> {
  const printed = await renderDocumentPdf(deps, doc);
  if (!deps.einvoiceXml) return printed;
  try {
    const xml = await deps.einvoiceXml(doc.organization_id, doc.id);
    // pdf-lib rewrites the whole file (tens of ms to seconds): in a worker thread.
    const facturX = await runHeavy('toFacturX', [
      printed,
      xml,
      {
        type: doc.type === 'credit' ? 'credit' : 'invoice',
        number: doc.number ?? '',
        seller: doc.seller?.name ?? '',
        // Issued documents carry their issue instant; the date alone is the fallback for rows issued before it existed.
        issuedAt: new Date(doc.issued_at ?? `${doc.date}T00:00:00Z`),
        date: doc.date,
        lang: 'fr',
      },
    ]);
    return Buffer.from(facturX);
  } catch (error) {
    logger.error(`Factur-X not produced, PDF not kept: document ${doc.id}`, error);
    // A provider's own French message (e.g. the EN 16931 rules a document breaks) says more than ours.
    if (error instanceof AppError) throw error;
    throw new AppError('INTERNAL_SERVER_ERROR', FACTURX_FAILED);
  }
}
