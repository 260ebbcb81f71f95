import type { TaskName } from './tasks';

// Apart from tasks.ts: the server's thread needs these words, not the libraries the tasks load (the XSLT engine, the
// PDF toolkit), which then stay in the worker threads.
/** How each task is named to the user when it goes over its budget. */
export const taskLabels: Record<TaskName, string> = {
  validateEinvoice: 'La validation de la facture électronique',
  readSupplierFile: 'La lecture de la facture fournisseur',
  toFacturX: 'La production du PDF Factur-X',
  fecBook: 'La production du FEC',
  readStatement: 'La lecture du relevé bancaire',
};
