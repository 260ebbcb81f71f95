import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { keptAnswersOf } from '../../src/server/kept-answers';
import { parisToday } from '../../src/shared/paris-date';
import { addDays } from '../../src/shared/calendar-dates';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';

// The answers of the lists, searches, figures and reports are kept between requests until data is written
// (src/server/kept-answers.ts). Each case reads an answer twice (the second one kept), changes what it shows by one
// door or another, and expects the change at once, on SQLite and on PostgreSQL.
describe('kept answers are never stale', () => {
  let server: TestServer;
  let owner: Session;
  let customerId: number;
  const kept = () => keptAnswersOf(server.app.deps.db);
  const total = async (path: string) => {
    const answer = await owner.rest('GET', path);
    expect(answer.status).toBe(200);
    return answer.body.total as number;
  };

  beforeAll(async () => {
    server = await startTestServer();
    owner = (await registered(server.url)).session;
    ({ customerId } = await readyToInvoice(owner));
    // Dated today, so due in a month: never overdue « tomorrow » below, whatever the day the tests run.
    await issued(owner, { customer_id: customerId, date: parisToday(), items: [line('Conseil', 2, 400)] });
  });
  afterAll(() => server.close());
  afterEach(() => vi.useRealTimers());

  it('keeps an answer; reads and their sessions’ bookkeeping do not forget it, a new account does', async () => {
    expect(await total('/api/documents')).toBe(1);
    expect(await total('/api/documents')).toBe(1);
    const store = kept();
    if (!store) throw new Error('the server keeps no answers');
    const organizationId = (await owner.rest('GET', '/api/auth')).body.organization.id as number;
    const generation = await store.generation(organizationId);
    await registered(server.url); // a session, a rate window: bookkeeping… and a person's account, which anyone may show
    expect(await store.generation(organizationId)).toBeGreaterThan(generation);
    const after = await store.generation(organizationId);
    await owner.rest('GET', '/api/documents');
    await owner.rest('GET', '/api/auth');
    expect(await store.generation(organizationId)).toBe(after);
    expect(store.size).toBeGreaterThan(0);
  });

  it('shows a write made through either door at once', async () => {
    const before = await total('/api/documents');
    await draft(owner, { customer_id: customerId, items: [line('Atelier', 1, 90)] });
    expect(await total('/api/documents')).toBe(before + 1);
    const trpc = owner.trpc();
    const drafts = { status: 'draft' } as const;
    expect((await trpc.documents.list.query(drafts)).total).toBe(1);
    await trpc.documents.create.mutate({ type: 'invoice', date: '2026-11-02', customer_id: customerId, items: [line('Atelier', 3, 10)] });
    expect((await trpc.documents.list.query(drafts)).total).toBe(2);
    expect(await total('/api/documents?status=draft')).toBe(2);
  });

  it('shows a write made by another connection (another process, a script) at once', async () => {
    expect(await total('/api/customers?search=Renomm%C3%A9e')).toBe(0);
    expect(await total('/api/documents?min_amount=100000')).toBe(0);
    await withServerDb(server, async (db) => {
      await sql`update customers set name = 'Boulangerie Renommée' where id = ${customerId}`.execute(db);
      await sql`update documents set total = 2000000000 where id = (select min(id) from documents)`.execute(db);
    });
    expect(await total('/api/customers?search=Renomm%C3%A9e')).toBe(1);
    expect(await total('/api/documents?min_amount=100000')).toBe(1);
  });

  it('never gives one organisation’s answer to another’s caller', async () => {
    const other = (await registered(server.url)).session;
    expect(await total('/api/documents')).toBeGreaterThan(0);
    const theirs = await other.rest('GET', '/api/documents');
    expect(theirs.body.total).toBe(0);
    const dashboards = await Promise.all([owner.rest('GET', '/api/dashboard'), other.rest('GET', '/api/dashboard')]);
    expect(dashboards[0].body).not.toEqual(dashboards[1].body);
  });

  it('turns with the Paris day: an invoice due today is overdue tomorrow', async () => {
    const today = parisToday();
    await issued(owner, { customer_id: customerId, date: today, maturity: today, items: [line('Échéance', 1, 100)] });
    const overdue = '/api/documents?type=invoice&status=overdue';
    expect(await total(overdue)).toBe(0);
    expect(await total(overdue)).toBe(0);
    vi.useFakeTimers({ toFake: ['Date'] });
    // Midday (UTC) of the next Paris day, whatever the hour now: 26 h later was the day after tomorrow after 22:00.
    vi.setSystemTime(new Date(`${addDays(today, 1)}T12:00:00Z`));
    expect(await total(overdue)).toBe(1);
  });

  it('answers a refused caller with the refusal, never with a kept answer', async () => {
    await owner.rest('GET', '/api/reports/receivables');
    const anonymous = await fetch(`${server.url}/api/reports/receivables`);
    expect(anonymous.status).toBe(401);
  });

  it('answers a URL asked again as the first time: a refusal stays one, each URL its own answer', async () => {
    // A kept answer of the list without a search: a refused search must never be taken for none.
    expect(await total('/api/customers')).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      const refused = await owner.rest('GET', '/api/customers?search=a%00b');
      expect(refused.status).toBe(400);
      expect(String(refused.body.messages)).toContain('Caractère nul interdit dans la saisie');
    }
    expect(await total('/api/customers?search=Lumiere')).toBe(0);
    expect(await total('/api/customers?search=Lumiere')).toBe(0);
    expect((await owner.rest('POST', '/api/customers', { name: 'Atelier Lumiere' })).status).toBe(201);
    expect(await total('/api/customers?search=Lumiere')).toBe(1);
    expect(await total('/api/customers?search=Lumierf')).toBe(0); // the same length, its own answer
  });
});
