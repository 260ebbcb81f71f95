import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app';
import { Scheduler } from '../../src/server/scheduler/scheduler';
import { openDatabase } from '../../src/server/db/connection';
import { JOBS } from '../../src/server/scheduler/jobs';
import { takeLease } from '../../src/server/scheduler/lease';
import { withServerDb } from '../helpers/database';
import { removeTestEnv, testEnv } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { addDays } from '../../src/shared/payment-terms';

const serverEnv = testEnv();
const { env, dataDir } = serverEnv;
let now = new Date('2026-03-15T08:00:00Z');
const clock = () => now;
const apps: App[] = [];
async function boot(): Promise<{ app: App; url: string }> {
  const app = await createApp(env, { archiveOnIssue: false, scheduler: false, now: clock });
  apps.push(app);
  return { app, url: await app.listen() };
}
afterAll(async () => {
  for (const app of apps) await app.close();
  removeTestEnv(env, dataDir);
});

/** The dates of the expenses the scheduler made, by supplier, in date order. */
async function occurrences(): Promise<Record<string, string[]>> {
  const rows = await withServerDb(serverEnv, (db) =>
    db.selectFrom('expenses').select(['supplier', 'date']).where('source', '=', 'recurring').orderBy('date').execute(),
  );
  const out: Record<string, string[]> = {};
  for (const r of rows) out[r.supplier] = [...(out[r.supplier] ?? []), r.date];
  return out;
}

const base = { category: 'loyer', amount: 1200, vat: [{ rate: 20, amount: 200 }], payment_method: 'transfer' };

