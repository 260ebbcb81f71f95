import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlow, type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';
import { buildEinvoiceXml } from '../../src/server/services/einvoice-xml';
import { readCdar } from '../../src/server/einvoice/cdar-read';
import { validateCdar } from '../../src/server/einvoice/cdar-validate';

/**
 * Lifecycle messages sent through the platform's API: a buyer's Approuvée, En litige or Refusée on a supplier invoice
 * received from the fake PA, and the seller's Encaissée on a paid services invoice. Every message the fake receives is
 * checked against the CDAR schema and the BR-FR-CDV rules, and read back.
 */
let server: TestServer;
let pa: FakePa;
let flows: FakeFlowService;
let offsetMs = 0;

beforeAll(async () => {
  [server, pa] = await Promise.all([
    startTestServer({
      flows: { now: () => new Date(Date.now() + offsetMs), random: () => 0.5, timeoutMs: 1500, delays: { maxAttempts: 3 } },
    }),
    startFakePa(),
  ]);
  flows = serveFlows(pa);
});
afterEach(() => {
  pa.reset();
  flows.flows.length = 0;
});
afterAll(async () => {
  expect(pa.violations).toEqual([]);
  await Promise.all([server.close(), pa.close()]);
});

const runDue = () => server.app.flows.runDue();
const later = async () => {
  offsetMs += 2 * 3_600_000;
  await runDue();
};
const sentMessages = () => flows.flows.filter((f) => f.flowDirection === 'Out' && f.flowSyntax === 'CDAR');

async function connected(): Promise<{ session: Session; customerId: number }> {
  const { session } = await registered(server.url);
  const { customerId } = await readyToInvoice(session);
  const put = await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { session, customerId };
}

/** What the fake received, valid and read back. */
async function messageOf(flow: FakeFlow | undefined) {
  const xml = flow?.file?.data.toString('utf8') ?? '';
  expect(await validateCdar(xml)).toEqual({ problems: [], asserts: [] });
  return (await readCdar(xml))[0];
}

/** A French supplier's invoice (another organisation's CII) received from the platform: the expense it became. */
async function receivedInvoice(session: Session) {
  const supplier = await connected();
  const invoice = await issued(supplier.session, { customer_id: supplier.customerId, items: [line('Maintenance', 1, 300)] });
  const db = server.app.connection.db;
  const { organization_id: supplierOrg } = await db
    .selectFrom('documents')
    .select('organization_id')
    .where('id', '=', invoice.id)
    .executeTakeFirstOrThrow();
  const xml = await buildEinvoiceXml(db, supplierOrg, invoice.id, 'cii');
  // The supplier's own outbox has nothing to do with this test: its submission is dropped.
  await db.deleteFrom('einvoice_flows').where('document_id', '=', invoice.id).execute();
  flows.receive({ flowType: 'SupplierInvoice', data: Buffer.from(xml), name: `${invoice.number}.xml` });
  const sync = await session.rest('POST', '/api/einvoicing/sync');
  expect(sync.body.data).toMatchObject({ invoices: 1 });
  const expense = (await session.rest('GET', '/api/expenses?per_page=10')).body.data.find(
    (e: { invoice_number: string }) => e.invoice_number === invoice.number,
  );
  expect(expense).toMatchObject({ source: 'platform', supplier_siren: '552032534' });
  return { expense: expense as { id: number; invoice_number: string; date: string }, invoice };
}

