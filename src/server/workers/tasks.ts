import { toFacturX } from '../einvoice/facturx';
import { validateEinvoice } from '../einvoice/validate';
import { readStatement } from '../bank/read-statement';
import { fecBook } from '../services/fec-book';
import { readSupplierFile } from '../services/supplier-file';

/**
 * The work that runs in the worker threads: CPU-heavy and self-contained (arguments and answers cross threads by
 * structured clone, so plain data and byte arrays only, no database).
 */
export const tasks = { validateEinvoice, readSupplierFile, toFacturX, fecBook, readStatement };

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