describe('recurring expenses and the scheduler', () => {
  let session: Session;
  let first: App;

  it('makes each due occurrence exactly once: run twice, two processes at once, a restart, days down', async () => {
    const booted = await boot();
    first = booted.app;
    session = (await registered(booted.url)).session;
    const rent = await session.rest('POST', '/api/recurring-expenses', {
      ...base,
      supplier: 'SCI Loyer',
      frequency: 'monthly',
      start_date: '2026-01-31',
    });
    expect(rent.status, JSON.stringify(rent.body)).toBe(201);
    expect(rent.body.data).toMatchObject({ next_date: '2026-01-31', category_label: 'Loyer et charges locatives', paused: false });
    await session.rest('POST', '/api/recurring-expenses', {
      ...base,
      supplier: 'Ménage',
      amount: 50,
      vat: [],
      frequency: 'weekly',
      start_date: '2026-03-02',
    });
    await session.rest('POST', '/api/recurring-expenses', {
      ...base,
      supplier: 'Assurance',
      frequency: 'quarterly',
      start_date: '2025-11-15',
      end_date: '2026-06-30',
    });
    await session.rest('POST', '/api/recurring-expenses', {
      ...base,
      supplier: 'Domaine',
      amount: 12,
      vat: [],
      frequency: 'yearly',
      start_date: '2026-04-01',
    });

    const expected = {
      'SCI Loyer': ['2026-01-31', '2026-02-28'],
      Ménage: ['2026-03-02', '2026-03-09'],
      Assurance: ['2025-11-15', '2026-02-15'],
    };
    // Before the 15th's occurrences: the clock says 2026-03-14 at 23:30 in Paris (22:30 UTC).
    now = new Date('2026-03-14T22:30:00Z');
    const [run] = await first.scheduler.runDue();
    expect(run).toMatchObject({ job: 'recurring-expenses', ran: true, message: '6 dépenses créées' });
    expect(await occurrences()).toEqual(expected);
    expect((await first.scheduler.runDue())[0]?.message).toBe('0 dépense créée'); // twice: nothing more
    expect(await occurrences()).toEqual(expected);

    // Two processes at once on the same database: together they make each occurrence once.
    now = new Date('2026-03-16T08:00:00Z');
    const other = new Scheduler(first.connection.db, JOBS, clock);
    const both = await Promise.all([first.scheduler.runDue(), other.runDue()]);
    expect(await occurrences()).toEqual({ ...expected, Ménage: ['2026-03-02', '2026-03-09', '2026-03-16'] });
    expect(both.flat().filter((r) => r.message === '1 dépense créée')).toHaveLength(1);

    // The last run is visible.
    const jobs = await session.rest('GET', '/api/jobs');
    expect(jobs.body.data.find((j: { name: string }) => j.name === 'recurring-expenses')).toMatchObject({
      name: 'recurring-expenses',
      last_status: 'ok',
      last_finished_at: '2026-03-16T08:00:00.000Z',
    });
    const list = await session.rest('GET', '/api/recurring-expenses');
    expect(list.body.data.find((r: { supplier: string }) => r.supplier === 'SCI Loyer')).toMatchObject({
      generated_until: '2026-02-28',
      next_date: '2026-03-31',
    });
  });

  it('a restart after days down catches up exactly; a deleted expense is not made again; pause and resume', async () => {
    const rentId = (await session.rest('GET', '/api/recurring-expenses')).body.data.find(
      (r: { supplier: string }) => r.supplier === 'SCI Loyer',
    ).id;
    await session.rest('POST', `/api/recurring-expenses/${rentId}/pause`, { paused: true });
    const weekly = await session.rest('GET', '/api/expenses?supplier=Ménage&sort_order=asc');
    await session.rest('DELETE', `/api/expenses/${weekly.body.data[0].id}`); // the 2 March one, deleted by the user
    await first.close();

    now = new Date('2026-07-01T10:00:00Z'); // the server was down for months
    const { app, url } = await boot();
    const cookie = session.cookie;
    session = new Session(url);
    session.cookie = cookie;
    const [run] = await app.scheduler.runDue();
    expect(run?.ran).toBe(true);
    const made = await occurrences();
    expect(made['SCI Loyer']).toEqual(['2026-01-31', '2026-02-28']); // paused
    expect(made.Assurance).toEqual(['2025-11-15', '2026-02-15', '2026-05-15']); // ends on 30 June
    expect(made.Domaine).toEqual(['2026-04-01']);
    expect(made.Ménage?.[0]).toBe('2026-03-09');
    expect(made.Ménage).toHaveLength(17); // 9 March to 29 June, weekly
    expect(made.Ménage?.at(-1)).toBe('2026-06-29');

    await session.rest('POST', `/api/recurring-expenses/${rentId}/pause`, { paused: false });
    await app.scheduler.runDue();
    expect((await occurrences())['SCI Loyer']).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
    ]);
    await app.scheduler.runDue();
    expect(Object.values(await occurrences()).flat()).toHaveLength(6 + 3 + 1 + 17);
  });

  it('a lease held by a live process is respected; a lapsed one is taken over', async () => {
    const lease = (values: { lease_holder?: string; lease_until: string }) =>
      withServerDb(serverEnv, (db) => db.updateTable('scheduler_jobs').set(values).where('name', '=', 'recurring-expenses').execute());
    await lease({ lease_holder: 'ailleurs', lease_until: new Date(now.getTime() + 60_000).toISOString() });
    const app = apps.at(-1) as App;
    expect((await app.scheduler.runDue())[0]).toMatchObject({ ran: false, message: 'Déjà en cours dans un autre processus' });
    await lease({ lease_until: new Date(now.getTime() - 1).toISOString() });
    expect((await app.scheduler.runDue())[0]).toMatchObject({ ran: true });
  });

  it('of eight processes taking a lapsed lease at the same instant, exactly one gets it', async () => {
    // On PostgreSQL each take is its own connection of the pool: the row lock, not one process's event loop, decides.
    const winners = await withServerDb(serverEnv, async (db) => {
      await db
        .updateTable('scheduler_jobs')
        .set({ lease_holder: null, lease_until: null })
        .where('name', '=', 'recurring-expenses')
        .execute();
      const takes = Array.from({ length: 8 }, (_, i) => takeLease(db, { job: 'recurring-expenses', holder: `p${i}`, now, ttlMs: 60_000 }));
      return (await Promise.all(takes)).filter((t) => t === 'taken').length;
    });
    expect(winners).toBe(1);
    await withServerDb(serverEnv, (db) =>
      db.updateTable('scheduler_jobs').set({ lease_holder: null, lease_until: null }).where('name', '=', 'recurring-expenses').execute(),
    );
  });

  it('a timer tick is run once across processes, even when the first run ends before another process asks', async () => {
    const app = apps.at(-1) as App;
    // The ticks of '5 * * * *' in the hours after the suite's clock; the row as if the job had never run.
    const hour = Math.ceil(now.getTime() / 3_600_000) * 3_600_000;
    const tick = (hours: number, ms: number) => new Date(hour + hours * 3_600_000 + 5 * 60_000 + ms);
    await withServerDb(serverEnv, (db) =>
      db.updateTable('scheduler_jobs').set({ last_started_at: null }).where('name', '=', 'recurring-expenses').execute(),
    );
    let at = tick(0, 20);
    const first = new Scheduler(app.connection.db, JOBS, () => at);
    const second = new Scheduler(app.connection.db, JOBS, () => at);
    expect(await first.runTick('recurring-expenses')).toMatchObject({ ran: true });
    at = tick(0, 900); // the other process's timer, a moment later: the lease is free again
    expect(await second.runTick('recurring-expenses')).toEqual({
      job: 'recurring-expenses',
      ran: false,
      message: 'Déjà faite par un autre processus',
    });
    at = tick(1, 10); // the next hour's tick runs, in whichever process comes first
    expect(await second.runTick('recurring-expenses')).toMatchObject({ ran: true });
    // An operator's run (or a start's catch-up) is not a tick: it runs whenever the lease is free.
    expect((await first.runDue(['recurring-expenses']))[0]).toMatchObject({ ran: true });
  });

  it('a lease that cannot be taken (database unavailable) skips the run instead of rejecting: a timer’s run never ends the process', async () => {
    const gone = openDatabase(`${dataDir}/ferme.db`);
    await gone.close();
    const results = await new Scheduler(gone.db, JOBS, () => now).runDue(['recurring-expenses']);
    expect(results).toEqual([{ job: 'recurring-expenses', ran: false, message: expect.stringMatching(/^Non exécutée : /) }]);
  });

  it('bad input: French 400 naming the field, nothing written; another organisation’s id → 404', async () => {
    const app = apps.at(-1) as App;
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { ...base, supplier: 'X', frequency: 'monthly', start_date: '2026-05-01', end_date: '2026-04-01' },
        /^Date de fin : elle précède la date de début$/,
      ],
      [{ ...base, supplier: 'X', frequency: 'daily', start_date: '2026-05-01' }, /^Fréquence/],
      [{ ...base, supplier: 'X', frequency: 'monthly', start_date: '2026-02-30' }, /^Date de début : date attendue/],
      [{ ...base, supplier: 'X', frequency: 'monthly', start_date: '2026-05-01', amount: -3 }, /^Montant TTC : il doit être positif$/],
      [
        { ...base, supplier: 'X', frequency: 'monthly', start_date: '2026-05-01', amount: 10, vat: [{ rate: 20, amount: 11 }] },
        /^TVA : le total/,
      ],
    ];
    const before = (await session.rest('GET', '/api/recurring-expenses')).body.total;
    for (const [body, message] of cases) {
      const answer = await session.rest('POST', '/api/recurring-expenses', body);
      expect(answer.status).toBe(400);
      expect(answer.body.messages).toMatch(message);
    }
    expect((await session.rest('GET', '/api/recurring-expenses')).body.total).toBe(before);
    const stranger = (await registered(url)).session;
    const id = (await session.rest('GET', '/api/recurring-expenses')).body.data[0].id;
    expect((await stranger.rest('GET', `/api/recurring-expenses/${id}`)).status).toBe(404);
    expect(
      (
        await stranger.rest('PUT', `/api/recurring-expenses/${id}`, {
          ...base,
          supplier: 'X',
          frequency: 'monthly',
          start_date: '2026-05-01',
        })
      ).status,
    ).toBe(404);
    expect((await stranger.rest('POST', `/api/recurring-expenses/${id}/pause`, { paused: true })).status).toBe(404);
    expect((await stranger.rest('DELETE', `/api/recurring-expenses/${id}`)).status).toBe(404);
  });
});