describe('lifecycle messages out (CDAR D22B through POST /v1/flows)', () => {
  it('a received supplier invoice is disputed then refused, each a valid CDAR sent once; what cannot follow is refused', async () => {
    const { session } = await connected();
    const { expense } = await receivedInvoice(session);
    const path = `/api/expenses/${expense.id}/lifecycle`;
    expect((await session.rest('GET', path)).body).toEqual({ available: true, statuses: [] });

    expect(await session.rest('POST', path, { status: 'refused' })).toMatchObject({
      status: 400,
      body: { messages: 'Motif : obligatoire pour une facture refusée' },
    });
    expect(await session.rest('POST', path, { status: 'refused', reason: 'QTE_ERR' })).toMatchObject({
      status: 400,
      body: { messages: 'Motif : « QTE_ERR » n’est pas un motif de la liste de la réforme' },
    });

    const disputed = await session.rest('POST', path, { status: 'disputed', reason: 'QTE_ERR' });
    expect(disputed).toMatchObject({
      status: 200,
      body: {
        messages: 'Statut « En litige » transmis à la plateforme agréée',
        data: {
          statuses: [{ status: 'disputed', code: 207, reason_code: 'QTE_ERR', reason_label: 'Quantité erronée', state: 'submitted' }],
        },
      },
    });
    const [dispute] = sentMessages();
    expect(dispute).toMatchObject({ flowSyntax: 'CDAR', processingRule: 'B2B', flowProfile: 'Undefined' });
    expect(await messageOf(dispute)).toMatchObject({
      invoiceNumber: expense.invoice_number,
      invoiceDate: expense.date,
      issuerSiren: '552032534',
      code: 207,
      reasonCode: 'QTE_ERR',
      reason: 'Quantité erronée',
    });
    // Its acknowledgement is read later: « Déposée » on the platform.
    await later();
    expect((await session.rest('GET', path)).body.statuses).toMatchObject([{ state: 'acknowledged', flow_id: dispute?.flowId }]);

    // The same status again answers the first, sends nothing.
    expect(await session.rest('POST', path, { status: 'disputed', reason: 'PU_ERR' })).toMatchObject({
      status: 200,
      body: { messages: 'Statut « En litige » déjà transmis au fournisseur' },
    });
    expect(sentMessages()).toHaveLength(1);

    const refused = await session.rest('POST', path, { status: 'refused', reason: 'CMD_ERR' });
    expect(refused.body.data.statuses.map((s: { code: number }) => s.code)).toEqual([207, 210]);
    expect(await messageOf(sentMessages()[1])).toMatchObject({
      code: 210,
      reasonCode: 'CMD_ERR',
      reason: 'Numéro de commande erroné ou absent',
    });
    expect(await session.rest('POST', path, { status: 'approved' })).toMatchObject({
      status: 409,
      body: { messages: 'Cette facture a déjà été refusée : son statut ne change plus' },
    });
    expect(sentMessages()).toHaveLength(2);
  });

  it('an approval is a valid 205; an expense not received from the platform takes no status', async () => {
    const { session } = await connected();
    const { expense } = await receivedInvoice(session);
    const approved = await session.rest('POST', `/api/expenses/${expense.id}/lifecycle`, { status: 'approved' });
    expect(approved).toMatchObject({ status: 200, body: { data: { statuses: [{ status: 'approved', code: 205, reason_code: '' }] } } });
    expect(await messageOf(sentMessages()[0])).toMatchObject({ code: 205, reasonCode: '' });

    const manual = await session.rest('POST', '/api/expenses', {
      date: '2026-11-02',
      supplier: 'Papeterie',
      category: 'autres',
      label: 'Ramettes',
      amount: '12',
    });
    expect(manual.status).toBe(201);
    expect((await session.rest('GET', `/api/expenses/${manual.body.data.id}/lifecycle`)).body).toEqual({ available: false, statuses: [] });
    expect(await session.rest('POST', `/api/expenses/${manual.body.data.id}/lifecycle`, { status: 'approved' })).toMatchObject({
      status: 409,
      body: { messages: 'Cette dépense n’a pas été reçue de la plateforme agréée : son statut se règle directement avec le fournisseur' },
    });
  });

  it('a platform failing: the message is retried and sent once; an answer lost after it was taken is found, not resent', async () => {
    const { session } = await connected();
    const { expense } = await receivedInvoice(session);
    pa.fail({ target: 'flow', kind: 'unavailable', path: '/v1/flows', times: 1 });
    const first = await session.rest('POST', `/api/expenses/${expense.id}/lifecycle`, { status: 'disputed', reason: 'AUTRE' });
    expect(first.body.messages).toMatch(/^Statut « En litige » en attente d’envoi \(Flow Service : service indisponible \(HTTP 503\)/);
    expect(first.body.data.statuses).toMatchObject([{ state: 'pending' }]);
    expect(sentMessages()).toHaveLength(0);
    await later();
    expect(sentMessages()).toHaveLength(1);

    pa.fail({ target: 'flow', kind: 'lost-answer', path: '/v1/flows', times: 1 });
    const approved = await session.rest('POST', `/api/expenses/${expense.id}/lifecycle`, { status: 'approved' });
    expect(approved.body.data.statuses[1]).toMatchObject({ status: 'approved', state: 'pending' });
    expect(sentMessages()).toHaveLength(2);
    await later();
    await later();
    expect(sentMessages()).toHaveLength(2);
    expect((await session.rest('GET', `/api/expenses/${expense.id}/lifecycle`)).body.statuses[1]).toMatchObject({
      state: 'acknowledged',
      flow_id: sentMessages()[1]?.flowId,
    });
  });

  it('a services invoice carried by the platform sends a valid « Encaissée » (212) once fully paid, and only once', async () => {
    const { session, customerId } = await connected();
    const invoice = (await issued(session, { customer_id: customerId, items: [line('Conseil', 2, 400)] })) as {
      id: number;
      number: string;
      date: string;
    };
    await runDue();
    expect(flows.flows.filter((f) => f.flowSyntax === 'CII')).toHaveLength(1);
    const pay = (amount: number) => session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: invoice.date, amount });
    expect((await pay(500)).status).toBe(201);
    await runDue();
    expect(sentMessages()).toHaveLength(0);
    expect((await pay(460)).status).toBe(201);
    await runDue();
    const [cashed] = sentMessages();
    expect(await messageOf(cashed)).toMatchObject({
      invoiceNumber: invoice.number,
      invoiceDate: invoice.date,
      code: 212,
      issuerSiren: '552032534',
    });
    const xml = cashed?.file?.data.toString('utf8') ?? '';
    expect(xml).toContain('<ram:ValueAmount currencyID="EUR">960.00</ram:ValueAmount>');
    expect(xml).toContain('<ram:ValuePercent>20.00</ram:ValuePercent>');
    expect(xml).toContain('<ram:RoleCode>DFH</ram:RoleCode>');
    await later();
    expect(sentMessages()).toHaveLength(1);
  });

  it('an invoice the platform never carried sends no « Encaissée », though it is cashed', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = (await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 100)] })) as { id: number; date: string };
    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: invoice.date, amount: 120 })).status).toBe(201);
    await runDue();
    expect(sentMessages()).toHaveLength(0);
    expect((await session.rest('GET', `/api/documents/${invoice.id}/lifecycle`)).body.data).toMatchObject([{ status: 'cashed' }]);
  });
});
