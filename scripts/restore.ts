// `npm run restore -- DOSSIER [--force]`: puts a backup made by `npm run backup` back into DATABASE_URL and its files
// back into DATA_DIR. Stop the server first. SQLite: the current database is moved aside, never deleted.
// PostgreSQL: into an empty database (createdb); --force replaces what a non-empty one holds.
import { loadEnv } from '../src/server/env';
import { restoreDatabase } from '../src/server/db/backup';
import { restorePostgres } from '../src/server/db/backup-postgres';

const env = loadEnv();
const args = process.argv.slice(2);
const force = args.includes('--force');
const backup = args.find((a) => a !== '--force');
if (!backup) {
  console.error('Indiquez la sauvegarde : npm run restore -- data/backups/facturier-AAAAMMJJ-HHMMSS');
  process.exit(1);
}
const where = env.databaseKind === 'postgres' ? new URL(env.databasePath).pathname.slice(1) : env.databasePath;
try {
  const result =
    env.databaseKind === 'postgres'
      ? { ...(await restorePostgres({ backup, databaseUrl: env.databasePath, dataDir: env.dataDir, force })), movedAside: null }
      : restoreDatabase({ backup, databasePath: env.databasePath, dataDir: env.dataDir });
  console.log(`✓ Sauvegarde restaurée dans ${where} (${result.files} fichier(s) de données remis)`);
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
