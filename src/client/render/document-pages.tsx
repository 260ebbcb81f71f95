import type { AppSettings } from '../../shared/schemas/settings';
import type { DocumentTemplate } from '../../shared/schemas/template';
import type { RenderDocument } from './types';

export interface DocumentPagesProps {
  doc: RenderDocument;
  template: DocumentTemplate;
  settings: AppSettings;
  /** Display scale of the pages (1 = A4 at 96 dpi); print and PDF always use 1. */
  scale?: number;
  onPaginated?: (pages: number) => void;
}

/** The one renderer: A4 pages from a document and the template settings (work in progress: first draft). */
export function DocumentPages({ doc, scale = 1 }: DocumentPagesProps) {
  return (
    <article aria-label="Aperçu du document" style={{ width: 794 * scale }}>
      <div style={{ width: 794, minHeight: 1123, background: 'white', transform: `scale(${scale})`, transformOrigin: 'top left' }}>
        {doc.number ?? 'Brouillon (numéroté à l’émission)'}
      </div>
    </article>
  );
}
