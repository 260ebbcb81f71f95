import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { readyToInvoice } from '../helpers/documents';

// PostgreSQL's generations (data_generations) are bumped at the commit of every transaction that writes data. Two
// transactions that write an account (row 0) and an organisation's data in opposite orders must still lock those rows
// in one order, or each can hold the row the other waits for at its commit.
describe.runIf(onPostgres)('PostgreSQL generations at commit', () => {
  let server: TestServer;
  let organizationId: number;
  let customerId: number;
  const users: number[] = [];
  const clients: pg.Client[] = [];

  const client = async () => {
    const c = new pg.Client({ connectionString: server.databaseUrl });
    await c.connect();
    clients.push(c);
    return c;
  };
  /** Resolves once `count` connections wait for a lock. */
  const waiting = async (watcher: pg.Client, count: number) => {
    for (let i = 0; i < 200; i++) {
      const { rows } = await watcher.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (Number(rows[0]?.n) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`${count} connections never waited`);
  };

  beforeAll(async () => {
    server = await startTestServer();
    const a = await registered(server.url);
    ({ customerId } = await readyToInvoice(a.session));
    await registered(server.url);
    const watcher = await client();
    const { rows } = await watcher.query<{ id: number }>('select id from users order by id');
    users.push(...rows.map((r) => Number(r.id)));
    const customer = await watcher.query<{ organization_id: number }>('select organization_id from customers where id = $1', [customerId]);
    organizationId = Number(customer.rows[0]?.organization_id);
  });
  afterAll(async () => {
    for (const c of clients) await c.end();
    await server.close();
  });

  it('commits two transactions that write an account and an organisation in opposite orders', async () => {
    const [watcher, holder, first, second] = [await client(), await client(), await client(), await client()];
    const before = await watcher.query<{ organization_id: number; generation: string }>(
      'select organization_id, generation from data_generations where organization_id in (0, $1) order by organization_id',
      [organizationId],
    );
    expect(before.rows).toHaveLength(2);
    // Another transaction holds row 0 while the two commits start, so that each commit has begun before either ends.
    await holder.query('begin');
    await holder.query('select generation from data_generations where organization_id = 0 for update');
    // The first writes an account, then the organisation's data; the second the other way round.
    await first.query('begin');
    await first.query('update users set first_name = first_name where id = $1', [users[0]]);
    await first.query('update customers set name = name where id = $1', [customerId]);
    await second.query('begin');
    await second.query('update organizations set name = name where id = $1', [organizationId]);
    await second.query('update users set first_name = first_name where id = $1', [users[1]]);
    const outcome = (work: Promise<unknown>) =>
      work.then(
        () => 'committed',
        (error: { code?: string }) => error.code ?? 'failed',
      );
    const firstCommit = outcome(first.query('commit'));
    await waiting(watcher, 1);
    const secondCommit = outcome(second.query('commit'));
    await waiting(watcher, 2);
    await holder.query('commit');
    // A deadlock (40P01) is detected after deadlock_timeout (1 s) and ends one of them.
    expect(await Promise.all([firstCommit, secondCommit])).toEqual(['committed', 'committed']);
    const after = await watcher.query<{ organization_id: number; generation: string }>(
      'select organization_id, generation from data_generations where organization_id in (0, $1) order by organization_id',
      [organizationId],
    );
    // Each transaction moved each row once.
    expect(after.rows.map((r) => Number(r.generation))).toEqual(before.rows.map((r) => Number(r.generation) + 2));
  });

  it('notes a transaction’s organisations in one setting, whatever their number, and bumps each once', async () => {
    const [watcher, writer] = [await client(), await client()];
    const others: number[] = [];
    for (let i = 0; i < 3; i++) {
      await registered(server.url);
      const { rows } = await watcher.query<{ id: number }>('select max(id) as id from organizations');
      others.push(Number(rows[0]?.id));
    }
    const generations = async () =>
      (
        await watcher.query<{ generation: string }>(
          'select generation from data_generations where organization_id = any($1) order by organization_id',
          [[organizationId, ...others]],
        )
      ).rows.map((r) => Number(r.generation));
    const before = await generations();
    await writer.query('begin');
    await writer.query('update customers set name = name where id = $1', [customerId]);
    for (const id of [...others].reverse()) {
      await writer.query('update organizations set name = name where id = $1', [id]);
      await writer.query('update organizations set name = name where id = $1', [id]);
    }
    const noted = await writer.query<{ noted: string }>(`select current_setting('facturier.data_written', true) as noted`);
    expect(noted.rows[0]?.noted).toBe(`,;,${[organizationId, ...[...others].reverse()].join(',')},`);
    await writer.query('commit');
    expect(await generations()).toEqual(before.map((g) => g + 1));
    // The setting is back to empty after the commit, and no setting per organisation was ever defined on the connection.
    const after = await writer.query<{ noted: string | null; per: string | null }>(
      `select current_setting('facturier.data_written', true) as noted, current_setting('facturier.data_written_' || $1::text, true) as per`,
      [organizationId],
    );
    expect(after.rows[0]).toEqual({ noted: '', per: null });
  });
});
