// `npm run summaries:rebuild [-- <organisation id>]`: writes the documents' summaries (migration 0066) and the VAT
// ledger (migration 0069) again from the documents and expenses, for every organisation or one. The triggers keep them
// write by write; this repairs them after a change made with the triggers off, and is what the property tests compare
// the triggers' rows with.
import { loadEnv } from '../src/server/env';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/migrate';
import { rebuildSummaries } from '../src/server/db/queries/summaries';
import { rebuildVatLedger } from '../src/server/services/vat-ledger';

const argument = process.argv[2];
const organizationId = argument === undefined ? undefined : Number(argument);
if (organizationId !== undefined && !(Number.isInteger(organizationId) && organizationId > 0)) {
  console.error(`Numéro d’organisation invalide : ${argument}`);
  process.exit(1);
}
const env = loadEnv();
const connection = openDatabase(env.databasePath);
try {
  await migrateToLatest(connection.db);
  const started = performance.now();
  await rebuildSummaries(connection.db, { organizationId });
  const who = organizationId === undefined ? 'toutes les organisations' : `l’organisation n° ${organizationId}`;
  console.log(`Synthèses reconstruites pour ${who} en ${Math.round(performance.now() - started)} ms.`);
  const ledgerStarted = performance.now();
  const organizations =
    organizationId === undefined
      ? (await connection.db.selectFrom('organizations').select('id').orderBy('id').execute()).map((o) => o.id)
      : [organizationId];
  for (const id of organizations) await rebuildVatLedger(connection.db, id);
  console.log(`Registre de TVA reconstruit pour ${who} en ${Math.round(performance.now() - ledgerStarted)} ms.`);
} finally {
  await connection.close();
}
