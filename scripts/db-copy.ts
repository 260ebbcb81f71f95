// `npm run db:copy -- --from file:./data/facturier.db --to postgres://…`: moves a deployment from SQLite to an empty
// PostgreSQL database, then verifies row counts and every audit log (src/server/database-copy.ts). The data folder (kept PDFs, receipts)
// stays where it is: point DATA_DIR of the PostgreSQL deployment at it. Exit code 1 when the copy failed or did not verify.
import path from 'node:path';
import { openDatabase } from '../src/server/db/connection';
import { CopyError, copyDatabase } from '../src/server/database-copy';
import { isPostgresUrl } from '../src/server/db/dialect';

const usage = 'Usage : npm run db:copy -- --from file:CHEMIN.db --to postgres://UTILISATEUR@HÔTE/BASE [--data-dir DOSSIER]';
const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const from = argument('--from');
const to = argument('--to');
if (!from?.startsWith('file:') || !to || !isPostgresUrl(to)) {
  console.error(usage);
  process.exit(2);
}
const file = path.resolve(from.slice('file:'.length));
const dataDir = path.resolve(argument('--data-dir') ?? process.env.DATA_DIR ?? path.dirname(file));
const source = openDatabase(file);
const target = openDatabase(to);
try {
  const report = await copyDatabase(source, target, dataDir);
  const rows = Object.values(report.tables).reduce((a, b) => a + b, 0);
  console.log(`✓ Copie vérifiée en ${(report.ms / 1000).toFixed(1)} s : ${rows} lignes, ${Object.keys(report.tables).length} tables`);
  console.log(`  ${report.auditLogs} journal(aux) d’audit intègre(s) dans la cible`);
  for (const [table, n] of Object.entries(report.tables)) if (n > 0) console.log(`  ${table} : ${n}`);
} catch (error) {
  console.error(`✗ Copie impossible : ${error instanceof CopyError || error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await source.close();
  await target.close();
}
