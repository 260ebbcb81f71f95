import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type KyselyPlugin, SelectQueryNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, openDatabase } from '../../src/server/db/connection';
import { migrateToLatest } from '../../src/server/migrate';
import { DocumentCounts, documentCountsOf, PostgresDocumentCounts } from '../../src/server/db/queries/document-counts';
import { dataGenerationOf, SqliteDataGeneration } from '../../src/server/db/data-generation';
import { actingFor, actingForNoOrganization } from '../../src/server/db/write-scope';
import { onPostgres, withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';

describe('document counts kept between list requests', () => {
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
  it('reuses a count until data is written, here or by another process; bookkeeping writes keep it', async () => {
    const counts = documentCountsOf(connection.db);
    if (!(counts instanceof DocumentCounts)) throw new Error('openDatabase keeps no SQLite counts');
    let counted = 0;
    const read = () => counts.read(1, 'key', async () => ++counted);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1); // kept
    await connection.db.updateTable('sessions').set({ last_seen_at: '' }).where('id', '=', 'none').execute();
    await connection.db.deleteFrom('rate_limits').where('name', '=', 'none').execute();
    expect(await read()).toBe(1); // bookkeeping (a session's last visit, a rate window): kept
    await connection.db.updateTable('documents').set({ note: '' }).where('id', '=', -1).execute();
    expect(await read()).toBe(2); // a documents write, even of no row: counted again
    await connection.db.updateTable('organizations').set({ name: 'Autre' }).where('id', '=', 2).execute();
    await connection.db.updateTable('documents').set({ note: '' }).where('organization_id', '=', 2).execute();
    expect(await read()).toBe(2); // another organisation's data: this one's count is kept
    await connection.db.updateTable('organizations').set({ name: 'Autre' }).where('id', '=', 1).execute();
    expect(await read()).toBe(3); // any other data of its own too
    await connection.db.deleteFrom('documents').where('id', '=', -1).execute();
    expect(await read()).toBe(4);
    await sql`update documents set note = '' where id = -1`.execute(connection.db);
    expect(await read()).toBe(5); // an sql template is read for its table
    expect(await counts.read(1, 'other key', async () => 40)).toBe(40); // one count per key
    const other = new SQLite(path.join(dir, 'db.sqlite'));
    other.prepare("insert into organizations (name, created_at, updated_at) values ('Ailleurs', '', '')").run(); // another connection commits
    other.close();
    expect(await read()).toBe(6);
    await connection.db.transaction().execute(async (trx) => {
      expect(documentCountsOf(trx)).toBeNull(); // a transaction's reads are never kept
    });
  });

  it('moves only the acting organisation’s generation for a write that does not name its organisation', async () => {
    const generations = dataGenerationOf(connection.db);
    if (!(generations instanceof SqliteDataGeneration)) throw new Error('openDatabase keeps no SQLite generations');
    const both = () => [generations.current(1), generations.current(2)];
    const [one, two] = both();
    await actingFor(1, async () => {
      await connection.db.updateTable('documents').set({ note: '' }).where('id', '=', -1).execute();
      await sql`delete from search_index where rowid = -1`.execute(connection.db);
      await connection.db.deleteFrom('document_items').where('document_id', '=', -1).execute();
    });
    expect(both()).toEqual([(one ?? 0) + 6, two]); // three writes, each bumped when compiled and when run
    // A table of no organisation (a person's account), or work left running after the procedure: anyone's.
    await actingFor(1, () => connection.db.updateTable('users').set({ first_name: 'x' }).where('id', '=', -1).execute());
    const [, afterUsers] = both();
    expect(afterUsers).toBeGreaterThan(two ?? 0);
    let later: Promise<unknown> = Promise.resolve();
    await actingFor(1, async () => {
      later = new Promise((resolve) => setTimeout(resolve, 5)).then(() =>
        connection.db.updateTable('documents').set({ note: '' }).where('id', '=', -1).execute(),
      );
    });
    await later;
    expect(both()[1]).toBeGreaterThan(afterUsers ?? 0);
    const [, beforeBackground] = both();
    await actingFor(1, () =>
      actingForNoOrganization(() => connection.db.updateTable('documents').set({ note: '' }).where('id', '=', -1).execute()),
    );
    expect(both()[1]).toBeGreaterThan(beforeBackground ?? 0);
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

// PostgreSQL's kept counts (migration 0042): a generation per organisation, bumped in the writing transaction.
describe.skipIf(!onPostgres)('document counts kept on PostgreSQL, across processes', () => {
  it('reuses a count while no transaction wrote the organisation’s documents, and counts again once one commits', async () => {
    const server: TestServer = await startTestServer();
    // Two pools on the server's database: this test's reader, and another process's writer.
    const reader = openDatabase(server.databaseUrl);
    const writer = openDatabase(server.databaseUrl);
    try {
      const { session } = await registered(server.url);
      const { customerId } = await readyToInvoice(session);
      const drafts: number[] = [];
      for (const day of ['01', '02', '03'])
        drafts.push((await draft(session, { customer_id: customerId, date: `2026-10-${day}`, items: [line('A', 1, 100)] })).id);
      const [first = 0, second = 0] = drafts;
      const organizationId = Number(
        (await reader.db.selectFrom('documents').select('organization_id').where('id', '=', first).executeTakeFirstOrThrow())
          .organization_id,
      );
      // The count statements that reached the database: selects built by Kysely and executed (compiling a key runs
      // the plugins too, without a result), not the generation checks (raw SQL).
      let counted = 0;
      const selects = new WeakSet<object>();
      const spy: KyselyPlugin = {
        transformQuery: (args) => {
          if (SelectQueryNode.is(args.node)) selects.add(args.queryId);
          return args.node;
        },
        transformResult: async (args) => {
          if (selects.has(args.queryId)) counted++;
          return args.result;
        },
      };
      const db = reader.db.withPlugin(spy);
      const counts = new PostgresDocumentCounts(db);
      const mine = () => counts.count(organizationId, db.selectFrom('documents').where('organization_id', '=', organizationId));
      expect(documentCountsOf(reader.db)).toBeInstanceOf(PostgresDocumentCounts);

      expect(await mine()).toBe(3);
      expect(await mine()).toBe(3);
      expect(counted).toBe(1); // kept

      // Another organisation's write keeps it.
      const other = await registered(server.url);
      const otherCustomer = await readyToInvoice(other.session);
      await draft(other.session, { customer_id: otherCustomer.customerId, items: [line('B', 1, 1)] });
      expect(await mine()).toBe(3);
      expect(counted).toBe(1);

      // A write not yet committed changes nothing anyone can read: the kept count stays true until the commit.
      await writer.db.transaction().execute(async (trx) => {
        await sql`delete from documents where id = ${first}`.execute(trx);
        await sql`update documents set note = 'relu' where id = ${second}`.execute(trx);
        expect(await mine()).toBe(3);
      });
      expect(await mine()).toBe(2); // committed by the other pool: counted again
      expect(counted).toBe(2);
      expect(await mine()).toBe(2);
      expect(counted).toBe(2);

      // A transaction that fails leaves no trace, generation included.
      await expect(
        writer.db.transaction().execute(async (trx) => {
          await sql`delete from documents where id = ${second}`.execute(trx);
          throw new Error('annulée');
        }),
      ).rejects.toThrow('annulée');
      expect(await mine()).toBe(2);
      expect(counted).toBe(2);

      // Through the server, whose own counts are kept the same way.
      expect((await session.rest('GET', '/api/documents?per_page=1')).body.total).toBe(2);
      await sql`update documents set total = 50000000 where id = ${second}`.execute(writer.db);
      expect((await session.rest('GET', '/api/documents?per_page=1&min_amount=1000')).body.total).toBe(1);
    } finally {
      await reader.close();
      await writer.close();
      await server.close();
    }
  });
});
