import { AppError } from '../errors';
import type { PdfRenderer } from './pdf-renderer';

export const CHROMIUM_MISSING =
  'Le PDF ne peut être produit : Chromium est introuvable sur le serveur. Installez-le (Debian : apt-get install -y chromium) ou indiquez son chemin dans CHROMIUM_PATH.';

export interface PdfDeps {
  pdf: PdfRenderer;
  /** This server's own address, where Chromium opens the pages it prints. */
  ownOrigin: () => string;
}

/** A document's PDF: its public page on this very server, printed by Chromium. One rendering for downloads and archives. */
export async function renderDocumentPdf(deps: PdfDeps, uuid: string): Promise<Buffer> {
  if (!deps.pdf.available) throw new AppError('SERVICE_UNAVAILABLE', CHROMIUM_MISSING);
  const origin = deps.ownOrigin();
  return deps.pdf.render(`${origin}/share/${uuid}?print=1`, origin);
}
