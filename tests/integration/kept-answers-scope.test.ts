import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { type KeptAnswers, keptAnswersOf } from '../../src/server/kept-answers';
import { onPostgres, withServerDb } from '../helpers/database';
import { startTestServer, testEnv, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';

// The kept answers are per organisation: a write moves its own organisation's answers only; concurrent misses of one
// answer wait for one reading; several processes on one database never serve an answer older than a write another
// one made. Each case counts the readings of the server's store (KeptAnswers.counts) around the requests.
describe('kept answers per organisation', () => {
  let server: TestServer;
  let a: Session;
  let b: Session;
  let customerA: number;
  let customerB: number;
  let store: KeptAnswers;

  const dashboard = async (session: Session) => {
    const answer = await session.rest('GET', '/api/dashboard');
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** The store's counts moved by `work`. */
  const counted = async (work: () => Promise<unknown>) => {
    const before = { ...store.counts };
    await work();
    return { kept: store.counts.kept - before.kept, shared: store.counts.shared - before.shared, read: store.counts.read - before.read };
  };

  beforeAll(async () => {
    server = await startTestServer();
    a = (await registered(server.url)).session;
    b = (await registered(server.url)).session;
    ({ customerId: customerA } = await readyToInvoice(a));
    ({ customerId: customerB } = await readyToInvoice(b));
    await issued(a, { customer_id: customerA, items: [line('Conseil', 2, 400)] });
    const kept = keptAnswersOf(server.app.deps.db);
    if (!kept) throw new Error('the server keeps no answers');
    store = kept;
  });
  afterAll(() => server.close());

  it('keeps an organisation’s answer through another organisation’s writes, and reads it again after its own', async () => {
    const first = await dashboard(a);
    expect(await counted(() => dashboard(a))).toEqual({ kept: 1, shared: 0, read: 0 });

    // Organisation B writes through both doors: a draft, a customer, an issued invoice.
    await draft(b, { customer_id: customerB, items: [line('Atelier', 1, 90)] });
    expect((await b.rest('POST', '/api/customers', { name: 'Client de B' })).status).toBe(201);
    await issued(b, { customer_id: customerB, items: [line('Vente', 1, 50)] });
    expect(await counted(async () => expect(await dashboard(a)).toEqual(first))).toEqual({ kept: 1, shared: 0, read: 0 });

    // Organisation A writes: its answer is read again, and shows the write.
    await issued(a, { customer_id: customerA, items: [line('Audit', 1, 1000)] });
    let after: unknown;
    expect(
      await counted(async () => {
        after = await dashboard(a);
      }),
    ).toEqual({ kept: 0, shared: 0, read: 1 });
    expect(after).not.toEqual(first);
    expect(await counted(() => dashboard(a))).toEqual({ kept: 1, shared: 0, read: 0 });
  });

  it('reads again after a write it cannot place: another connection’s, a person’s account', async () => {
    await dashboard(a);
    await withServerDb(server, (db) => sql`update customers set name = 'Renommée' where id = ${customerA}`.execute(db));
    expect(await counted(() => dashboard(a))).toEqual({ kept: 0, shared: 0, read: 1 });
    // Another connection writing B's data: SQLite cannot tell whose (everything is read again); PostgreSQL's trigger can.
    await withServerDb(server, (db) => sql`update customers set name = 'Renommée' where id = ${customerB}`.execute(db));
    const placed = onPostgres ? { kept: 1, shared: 0, read: 0 } : { kept: 0, shared: 0, read: 1 };
    expect(await counted(() => dashboard(a))).toEqual(placed);
    await registered(server.url); // a new account and organisation, by a public door
    expect(await counted(() => dashboard(a))).toEqual({ kept: 0, shared: 0, read: 1 });
  });

  it('runs one reading for 20 concurrent identical misses, and gives all of them its answer', async () => {
    await draft(a, { customer_id: customerA, items: [line('Froid', 1, 10)] }); // a cold answer
    // The first request's reading is held up (the database busy elsewhere) while the others arrive.
    const { result: answers, counts } = await holdingReads(server, () =>
      Promise.all(Array.from({ length: 20 }, () => a.rest('GET', '/api/dashboard'))),
    );
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(store.counts.read - counts.read).toBe(1);
    expect(store.counts.shared - counts.shared).toBe(19);
  });

  it('never serves another process an answer older than a write through this one', async () => {
    const other = testEnv({ DATABASE_URL: server.databaseUrl });
    const second = await createApp(other.env, { archiveOnIssue: false });
    const url = await second.listen();
    try {
      const there = new Session(url);
      there.cookie = a.cookie; // sessions live in the database: the same cookie signs in on both
      const before = (await there.rest('GET', '/api/documents')).body.total as number;
      expect((await there.rest('GET', '/api/documents')).body.total).toBe(before); // kept in the second process
      const secondStore = keptAnswersOf(second.deps.db);
      expect(secondStore?.counts.kept).toBeGreaterThan(0);
      for (let i = 1; i <= 3; i++) {
        await draft(a, { customer_id: customerA, items: [line(`Processus ${i}`, 1, 10)] }); // through the first process
        expect((await there.rest('GET', '/api/documents')).body.total).toBe(before + i);
        expect((await a.rest('GET', '/api/documents')).body.total).toBe(before + i);
      }
      // And the other way round.
      expect((await there.rest('POST', '/api/customers', { name: 'Par le second' })).status).toBe(201);
      expect((await a.rest('GET', '/api/customers?search=second')).body.total).toBe(1);
    } finally {
      await second.close();
      fs.rmSync(other.dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(onPostgres)('gives every table of data a generation trigger on PostgreSQL', async () => {
    const missing = await withServerDb(server, async (db) => {
      const { rows } = await sql<{ table_name: string }>`select t.table_name from information_schema.tables t
        where t.table_schema = current_schema() and t.table_type = 'BASE TABLE'
          and t.table_name not in ('sessions', 'rate_limits', 'api_keys', 'scheduler_jobs', 'data_generations',
            'document_generations', 'kysely_migration', 'kysely_migration_lock')
          -- The documents' summaries move with the documents' own trigger; their rebuild bumps the generation itself.
          and t.table_name not like 'summary\\_%'
          -- The VAT ledger is rewritten from the data when read; the writes that made it stale bumped the generation.
          and t.table_name not like 'vat\\_ledger%'
          -- The search index's words are written by the index's own trigger, with the index, whose trigger bumps it.
          and t.table_name <> 'search_index_terms'
          and not exists (select 1 from information_schema.triggers g where g.event_object_schema = t.table_schema
            and g.event_object_table = t.table_name and g.trigger_name = t.table_name || '_data_generation')`.execute(db);
      return rows.map((r) => r.table_name);
    });
    expect(missing, 'a new table needs its trigger (migration 0065 says how)').toEqual([]);
  });
});

/**
 * Runs `work` while the server's readings of documents wait: on SQLite its one connection is held by a transaction
 * (the requests queue behind it in order), on PostgreSQL the documents table is locked by another connection. Both
 * are released a moment after the requests are sent. Answers the result with the store's counts from before.
 */
async function holdingReads<T>(server: TestServer, work: () => Promise<T>): Promise<{ result: T; counts: KeptAnswers['counts'] }> {
  const store = keptAnswersOf(server.app.deps.db);
  if (!store) throw new Error('the server keeps no answers');
  const counts = { ...store.counts };
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked: () => void = () => {};
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = onPostgres
    ? withServerDb(server, (db) =>
        db.transaction().execute(async (trx) => {
          await sql`lock table documents in access exclusive mode`.execute(trx);
          locked();
          await released;
        }),
      )
    : server.app.deps.db.transaction().execute(async () => {
        locked();
        await released;
      });
  await isLocked;
  const running = work();
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  await holder;
  return { result: await running, counts };
}
