// `npm run audit:verify`: for an operator, verifies the hash-chained log of every organisation of DATABASE_URL
// (hashes, links, issued documents, kept PDFs under DATA_DIR) and prints a French report; exit code 1 when a log is broken.
import { loadEnv } from '../src/server/env';
import { openDatabase } from '../src/server/db/connection';
import { listLoggedOrganizations } from '../src/server/db/queries/audit';
import { verifyAudit } from '../src/server/services/audit';

const env = loadEnv();
const connection = openDatabase(env.databasePath);
let broken = 0;
try {
  const organizations = await listLoggedOrganizations(connection.db);
  for (const organization of organizations) {
    const result = await verifyAudit(connection.db, organization.id, env.dataDir);
    const name = `${organization.name} (n° ${organization.id})`;
    if (result.ok)
      console.log(
        `✓ ${name} : journal intègre, ${result.entries} entrée${result.entries > 1 ? 's' : ''} vérifiée${result.entries > 1 ? 's' : ''}`,
      );
    else {
      broken += 1;
      console.log(`✗ ${name} : journal altéré à partir de l’entrée n° ${result.first_broken} (sur ${result.entries})`);
    }
  }
  console.log(
    organizations.length === 0
      ? 'Aucun journal à vérifier.'
      : broken === 0
        ? `Tous les journaux sont intègres (${organizations.length} organisation${organizations.length > 1 ? 's' : ''}).`
        : `${broken} ${broken > 1 ? 'journaux altérés' : 'journal altéré'} sur ${organizations.length}.`,
  );
} finally {
  await connection.close();
}
process.exitCode = broken > 0 ? 1 : 0;
