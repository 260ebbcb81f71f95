/**
 * Print (the editor's 'Enregistrer & imprimer', and the PDF): A4 with no printer margin (the template's margins
 * are inside each page), one page per sheet at scale 1, and nothing of the app around the pages.
 *
 * What stays is found by attribute, not by `:has()`: the pages' ancestors carry `data-print-path` (markPrintPath), so
 * hiding the rest is one cheap selector per element. `body *:not(:has([data-document-pages]))` made Chromium search
 * every element's subtree at each style pass of printing: half the print time of a 500-line PDF.
 */
export const PRINT_CSS = `
@page { size: A4; margin: 0; }
@media print {
  html, body { background: white !important; margin: 0 !important; padding: 0 !important; }
  body > *:not([data-print-path]), [data-print-path] > *:not([data-print-path]):not([data-document-pages]) { display: none !important; }
  [data-print-path] { display: block !important; position: static !important; margin: 0 !important; padding: 0 !important; border: 0 !important; box-shadow: none !important; background: none !important; width: auto !important; max-width: none !important; min-height: 0 !important; height: auto !important; overflow: visible !important; transform: none !important; }
  [data-document-pages] { display: block !important; width: 210mm !important; margin: 0 !important; gap: 0 !important; }
  [data-document-pages] [data-page-box] { width: 210mm !important; height: 297mm !important; box-shadow: none !important; overflow: hidden !important; break-after: page; page-break-after: always; }
  [data-document-pages] [data-page-box]:last-child { break-after: auto; page-break-after: auto; }
  [data-document-pages] [data-page-scale] { transform: none !important; }
  [data-document-measure] { display: none !important; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;

const PATH = 'data-print-path';

/**
 * Marks the elements between `body` and the pages as the print path (PRINT_CSS keeps them and hides their other
 * children); returns the unmarking. Counted, so that two renderers on one screen share ancestors safely.
 */
export function markPrintPath(pages: HTMLElement): () => void {
  const path: HTMLElement[] = [];
  for (let el = pages.parentElement; el && el !== document.body && el !== document.documentElement; el = el.parentElement) path.push(el);
  for (const el of path) el.setAttribute(PATH, String(Number(el.getAttribute(PATH) ?? 0) + 1));
  return () => {
    for (const el of path) {
      const left = Number(el.getAttribute(PATH) ?? 1) - 1;
      if (left > 0) el.setAttribute(PATH, String(left));
      else el.removeAttribute(PATH);
    }
  };
}
