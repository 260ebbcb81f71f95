/**
 * Print (the editor's 'Enregistrer & imprimer', and the PDF): A4 with no printer margin (the template's margins
 * are inside each page), one page per sheet at scale 1, and nothing of the app around the pages.
 */
export const PRINT_CSS = `
@page { size: A4; margin: 0; }
@media print {
  html, body { background: white !important; margin: 0 !important; padding: 0 !important; }
  body *:not(:has([data-document-pages])):not([data-document-pages]):not([data-document-pages] *) { display: none !important; }
  body *:has([data-document-pages]) { display: block !important; position: static !important; margin: 0 !important; padding: 0 !important; border: 0 !important; box-shadow: none !important; background: none !important; width: auto !important; max-width: none !important; min-height: 0 !important; height: auto !important; overflow: visible !important; transform: none !important; }
  [data-document-pages] { display: block !important; width: 210mm !important; margin: 0 !important; gap: 0 !important; }
  [data-document-pages] [data-page-box] { width: 210mm !important; height: 297mm !important; box-shadow: none !important; overflow: hidden !important; break-after: page; page-break-after: always; }
  [data-document-pages] [data-page-box]:last-child { break-after: auto; page-break-after: auto; }
  [data-document-pages] [data-page-scale] { transform: none !important; }
  [data-document-measure] { display: none !important; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;
