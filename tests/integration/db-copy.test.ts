import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/connection';
import { CopyError, copyDatabase } from '../../src/server/database-copy';
import { migrateToLatest } from '../../src/server/migrate';
import { documentIdsMatching, searchEntries } from '../../src/server/db/queries/search';
import { sql } from 'kysely';
import { registered } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { createTestDatabase, dropTestDatabase, testDatabaseUrl } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

/** `npm run db:copy` moves a SQLite deployment to PostgreSQL, verified. PostgreSQL run only. */
describe.skipIf(!testDatabaseUrl())('npm run db:copy', () => {
  let server: TestServer | undefined;
  const targets: string[] = [];
  afterAll(async () => {
    await server?.close();
    for (const url of targets) dropTestDatabase(url);
  });

  it('copies every row into an empty PostgreSQL database, verifies the counts and the audit chain, and refuses a non-empty one', async () => {
    // A SQLite server whatever the run: the source of the move.
    const dir = `${process.env.TMPDIR ?? '/tmp'}/facturier-copy-${process.pid}`;
    server = await startTestServer({ env: { DATABASE_URL: `file:${path.join(dir, 'source.db')}`, DATA_DIR: dir } });
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoices = [];
    for (let i = 0; i < 3; i++)
      invoices.push(await issued(session, { customer_id: customerId, items: [line(`Prestation ${i}`, 2, 150.5)] }));
    const paid = await session.rest('POST', `/api/documents/${invoices[0]?.id}/payments`, {
      amount: '361,20',
      date: '2026-11-20',
      method: 'transfer',
    });
    expect(paid.status).toBe(201);
    await server.app.close();

    const base = testDatabaseUrl() as string;
    const target = createTestDatabase(base);
    targets.push(target);
    const from = openDatabase(path.join(dir, 'source.db'));
    const to = openDatabase(target);
    const indexNames = async () =>
      (await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() order by 1`.execute(to.db))
        .rows;
    try {
      await migrateToLatest(to.db);
      const indexes = await indexNames();
      const report = await copyDatabase(from, to, dir);
      // The indexes dropped during the copy are all built again.
      expect(await indexNames()).toEqual(indexes);
      expect(indexes.map((i) => i.name)).toContain('search_index_number_parts');
      expect(report.tables.documents).toBe(3);
      // Analysed once copied: the planner has the copied columns' statistics (values, their frequencies) rather than none.
      const { rows: statistics } = await sql<{ attname: string }>`select attname from pg_stats
        where schemaname = current_schema() and tablename = 'documents'`.execute(to.db);
      expect(statistics.map((r) => r.attname)).toContain('organization_id');
      expect(report.tables.payments).toBe(1);
      expect(report.tables.audit_log).toBeGreaterThanOrEqual(3);
      expect(report.auditLogs).toBe(1);
      // The copy answers like the source: the same numbers, and new rows take ids after the copied ones.
      const numbers = await to.db.selectFrom('documents').select('number').orderBy('id').execute();
      expect(numbers.map((n) => n.number)).toEqual(['F2026-0001', 'F2026-0002', 'F2026-0003']);
      // The search index, written in chunks: found by a part of a number (its suffixes) and by the customer's name.
      const organizationId = Number((await to.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow()).id);
      // The summaries are written once from the copied documents (their triggers are off during the copy): the
      // dashboard and list counts read on PostgreSQL what they read on SQLite.
      const counts = (db: typeof to.db) =>
        db.selectFrom('summary_document_counts').select(['type', 'status', 'count', 'sent']).orderBy(['type', 'status']).execute();
      expect((await counts(to.db)).map((r) => ({ ...r, count: Number(r.count), sent: Number(r.sent) }))).toEqual(
        (await counts(from.db)).map((r) => ({ ...r, count: Number(r.count), sent: Number(r.sent) })),
      );
      expect((await counts(to.db)).length).toBeGreaterThan(0);
      const ids = invoices.map((d) => d.id);
      expect(await documentIdsMatching(to.db, organizationId, '026-0002')).toEqual([ids[1]]);
      expect((await documentIdsMatching(to.db, organizationId, 'boulangerie'))?.sort()).toEqual([...ids].sort());
      expect((await searchEntries(to.db, { organizationId, text: 'boulangerie', limit: 5 })).map((r) => r.kind)).toEqual([
        'customer',
        'document',
        'document',
        'document',
      ]);
      // The copy is one transaction: the organisation's documents generation (kept list counts) moved once.
      const { rows } = await sql<{ generation: number }>`select generation from document_generations`.execute(to.db);
      expect(rows).toEqual([{ generation: 1 }]);
      const customer = await to.db
        .insertInto('tags')
        .values({ organization_id: 1, name: 'après copie', kind: 'customer', color: 'blue' } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
        .catch(() => null);
      if (customer) expect(customer.id).toBeGreaterThan(0);
      await expect(copyDatabase(from, to, dir)).rejects.toThrow(CopyError);
      await expect(copyDatabase(from, to, dir)).rejects.toThrow('La base cible contient déjà des données');
    } finally {
      await from.close();
      await to.close();
    }
  });
});
