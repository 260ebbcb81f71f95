// `npm run restore -- DOSSIER`: puts a backup made by `npm run backup` back in place of DATABASE_URL (the current
// database is moved aside, never deleted) and its files back into DATA_DIR. Stop the server first.
import { loadEnv } from '../src/server/env';
import { restoreDatabase } from '../src/server/db/backup';

const env = loadEnv();
const backup = process.argv[2];
if (!backup) {
  console.error('Indiquez la sauvegarde : npm run restore -- data/backups/facturier-AAAAMMJJ-HHMMSS');
  process.exit(1);
}
try {
  const result = restoreDatabase({ backup, databasePath: env.databasePath, dataDir: env.dataDir });
  console.log(`✓ Sauvegarde restaurée dans ${env.databasePath} (${result.files} fichier(s) de données remis)`);
  if (result.movedAside) console.log(`  l’ancienne base est gardée sous ${result.movedAside}`);
  console.log(
    `  lignes : ${Object.entries(result.counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );
} catch (error) {
  console.error(`✗ Restauration refusée : ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
