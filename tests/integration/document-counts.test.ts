import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/db/migrate';
import { documentCountsOf } from '../../src/server/db/queries/document-counts';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';

describe('document counts kept between list requests (issue 22)', () => {
  let dir: string;
  let connection: Connection;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-counts-'));
    connection = openDatabase(path.join(dir, 'db.sqlite'));
    await migrateToLatest(connection.db);
  });
  afterAll(async () => {
    await connection.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // The counts are kept on SQLite only (db/queries/document-counts.ts): this test opens a SQLite file on both runs.
  it('reuses a count until a document is written, here or by another process; other writes keep it', async () => {
    const counts = documentCountsOf(connection.db);
    if (!counts) throw new Error('openDatabase keeps no counts');
    let counted = 0;
    const read = () => counts.read('key', async () => ++counted);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1); // kept
    await connection.db.updateTable('organizations').set({ name: 'Autre' }).where('id', '=', -1).execute();
    expect(await read()).toBe(1); // another table: kept
    await connection.db.updateTable('documents').set({ note: '' }).where('id', '=', -1).execute();
    expect(await read()).toBe(2); // a documents write, even of no row: counted again
    await connection.db.deleteFrom('documents').where('id', '=', -1).execute();
    expect(await read()).toBe(3);
    await sql`update documents set note = '' where id = -1`.execute(connection.db);
    expect(await read()).toBe(4); // an sql template is read for its table
    expect(await counts.read('other key', async () => 40)).toBe(40); // one count per key
    const other = new SQLite(path.join(dir, 'db.sqlite'));
    other.prepare("insert into organizations (name, created_at, updated_at) values ('Ailleurs', '', '')").run(); // another connection commits
    other.close();
    expect(await read()).toBe(5);
    await connection.db.transaction().execute(async (trx) => {
      expect(documentCountsOf(trx)).toBeNull(); // a transaction's reads are never kept
    });
  });

  it('answers the true total after every kind of write', async () => {
    const server: TestServer = await startTestServer();
    try {
      const { session } = await registered(server.url);
      const { customerId } = await readyToInvoice(session);
      for (const day of ['01', '02', '03'])
        await issued(session, { customer_id: customerId, date: `2026-10-${day}`, items: [line('A', 1, 100)] });
      const total = async (query = '') => (await session.rest('GET', `/api/documents?per_page=1${query}`)).body.total;
      expect(await total()).toBe(3);
      expect(await total()).toBe(3);
      const extra = await draft(session, { customer_id: customerId, items: [line('B', 1, 1000)] });
      expect(await total()).toBe(4);
      expect(await total('&min_amount=1000')).toBe(1);
      await session.rest('PUT', `/api/documents/${extra.id}`, { date: '2026-11-02', customer_id: customerId, items: [line('B', 1, 10)] });
      expect(await total('&min_amount=1000')).toBe(0);
      await session.rest('DELETE', `/api/documents/${extra.id}`);
      expect(await total()).toBe(3);
      // Another connection (another process's, on PostgreSQL another pool): this server's plugin never sees the write.
      await withServerDb(server, (db) => sql`update documents set total = 50000000 where id = (select min(id) from documents)`.execute(db));
      expect(await total('&min_amount=1000')).toBe(1);
    } finally {
      await server.close();
    }
  });
});
