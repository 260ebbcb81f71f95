// `npm run bench`: prints figures with their data sizes; asserts nothing about time.
// `npm run bench -- api` runs one of them; `-- scale --pg postgres://…` (or BENCH_DATABASE_URL) adds PostgreSQL to the
// scale and reports benches (scale --pg then measures 1, 2 and 4 processes); `-- processes --pg postgres://…` runs that
// part alone (scripts/bench/postgres.ts, processes.ts).
import { benchApi } from './api';
import { benchBackup } from './backup';
import { benchBank } from './bank';
import { benchBundle } from './bundle';
import { benchDocuments } from './documents';
import { benchEinvoice } from './einvoice';
import { benchEinvoiceMatrix } from './einvoice-matrix';
import { benchHeavy } from './heavy';
import { benchRender } from './render';
import { benchTotals } from './totals';
import { benchReports } from './reports';
import { benchProcesses, benchScale } from './scale';

const benches: Record<string, () => Promise<void>> = {
  totals: benchTotals,
  api: benchApi,
  documents: benchDocuments,
  render: benchRender,
  // The validators' own cost on the official samples, then the product's whole e-invoice matrix.
  einvoice: async () => {
    await benchEinvoice();
    await benchEinvoiceMatrix();
  },
  heavy: benchHeavy,
  bank: benchBank,
  backup: benchBackup,
  reports: benchReports,
  bundle: benchBundle,
  scale: benchScale,
  processes: benchProcesses,
};

// The bench's name, if any, comes before the options (`--pg URL`).
const only = process.argv[2]?.startsWith('--') ? undefined : process.argv[2];
if (only && !benches[only]) {
  console.error(`Banc inconnu : ${only}. Disponibles : ${Object.keys(benches).join(', ')}`);
  process.exit(1);
}
for (const [name, bench] of Object.entries(benches)) {
  // Several processes are measured on PostgreSQL only, and `scale --pg` measures them already: the full run leaves
  // them out.
  if (!only && name === 'processes') continue;
  if (!only || only === name) await bench();
}
