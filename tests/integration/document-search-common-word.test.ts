import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEW_MATCHES } from '../../src/server/db/queries/document-matches';
import { postgresDocumentMatch } from '../../src/server/db/queries/search';
import { indexDocument } from '../../src/server/services/documents';
import { registered } from '../helpers/clients';
import { copyDocument, onPostgres, withServerDb } from '../helpers/database';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { startTestServer, type TestServer } from '../helpers/server';
import { planNodes, planOf } from '../../scripts/bench/postgres';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** An organisation whose every document is for the same customer, more of them than a search reads as ids. */
async function organisationOfCopies(copies: number) {
  const { session } = await registered(server.url);
  const { customerId } = await readyToInvoice(session);
  const invoice = await issued(session, { customer_id: customerId, date: '2026-10-01', items: [line('Pain', 1, 100)] });
  const organizationId = await withServerDb(server, async (db) => {
    const { organization_id } = await db
      .selectFrom('documents')
      .select('organization_id')
      .where('id', '=', invoice.id)
      .executeTakeFirstOrThrow();
    // PostgreSQL plans on the statistics of before the copies, as after a bulk import autovacuum has not analysed yet.
    if (onPostgres)
      for (const table of ['documents', 'search_index'])
        await sql`alter table ${sql.table(table)} set (autovacuum_enabled = false)`.execute(db);
    return Number(organization_id);
  });
  await copyDocument(server, invoice.id, copies);
  await withServerDb(server, async (db) => {
    // Dates out of the ids' order, so that a page sorted by date is not the matches' own order: one statement for all.
    const dayOfMonth = sql`1 + ((id * 7) % 28)`;
    const day = sql<string>`'2026-09-' || case when ${dayOfMonth} < 10 then '0' else '' end || cast(${dayOfMonth} as text)`;
    await db
      .updateTable('documents')
      .set({ date: day })
      .where('organization_id', '=', organizationId)
      .where('id', '!=', invoice.id)
      .execute();
    const rows = await db
      .selectFrom('documents')
      .select(['id'])
      .where('organization_id', '=', organizationId)
      .where('id', '!=', invoice.id)
      .execute();
    // One transaction: thousands of index writes, one commit.
    await db.transaction().execute(async (trx) => {
      for (const { id } of rows) await indexDocument(trx, organizationId, Number(id));
    });
  });
  return { session, invoice, organizationId };
}

describe('documents list: a search that matches most documents', () => {
  it('pages and counts a common word exactly as the list without it, within the organisation', async () => {
    const { session: stranger } = await organisationOfCopies(FEW_MATCHES + 50);
    const { session, invoice } = await organisationOfCopies(FEW_MATCHES + 200);
    const list = async (query: string) => (await session.rest('GET', `/api/documents?per_page=25&${query}`)).body;

    for (const query of ['page=1', 'page=7', 'page=49', 'page=1&sort_by=number&sort_order=asc', 'page=2&sort_by=total']) {
      const plain = await list(query);
      expect(plain.total).toBe(FEW_MATCHES + 201);
      expect(await list(`${query}&search=boulangerie`)).toEqual(plain);
      expect(await list(`${query}&search=BOUL`)).toEqual(plain); // a word's start, any case
    }
    expect(await list('page=1&type=invoice&status=paid&search=boulangerie')).toEqual(await list('page=1&type=invoice&status=paid'));
    expect((await list('search=boulangerie%20inconnu')).total).toBe(0);
    const copy = `${invoice.number}-17`; // a few matches: -17 and -170 to -179
    const numbers = (await list(`search=${encodeURIComponent(copy)}`)).data.map((d: { number: string }) => d.number);
    expect(numbers.sort()).toEqual([copy, ...Array.from({ length: 10 }, (_, i) => `${copy}${i}`)].sort());
    // The neighbour's documents have the same customer's name: its own count, never the other's.
    expect((await stranger.rest('GET', '/api/documents?search=boulangerie')).body.total).toBe(FEW_MATCHES + 51);
  });
});

describe.runIf(onPostgres)('documents list on PostgreSQL: a common word on statistics older than the documents', () => {
  it('checks each walked document through its own entry, never joining every match with every document', async () => {
    const { organizationId } = await organisationOfCopies(FEW_MATCHES + 200);
    await withServerDb(server, async (db) => {
      // The page of a dense search as the list reads it: its order walked, each row checked (document-lists.ts).
      const page = db
        .selectFrom('documents')
        .select('documents.id')
        .where('documents.organization_id', '=', organizationId)
        .where(postgresDocumentMatch(organizationId, 'boulangerie', sql`documents.id`))
        .orderBy('documents.date', 'desc')
        .orderBy('documents.id', 'desc')
        .limit(25)
        .compile();
      const nodes = [...planNodes(await planOf(db, page))];
      // A SubPlan runs once per row of its parent: every node under one is part of the per-row check.
      const perRow = new Set(nodes.filter((n) => n['Parent Relationship'] === 'SubPlan').flatMap((n) => [...planNodes(n)]));
      const entryReads = nodes.filter((n) => n['Relation Name'] === 'search_index');
      expect(entryReads.length).toBeGreaterThan(0);
      expect(entryReads.every((n) => perRow.has(n))).toBe(true);
      expect(nodes.map((n) => n['Join Filter']).filter((f) => f !== undefined)).toEqual([]);
      expect((await db.executeQuery(page)).rows).toHaveLength(25);
    });
  });
});
