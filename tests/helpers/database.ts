import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { type Connection, type Db, openDatabase } from '../../src/server/db/connection';
import { createEmptyTestDatabase, dropTestDatabase, testDatabaseUrl } from './postgres';
import './audit-key'; // migrations sign legacy seals with the process's audit key

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

/**
 * An empty database of the run's backend, no migration applied, for the tests of a migration on older data: a SQLite
 * file in a temporary folder, or a new PostgreSQL database on the PostgreSQL run. `remove` closes and deletes it.
 */
export function openEmptyTestDatabase(): { connection: Connection; dir: string; remove(): Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-migrate-'));
  const base = testDatabaseUrl();
  const target = base ? createEmptyTestDatabase(base) : path.join(dir, 'db.sqlite');
  const connection = openDatabase(target);
  return {
    connection,
    dir,
    async remove() {
      await connection.close();
      fs.rmSync(dir, { recursive: true, force: true });
      if (base) dropTestDatabase(target);
    },
  };
}

/**
 * `count` copies of a stored document, numbered `<number>-1`… apart, in one statement: an organisation at scale in a
 * second (tens of thousands through the API would take minutes). Only the documents row: no lines, no index entry.
 */
export async function copyDocument(server: { databaseUrl: string }, documentId: number, count: number): Promise<void> {
  await withServerDb(server, (db) => copyDocumentIn(db, documentId, count));
}

/** copyDocument on an open database (a migration's test). */
export async function copyDocumentIn(db: Db | Kysely<never>, documentId: number, count: number): Promise<void> {
  const columns = (await db.introspection.getTables()).find((t) => t.name === 'documents')?.columns.map((c) => c.name) ?? [];
  const copied = columns.filter((c) => c !== 'id');
  const apart = new Set(['number', 'uuid']); // unique per document
  const picked = copied.map((c) => (apart.has(c) ? sql`${sql.ref(`d.${c}`)} || '-' || n.i` : sql.ref(`d.${c}`)));
  await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
    insert into documents (${sql.join(copied.map((c) => sql.ref(c)))})
    select ${sql.join(picked)} from documents d, n where d.id = ${documentId}`.execute(db);
}
