import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/server/app';
import { keptAnswersOf, type KeptAnswers } from '../../src/server/kept-answers';
import { onPostgres, withServerDb } from '../helpers/database';
import { startTestServer, testEnv, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { draft, line, readyToInvoice } from '../helpers/documents';

// On PostgreSQL the organisation's data generation comes with the session, read by the session lookup's own statement
// (db/queries/sessions.ts): a kept answer costs one round trip to the server. That generation must still be the
// database's at this request, whoever wrote: another process, or a hand on the database.
describe.runIf(onPostgres)('kept answers on PostgreSQL: one round trip, never stale', () => {
  let server: TestServer;
  /** A second process on the same database: its own pool, its own kept answers. */
  let other: { app: App; url: string; dataDir: string };
  let owner: Session;
  let customerId: number;
  let organizationId: number;
  let store: KeptAnswers;
  /** Statements the first server sends: each takes a pooled connection of its own (none runs in a transaction here). */
  let statements = 0;

  const total = async () => {
    const answer = await owner.rest('GET', '/api/documents');
    expect(answer.status).toBe(200);
    return answer.body.total as number;
  };
  /** The answer and what it cost: the statements sent, and whether it was read again rather than kept. */
  const measured = async () => {
    const before = { statements, read: store.counts.read };
    const value = await total();
    return { total: value, statements: statements - before.statements, read: store.counts.read - before.read };
  };

  beforeAll(async () => {
    server = await startTestServer();
    owner = (await registered(server.url)).session;
    ({ customerId } = await readyToInvoice(owner));
    organizationId = (await owner.rest('GET', '/api/auth')).body.organization.id as number;
    const kept = keptAnswersOf(server.app.deps.db);
    if (!kept) throw new Error('the server keeps no answers');
    store = kept;
    server.app.connection.pool?.on('acquire', () => statements++);
    const { env, dataDir } = testEnv({ DATABASE_URL: server.databaseUrl });
    const app = await createApp(env, { archiveOnIssue: false });
    other = { app, url: await app.listen(), dataDir };
  });
  afterAll(async () => {
    await other?.app.close();
    if (other) fs.rmSync(other.dataDir, { recursive: true, force: true });
    await server?.close();
  });

  it('answers a kept read with the session lookup alone', async () => {
    await total();
    expect(await measured()).toEqual({ total: 0, statements: 1, read: 0 });
  });

  it('sees at once a write made by another process', async () => {
    await total();
    const there = new Session(other.url);
    there.cookie = owner.cookie;
    await draft(there, { customer_id: customerId, items: [line('Atelier', 1, 90)] });
    expect(await measured()).toMatchObject({ total: 1, read: 1 });
    expect(await measured()).toEqual({ total: 1, statements: 1, read: 0 });
  });

  it('reads again once the generation moved in the database, even with no row changed', async () => {
    await total();
    await withServerDb(server, (db) =>
      sql`update data_generations set generation = generation + 1 where organization_id = ${organizationId}`.execute(db),
    );
    expect(await measured()).toMatchObject({ total: 1, read: 1 });
    await withServerDb(server, (db) => sql`update data_generations set generation = generation + 1 where organization_id = 0`.execute(db));
    expect(await measured()).toMatchObject({ total: 1, read: 1 });
    expect(await measured()).toEqual({ total: 1, statements: 1, read: 0 });
  });

  it('gives an API key the generation read with the key, as fresh', async () => {
    const created = await owner.rest('POST', '/api/api-keys', { name: 'Comptabilité', scope: 'read' });
    expect(created.status).toBe(201);
    const bearer = { authorization: `Bearer ${created.body.data.secret}` };
    const byKey = async () => {
      const before = store.counts.read;
      const answer = await owner.rest('GET', '/api/documents', undefined, bearer);
      expect(answer.status).toBe(200);
      return { total: answer.body.total as number, read: store.counts.read - before };
    };
    await byKey();
    expect(await byKey()).toEqual({ total: 1, read: 0 });
    const there = new Session(other.url);
    there.cookie = owner.cookie;
    await draft(there, { customer_id: customerId, items: [line('Atelier', 2, 90)] });
    expect(await byKey()).toEqual({ total: 2, read: 1 });
    expect(await byKey()).toEqual({ total: 2, read: 0 });
  });

  it('sees at once a row written by hand, its trigger bumping the generation', async () => {
    await total();
    await withServerDb(server, (db) => sql`delete from documents where organization_id = ${organizationId}`.execute(db));
    expect(await measured()).toMatchObject({ total: 0, read: 1 });
  });

  it('still answers once a migration changed the type of a column the session lookup reads (statement prepared before)', async () => {
    for (let i = 0; i < 3; i++) expect((await owner.rest('GET', '/api/auth')).status).toBe(200);
    await withServerDb(server, (db) => sql`alter table sessions alter column last_seen_at type varchar(64)`.execute(db));
    for (let i = 0; i < 3; i++) expect((await owner.rest('GET', '/api/auth')).status).toBe(200);
    expect(await measured()).toMatchObject({ total: 0, read: 0 });
  });
});
