// `npm run summaries:rebuild [-- <organisation id>]`: writes the documents' summaries (migration 0066) again from the
// documents, for every organisation or one. The triggers keep them write by write; this repairs them after a change
// made with the triggers off, and is what the property test compares the triggers' rows with.
import { loadEnv } from '../src/server/env';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/migrate';
import { rebuildSummaries } from '../src/server/db/queries/summaries';

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
} finally {
  await connection.close();
}
