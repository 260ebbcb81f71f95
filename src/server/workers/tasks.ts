import { toFacturX } from '../einvoice/facturx';
import { validateEinvoice } from '../einvoice/validate';
import { readSupplierFile } from '../services/supplier-file';

/**
 * The work that runs in the worker threads: CPU-heavy and self-contained (arguments and answers cross threads by
 * structured clone, so plain data and byte arrays only, no database).
 */
export const tasks = { validateEinvoice, readSupplierFile, toFacturX };

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;

/** How each task is named to the user when it goes over its budget. */
export const taskLabels: Record<TaskName, string> = {
  validateEinvoice: 'La validation de la facture électronique',
  readSupplierFile: 'La lecture de la facture fournisseur',
  toFacturX: 'La production du PDF Factur-X',
};
