// `npm run audit:verify`: for an operator, verifies the log of every organisation of DATABASE_URL (keyed hashes,
// links, issued documents, kept PDFs under DATA_DIR, the signed closings and that every issued document and payment
// has its entry) and prints a French report; exit code 1 when a log is broken.
// `npm run audit:verify -- --closing cloture.json`: also checks the database against a closing exported earlier and
// kept apart: its signature, and that the chain still holds the entry it sealed (nothing cut after it).
import fs from 'node:fs';
import { loadEnv } from '../src/server/env';
import { openDatabase } from '../src/server/db/connection';
import { listLoggedOrganizations } from '../src/server/db/queries/audit';
import { verifyAudit } from '../src/server/services/audit';
import { resolveAuditKey, setAuditKey } from '../src/server/services/audit-key';
import { checkAgainstClosing } from '../src/server/services/audit-export-check';

const args = process.argv.slice(2);
const closingAt = args.indexOf('--closing');
const closingFile = closingAt >= 0 ? args[closingAt + 1] : undefined;
if (closingAt >= 0 && !closingFile) {
  console.error('Usage : npm run audit:verify -- --closing <fichier de clôture .json>');
  process.exit(2);
}

const env = loadEnv();
setAuditKey(resolveAuditKey(env));
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
      const where = result.first_broken === undefined ? '' : ` à partir de l’entrée n° ${result.first_broken} (sur ${result.entries})`;
      console.log(`✗ ${name} : journal altéré${where}${result.reason ? ` — ${result.reason}` : ''}`);
    }
  }
  console.log(
    organizations.length === 0
      ? 'Aucun journal à vérifier.'
      : broken === 0
        ? `Tous les journaux sont intègres (${organizations.length} organisation${organizations.length > 1 ? 's' : ''}).`
        : `${broken} ${broken > 1 ? 'journaux altérés' : 'journal altéré'} sur ${organizations.length}.`,
  );
  if (closingFile) {
    let text: string;
    try {
      text = fs.readFileSync(closingFile, 'utf8');
    } catch {
      text = '';
      console.log(`✗ Clôture ${closingFile} : fichier illisible`);
      broken += 1;
    }
    if (text) {
      const check = await checkAgainstClosing(connection.db, text);
      if (check.ok) console.log(`✓ Clôture ${closingFile} : ${check.message}`);
      else {
        broken += 1;
        console.log(`✗ Clôture ${closingFile} : ${check.message}`);
      }
    }
  }
} finally {
  await connection.close();
}
process.exitCode = broken > 0 ? 1 : 0;
