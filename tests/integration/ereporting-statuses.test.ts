import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, sellerIdentity } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';

/**
 * The platform's later answer to an e-reporting flow (Flux 10): a report submitted and still being checked is
 * « Déposée »; the incoming synchronisation (« Synchroniser », the scheduler's job) reads its acknowledgement once the
 * platform and the PPF have settled it, Accepted or Rejected with the reasons in French, never twice; a rejected report
 * is sent again; an answer about a flow that is none of the organisation's reports changes nothing and is shown.
 */
let server: TestServer;
let pa: FakePa;
let flows: FakeFlowService;

beforeAll(async () => {
  [server, pa] = await Promise.all([startTestServer(), startFakePa()]);
  flows = serveFlows(pa);
});
afterEach(() => {
  pa.reset();
  flows.acks.length = 0;
  flows.flows.length = 0;
});
afterAll(async () => {
  expect(pa.violations).toEqual([]);
  await Promise.all([server.close(), pa.close()]);
});

async function connected(): Promise<Session> {
  const { session } = await registered(server.url);
  expect((await session.rest('PUT', '/api/organization', sellerIdentity)).status).toBe(200);
  expect((await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa))).status).toBe(200);
  return session;
}

type Row = { period: string; kind: string; status: string; errors: string[]; flow_id: string | null; version: number | null };
const october = async (session: Session) =>
  ((await session.rest('GET', '/api/ereporting?year=2026')).body.data as Row[]).find(
    (r) => r.period === '2026-10' && r.kind === 'transactions',
  );
const sync = async (session: Session) => {
  const answer = await session.rest('POST', '/api/einvoicing/sync');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { invoices: number; statuses: number; errors: number; duplicates: number };
};

describe('e-reporting statuses read from the platform', () => {
  it('a deposited report becomes rejected with its reasons in French, is resent, then accepted; each answer is read once', async () => {
    const session = await connected();
    const person = await session.rest('POST', '/api/customers', {
      type: 'individual',
      name: 'Jeanne Petit',
      address: { line1: '8 rue Victor Hugo', postal_code: '69002', city: 'Lyon' },
    });
    await issued(session, { date: '2026-10-06', customer_id: person.body.data.id, items: [line('Cours de pâtisserie', 1, 60, 20)] });

    // Submitted: the platform is still checking it.
    flows.acks.push({ status: 'Pending' });
    const sent = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'transactions' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ ack_status: 'Pending', version: 1, type_code: 'IN' });
    const flowId = sent.body.data.flow_id as string;
    expect(flows.flows.find((f) => f.flowId === flowId)?.flowType).toBe('AggregatedCustomerTransactionReport');
    expect(await october(session)).toMatchObject({ status: 'pending', flow_id: flowId });

    // Nothing settled yet: the synchronisation records nothing.
    expect(await sync(session)).toMatchObject({ statuses: 0, errors: 0 });
    expect(await october(session)).toMatchObject({ status: 'pending' });

    // The PPF rejects it on a Flux 10 rule.
    flows.settle(flowId, {
      status: 'Error',
      details: [
        {
          level: 'Error',
          item: '/Report/TransactionsReport/Transactions[1]/TaxSubtotal[1]/TaxPercent',
          reasonCode: 'REJ_SEMAN',
          reasonMessage: '[G1.24] Le taux de TVA des transactions n’est pas dans la liste autorisée.',
        },
      ],
    });
    expect(await sync(session)).toMatchObject({ statuses: 1, errors: 0 });
    const rejected = await october(session);
    expect(rejected).toMatchObject({ status: 'rejected', flow_id: flowId, version: 1 });
    expect(rejected?.errors).toEqual([
      'Une règle de gestion Flux 10 n’est pas respectée : [G1.24] Le taux de TVA des transactions n’est pas dans la liste autorisée.',
    ]);
    const inbox = await session.rest('GET', '/api/einvoicing/inbox');
    expect(inbox.body.data[0]).toMatchObject({ kind: 'report', flow_id: flowId, state: 'applied', state_label: 'Statut enregistré' });
    expect(inbox.body.data[0].reason).toContain('Déclaration 2026-10 (Ventes aux particuliers (10.3)), version 1 : rejetée');

    // Read once: the same answer found again (the search's overlap) changes nothing.
    expect(await sync(session)).toMatchObject({ statuses: 0, errors: 0 });

    // Resent: a rejected report was never received, so it goes again as an initial one, in the next version.
    flows.acks.push({ status: 'Pending' });
    const again = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'transactions' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ ack_status: 'Pending', version: 2, type_code: 'IN' });
    expect(await october(session)).toMatchObject({ status: 'pending', version: 2, errors: [] });
    flows.settle(again.body.data.flow_id, { status: 'Ok' });
    expect(await sync(session)).toMatchObject({ statuses: 1 });
    expect(await october(session)).toMatchObject({ status: 'accepted', version: 2, errors: [] });
    const overview = await session.rest('GET', '/api/einvoicing/overview');
    expect(overview.body.data).toContainEqual(
      expect.objectContaining({ group: 'reported', target: { kind: 'ereporting', period: '2026-10' }, state: 'Acceptée' }),
    );
  }, 180_000);

  it('an answer about a flow that is none of our reports is logged and shown, and changes nothing', async () => {
    const session = await connected();
    const person = await session.rest('POST', '/api/customers', {
      type: 'individual',
      name: 'Paul Durand',
      address: { line1: '3 place Bellecour', postal_code: '69002', city: 'Lyon' },
    });
    await issued(session, { date: '2026-10-07', customer_id: person.body.data.id, items: [line('Stage', 1, 100, 10)] });
    flows.acks.push({ status: 'Pending' });
    const sent = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'transactions' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const before = await october(session);

    const stranger = flows.seed({
      trackingId: 'ereporting-not-ours',
      flowDirection: 'Out',
      flowType: 'UnitaryCustomerTransactionReport',
      processingRule: 'B2BInt',
      flowSyntax: 'FRR',
      ack: { status: 'Error', details: [{ level: 'Error', item: 'Report', reasonCode: 'REJ_UNI', reasonMessage: '' }] },
    });
    // Our own invoices' flows found by the same search are passed over.
    flows.seed({ trackingId: 'an-invoice-of-ours', flowDirection: 'Out', flowType: 'SupplierInvoice' });
    expect(await sync(session)).toMatchObject({ statuses: 0, errors: 1, invoices: 0 });
    expect(await october(session)).toEqual(before);
    const inbox = await session.rest('GET', '/api/einvoicing/inbox');
    const shown = inbox.body.data.find((f: { flow_id: string }) => f.flow_id === stranger.flowId);
    expect(shown).toMatchObject({ kind: 'report', state: 'not_applied', state_label: 'Statut non enregistré' });
    expect(shown.reason).toContain(`Aucune déclaration e-reporting de votre entreprise ne correspond au flux ${stranger.flowId}`);
    expect(inbox.body.data).toHaveLength(1);
    // Shown at a glance among what needs the user.
    const overview = await session.rest('GET', '/api/einvoicing/overview');
    expect(overview.body.data).toContainEqual(
      expect.objectContaining({ group: 'needs_user', state: 'Statut non enregistré', title: expect.stringContaining('e-reporting') }),
    );
  }, 120_000);
});