describe('« Générer maintenant »', () => {
  it('makes the due expense at once, never twice for one date nor more than one ahead; paused and others refused', async () => {
    // The procedure reads the real clock: dates relative to today.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    const start = addDays(today, -3);
    const { url } = await boot();
    const { session } = await registered(url);
    const made = await session.rest('POST', '/api/recurring-expenses', {
      ...base,
      supplier: 'Assurance Atlas',
      frequency: 'weekly',
      start_date: start,
    });
    const id = made.body.data.id as number;
    const ofAtlas = async () =>
      (
        await withServerDb(serverEnv, (db) =>
          db.selectFrom('expenses').select(['date']).where('recurring_id', '=', id).orderBy('date').execute(),
        )
      ).map((e) => e.date);

    // Due three days ago and not made yet (no scheduler run): made now.
    const first = await session.rest('POST', `/api/recurring-expenses/${id}/generate`);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.messages).toMatch(/^Dépense du .* créée$/);
    expect(first.body.data.next_date).toBe(addDays(start, 7));
    // Nothing due any more: the next one, ahead of its date.
    const ahead = await session.rest('POST', `/api/recurring-expenses/${id}/generate`);
    expect(ahead.status).toBe(201);
    expect(ahead.body.data.next_date).toBe(addDays(start, 14));
    // A third click would run two weeks ahead: refused, nothing written.
    const third = await session.rest('POST', `/api/recurring-expenses/${id}/generate`);
    expect(third.status).toBe(409);
    expect(third.body.messages).toMatch(/^La dépense du .* est déjà créée/);
    expect(await ofAtlas()).toEqual([start, addDays(start, 7)]);

    await session.rest('POST', `/api/recurring-expenses/${id}/pause`, { paused: true });
    const paused = await session.rest('POST', `/api/recurring-expenses/${id}/generate`);
    expect(paused.status).toBe(409);
    expect(paused.body.messages).toBe('Cette dépense répétitive est en pause : reprenez-la pour la générer');

    const stranger = (await registered(url)).session;
    expect((await stranger.rest('POST', `/api/recurring-expenses/${id}/generate`)).status).toBe(404);
    expect((await session.rest('POST', '/api/recurring-expenses/abc/generate')).status).toBe(400);
    expect(await ofAtlas()).toEqual([start, addDays(start, 7)]);
  });
});
