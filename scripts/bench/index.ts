// `npm run bench`: prints figures with their data sizes; asserts nothing about time.
import { benchApi } from './api';

const only = process.argv[2];
const benches: Record<string, () => Promise<void>> = {
  api: benchApi,
};
try {
  const { benchTotals } = await import('./totals');
  benches.totals = benchTotals;
} catch {
  // the shared-core bench lands with its module
}

for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  await bench();
}
