// `npm run backup [-- DOSSIER]`: a verified copy of DATABASE_URL and of DATA_DIR's files (kept PDFs, receipts,
// logos), safe while the server runs, in DOSSIER (default DATA_DIR/backups). Exit code 1 when it could not be made.
import path from 'node:path';
import { loadEnv } from '../src/server/env';
import { backupDatabase } from '../src/server/db/backup';

const env = loadEnv();
const backupsDir = path.resolve(process.argv[2] ?? path.join(env.dataDir, 'backups'));
try {
  const report = backupDatabase({ databasePath: env.databasePath, dataDir: env.dataDir, backupsDir });
  const counts = Object.entries(report.counts)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ');
  console.log(`✓ Sauvegarde vérifiée : ${report.folder}`);
  console.log(
    `  base ${(report.bytes / 1024 / 1024).toFixed(1)} Mo, intégrité ok, en ${(report.ms / 1000).toFixed(1)} s ; ${report.files} fichier(s) de données`,
  );
  console.log(`  lignes : ${counts}`);
} catch (error) {
  console.error(`✗ Sauvegarde impossible : ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
