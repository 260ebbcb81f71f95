import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, spawnBuiltServer, stopBuiltServer } from '../helpers/built-server';
import { registered, Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { withServerDb } from '../helpers/database';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';
import { removeTestEnv, testEnv } from '../helpers/server';

/**
 * kill -9 of the process users run (the built dist/server/main.js) while it submits an invoice to the platform: the
 * platform took the flow but its answer never came back before the process died. The next process must find that flow
 * by its trackingId and adopt it: the invoice is on the platform once, and recorded as such.
 */
describe('kill -9 during a submission to the platform', () => {
  const setup = testEnv();
  const vars = { ...setup.vars, NODE_ENV: 'production' };
  let pa: FakePa;
  let flows: FakeFlowService;
  let server: BuiltServer | undefined;
  beforeAll(async () => {
    pa = await startFakePa();
    flows = serveFlows(pa);
  });
  afterAll(async () => {
    if (server) await stopBuiltServer(server);
    expect(pa.violations).toEqual([]);
    await pa.close();
    removeTestEnv(setup.env, setup.dataDir);
  });

  const posts = () => pa.calls.filter((c) => c.method === 'POST' && c.path === '/v1/flows');
  const transmission = async (session: Session, id: number) =>
    (await session.rest('GET', `/api/documents/${id}/lifecycle`)).body.transmission;

  it('loses nothing and doubles nothing', { timeout: 240_000 }, async () => {
    server = await spawnBuiltServer(vars);
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    expect((await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa))).status).toBe(200);

    // The platform takes the flow and never answers: the process is killed while it waits.
    pa.fail({ target: 'flow', kind: 'lost-answer', path: '/v1/flows', times: 1 });
    const invoice = (await issued(session, { customer_id: customerId, items: [line('Conseil', 2, 400)] })) as { id: number; uuid: string };
    await expect.poll(() => flows.ofTracking(invoice.uuid).length, { timeout: 30_000, interval: 50 }).toBe(1);
    server.child.kill('SIGKILL');
    await server.exited;
    server = undefined;

    const row = await withServerDb(setup, (db) =>
      db
        .selectFrom('einvoice_flows')
        .select(['state', 'uncertain', 'flow_id', 'lease_holder'])
        .where('document_id', '=', invoice.id)
        .executeTakeFirstOrThrow(),
    );
    // Nothing recorded as submitted that the platform did not acknowledge; the doubt is on the row.
    expect(row).toMatchObject({ state: 'pending', uncertain: 1, flow_id: null });
    expect(row.lease_holder).not.toBeNull();
    // The dead holder's lease lapses (five minutes): moved here rather than waited for.
    await withServerDb(setup, (db) =>
      db
        .updateTable('einvoice_flows')
        .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
        .where('document_id', '=', invoice.id)
        .execute(),
    );

    server = await spawnBuiltServer(vars);
    // The same session: it lives in the database, not in the process.
    const again = new Session(server.url);
    again.cookie = session.cookie;
    await expect
      .poll(async () => (await transmission(again, invoice.id))?.state, { timeout: 60_000, interval: 200 })
      .toMatch(/^(submitted|acknowledged)$/);
    const [flow] = flows.ofTracking(invoice.uuid);
    expect(await transmission(again, invoice.id)).toMatchObject({ flow_id: flow?.flowId });
    expect(flows.ofTracking(invoice.uuid)).toHaveLength(1);
    expect(posts()).toHaveLength(1);
    expect(pa.calls.some((c) => c.path === '/v1/flows/search')).toBe(true);
  });
});
