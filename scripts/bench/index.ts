// `npm run bench`: prints figures with their data sizes; asserts nothing about time.
// `npm run bench -- api` runs one of them.
import { benchApi } from './api';
import { benchBackup } from './backup';
import { benchBundle } from './bundle';
import { benchDocuments } from './documents';
import { benchEinvoice } from './einvoice';
import { benchRender } from './render';
import { benchTotals } from './totals';
import { benchReports } from './reports';
import { benchScale } from './scale';

const benches: Record<string, () => Promise<void>> = {
  totals: benchTotals,
  api: benchApi,
  documents: benchDocuments,
  render: benchRender,
  einvoice: benchEinvoice,
  backup: benchBackup,
  reports: benchReports,
  bundle: benchBundle,
  scale: benchScale,
};

const only = process.argv[2];
if (only && !benches[only]) {
  console.error(`Banc inconnu : ${only}. Disponibles : ${Object.keys(benches).join(', ')}`);
  process.exit(1);
}
for (const [name, bench] of Object.entries(benches)) {
  if (!only || only === name) await bench();
}
