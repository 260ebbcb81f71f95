import { lazyDialog } from './lazy-dialog';

/** The CSV import dialog of the customers and items lists, in its own chunk (components/lazy-dialog.tsx). */
export const csvImport = lazyDialog(
  () => import('./csv-import-dialog'),
  (m) => m.CsvImportDialog,
);
