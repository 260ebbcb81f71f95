import { type Db, openDatabase } from '../../src/server/db/connection';
import { testDatabaseUrl } from './postgres';

/** True on the PostgreSQL run of the integration suite (TEST_DATABASE_URL); for the few tests of SQLite itself. */
export const onPostgres = testDatabaseUrl() !== undefined;

/**
 * Runs `use` on a test server's database through a connection of its own, whatever the backend: the server's SQLite
 * file or its PostgreSQL database (helpers/server.ts gives each test server one). It is the hand of someone with
 * access to the database, beside the app: what it writes bypasses the app's rules (that is what tamper tests need),
 * and the app sees it as it would see another process's write. The connection is closed when `use` settles.
 */
export async function withServerDb<T>(server: { databaseUrl: string }, use: (db: Db) => Promise<T>): Promise<T> {
  const target = server.databaseUrl.startsWith('file:') ? server.databaseUrl.slice('file:'.length) : server.databaseUrl;
  const connection = openDatabase(target);
  try {
    return await use(connection.db);
  } finally {
    await connection.close();
  }
}
