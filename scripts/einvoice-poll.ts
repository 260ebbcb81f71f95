/**
 * `npm run einvoice:poll`: reads the approved platform's lifecycle statuses of every transmitted invoice and records
 * the new ones (issue 13 §6), as the scheduler will. Same environment as the server (DATA_DIR, DATABASE_URL).
 */
import path from 'node:path';
import { loadEnv } from '../src/server/env';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { FolderPlatform } from '../src/server/einvoice/folder-platform';
import { pollAllPlatforms } from '../src/server/services/einvoice-send';

const env = loadEnv(process.env);
const connection = openDatabase(env.databasePath);
try {
  await migrateToLatest(connection.db);
  const report = await pollAllPlatforms(connection.db, new FolderPlatform(path.join(env.dataDir, 'platform')));
  console.log(`Statuts relevés : ${report.recorded} ; refusés (transition impossible) : ${report.refused}`);
} finally {
  await connection.close();
}
