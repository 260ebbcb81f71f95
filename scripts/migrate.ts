// `npm run migrate`: applies pending migrations to DATABASE_URL without starting the server.
import { loadEnv } from '../src/server/env';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/migrate';

const env = loadEnv();
const connection = openDatabase(env.databasePath);
try {
  const applied = await migrateToLatest(connection.db);
  console.log(applied.length ? `Migrations appliquées : ${applied.join(', ')}` : 'Base déjà à jour.');
} finally {
  await connection.close();
}
