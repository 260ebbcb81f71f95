// `npm run backup [-- DOSSIER]`: a verified copy of DATABASE_URL and of DATA_DIR's files (kept PDFs, receipts,
// logos), safe while the server runs, in DOSSIER (default DATA_DIR/backups). SQLite: VACUUM INTO a file;
// PostgreSQL: pg_dump --format=custom of one snapshot. Exit code 1 when it could not be made.
import path from 'node:path';
import { loadEnv } from '../src/server/env';
import { backupDatabase } from '../src/server/db/backup';
import { backupPostgres } from '../src/server/db/backup-postgres';

const env = loadEnv();
const backupsDir = path.resolve(process.argv[2] ?? path.join(env.dataDir, 'backups'));
try {
  const report =
    env.databaseKind === 'postgres'
      ? await backupPostgres({ databaseUrl: env.databasePath, dataDir: env.dataDir, backupsDir })
      : backupDatabase({ databasePath: env.databasePath, dataDir: env.dataDir, backupsDir });
  const counts = Object.entries(report.counts)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ');
  const check = env.databaseKind === 'postgres' ? 'pg_restore --list ok' : 'intégrité ok';
  console.log(`✓ Sauvegarde vérifiée : ${report.folder}`);
  console.log(
    `  base ${(report.bytes / 1024 / 1024).toFixed(1)} Mo, ${check}, en ${(report.ms / 1000).toFixed(1)} s ; ${report.files} fichier(s) de données`,
  );
  console.log(`  lignes : ${counts}`);
} catch (error) {
  console.error(`✗ Sauvegarde impossible : ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
