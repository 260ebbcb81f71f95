import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';
import { customerStatus } from '../helpers/cdar';
import { OVERLAP_MS, syncOrganization } from '../../src/server/services/einvoice-inbox';

/**
 * Incoming flows from the platform's XP Z12-013 API, against the fake PA (every request and answer checked against the
 * official OpenAPI documents): supplier invoices placed on it become expenses, customers' statuses go on the
 * lifecycle of the invoice they name, and the cursor neither skips nor repeats a flow.
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
  flows.flows.length = 0;
  flows.downloads.length = 0;
});
afterAll(async () => {
  // Every request Facturier sent and every answer the fake gave conformed to the official OpenAPI documents.
  expect(pa.violations).toEqual([]);
  await Promise.all([server.close(), pa.close()]);
});

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/einvoice');
/** An official EN 16931 CII example (invoice 12115118 of De Koksmaat, 250.33 EUR). */
const supplierInvoice = () => fs.readFileSync(path.join(FIXTURES, 'cii/CII_example1.xml'));
const otherSupplierInvoice = () => fs.readFileSync(path.join(FIXTURES, 'cii/CII_example3.xml'));

const SELLER_SIREN = '552032534';

async function connected(): Promise<{ session: Session; customerId: number; organizationId: number }> {
  const { session, user } = await registered(server.url);
  const { customerId } = await readyToInvoice(session);
  const put = await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const db = server.app.connection.db;
  const row = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('memberships.organization_id')
    .where('users.email', '=', user.email)
    .executeTakeFirstOrThrow();
  return { session, customerId, organizationId: row.organization_id };
}

const sync = (session: Session) => session.rest('POST', '/api/einvoicing/sync');
const inbox = async (session: Session) => (await session.rest('GET', '/api/einvoicing/inbox')).body;
const expenses = async (session: Session) =>
  (await session.rest('GET', '/api/expenses?per_page=100')).body.data as Record<string, unknown>[];
const cursorOf = async (organizationId: number) =>
  (
    await server.app.connection.db
      .selectFrom('einvoice_inbox')
      .select('updated_after')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()
  )?.updated_after ?? null;
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const invoiceFor = (session: Session, customerId: number) =>
  issued(session, { customer_id: customerId, items: [line('Conseil', 2, 400)] }) as Promise<{ id: number; number: string; date: string }>;

describe('incoming flows (XP Z12-013 POST /v1/flows/search, GET /v1/flows/{flowId})', () => {
  it('a supplier invoice placed on the platform becomes an expense after one sync, and only once', async () => {
    const { session } = await connected();
    const placed = flows.receive({ flowType: 'SupplierInvoice', data: supplierInvoice(), name: 'FA-12115118.xml' });

    const answer = await sync(session);
    expect(answer).toMatchObject({
      status: 200,
      body: { messages: '1 facture fournisseur reçue, 0 statut enregistré', data: { invoices: 1, statuses: 0, errors: 0, duplicates: 0 } },
    });
    const list = await expenses(session);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      source: 'platform',
      invoice_number: '12115118',
      supplier: 'De Koksmaat',
      amount: 250.33,
      category_to_check: true,
      receipt: { filename: 'FA-12115118.xml', content_type: 'application/xml' },
    });
    expect(await inbox(session)).toMatchObject({
      connected: true,
      last_error: '',
      data: [{ flow_id: placed.flowId, kind: 'invoice', state: 'imported', state_label: 'Dépense créée', expense_id: list[0]?.id }],
    });

    // The next search starts before the cursor (the overlap): it sees the flow again, and passes it over.
    const again = await sync(session);
    expect(again.body.data).toEqual({ invoices: 0, statuses: 0, errors: 0, duplicates: 0 });
    expect(await expenses(session)).toHaveLength(1);
    expect(flows.downloads).toEqual([placed.flowId]);
    const searched = pa.calls.filter((c) => c.path === '/v1/flows/search');
    expect(searched).toHaveLength(2);
  });

  it('the scheduler does the same on its own', async () => {
    const { session } = await connected();
    flows.receive({ flowType: 'SupplierInvoice', data: supplierInvoice() });
    const [result] = await server.app.scheduler.runDue(['einvoice-inbox']);
    // Every organisation connected to the platform is searched (the fake serves them all the same flows).
    expect(result?.ran).toBe(true);
    expect(result?.message).toMatch(/^1 facture fournisseur reçue, 0 statut enregistré/);
    expect(await expenses(session)).toHaveLength(1);
  });

  it('a customer’s « Refusée » lands on the invoice’s lifecycle after one sync, with its reason', async () => {
    const { session, customerId } = await connected();
    const invoice = await invoiceFor(session, customerId);
    const message = flows.receive({
      flowType: 'CustomerInvoiceLC',
      data: customerStatus({
        number: invoice.number,
        date: invoice.date,
        sellerSiren: SELLER_SIREN,
        code: 210,
        label: 'Refusée',
        reasonCode: 'REF_CT',
        reason: 'Commande inconnue',
      }),
    });
    const answer = await sync(session);
    expect(answer.body).toMatchObject({ messages: '0 facture fournisseur reçue, 1 statut enregistré', data: { statuses: 1, errors: 0 } });
    const lifecycle = (await session.rest('GET', `/api/documents/${invoice.id}/lifecycle`)).body;
    expect(lifecycle.data).toMatchObject([
      {
        status: 'refused',
        code: 210,
        label: 'Refusée',
        source: 'platform',
        reason: 'Commande inconnue (motif REF_CT)',
        date: invoice.date,
      },
    ]);
    expect((await inbox(session)).data).toMatchObject([
      {
        flow_id: message.flowId,
        kind: 'status',
        state: 'applied',
        document_id: invoice.id,
        document_number: invoice.number,
        document_type: 'invoice',
        status_code: 210,
        status_label: 'Refusée',
      },
    ]);
    expect((await session.rest('GET', '/api/audit/verify')).body.ok).toBe(true);
    // Once only: the history does not take the same message twice.
    await sync(session);
    expect((await session.rest('GET', `/api/documents/${invoice.id}/lifecycle`)).body.data).toHaveLength(1);
  });

  it('a supplier flow that is no e-invoice is kept « Illisible » with its reason, never an expense, and the cursor moves on', async () => {
    const { session, organizationId } = await connected();
    const bad = flows.receive({
      flowType: 'SupplierInvoice',
      data: Buffer.from('<html><body>Bonjour</body></html>'),
      updatedAt: minutesAgo(20),
    });
    const good = flows.receive({ flowType: 'SupplierInvoice', data: supplierInvoice(), updatedAt: minutesAgo(10) });
    const answer = await sync(session);
    expect(answer.body).toMatchObject({
      messages: '1 facture fournisseur reçue, 0 statut enregistré, 1 flux à examiner',
      data: { invoices: 1, errors: 1 },
    });
    expect(await expenses(session)).toHaveLength(1);
    const received = (await inbox(session)).data as { flow_id: string; state: string; state_label: string; reason: string }[];
    const unreadable = received.find((f) => f.flow_id === bad.flowId);
    expect(unreadable).toMatchObject({ state: 'unreadable', state_label: 'Illisible', expense_id: null });
    expect(unreadable?.reason).toBe(
      'Ce XML n’est pas une facture électronique : élément racine html (attendu CrossIndustryInvoice pour CII, Invoice pour UBL)',
    );
    expect(received.find((f) => f.flow_id === good.flowId)).toMatchObject({ state: 'imported' });
    expect(await cursorOf(organizationId)).toBe(good.updatedAt);
    await sync(session);
    expect(flows.downloads).toEqual([bad.flowId, good.flowId]);
  });

  it('the same invoice received twice is refused as a duplicate, which is no error and does not hold the cursor', async () => {
    const { session, organizationId } = await connected();
    const upload = await session.rest('POST', '/api/expenses/import', {
      filename: 'facture.xml',
      content_base64: supplierInvoice().toString('base64'),
    });
    expect(upload.status).toBe(201);
    const twice = flows.receive({ flowType: 'SupplierInvoice', data: supplierInvoice(), updatedAt: minutesAgo(3) });
    const answer = await sync(session);
    expect(answer.body).toMatchObject({ data: { invoices: 0, duplicates: 1, errors: 0 } });
    expect(answer.body.messages).toBe('0 facture fournisseur reçue, 0 statut enregistré, 1 facture déjà importée');
    expect((await inbox(session)).data).toMatchObject([{ flow_id: twice.flowId, state: 'duplicate', expense_id: upload.body.data.id }]);
    expect((await inbox(session)).data[0].reason).toMatch(/^Cette facture a déjà été importée : facture n° 12115118 de De Koksmaat/);
    expect(await expenses(session)).toHaveLength(1);
    expect(await cursorOf(organizationId)).toBe(twice.updatedAt);
  });

  it('a status for an invoice that is not ours is logged and shown, and changes nothing', async () => {
    const { session, customerId } = await connected();
    const invoice = await invoiceFor(session, customerId);
    const auditBefore = (await session.rest('GET', '/api/audit')).body.total;
    const unknown = flows.receive({
      flowType: 'CustomerInvoiceLC',
      data: customerStatus({ number: 'F-INCONNUE-1', date: invoice.date, sellerSiren: SELLER_SIREN, code: 210, label: 'Refusée' }),
    });
    // Our number, another seller's SIREN: not ours either.
    const foreign = flows.receive({
      flowType: 'CustomerInvoiceLC',
      data: customerStatus({ number: invoice.number, date: invoice.date, sellerSiren: '732829320', code: 210, label: 'Refusée' }),
    });
    const answer = await sync(session);
    expect(answer.body).toMatchObject({ data: { statuses: 0, errors: 2 } });
    const received = (await inbox(session)).data as { flow_id: string }[];
    expect(received.find((f) => f.flow_id === unknown.flowId)).toMatchObject({
      state: 'unknown_invoice',
      state_label: 'Facture inconnue',
      document_id: null,
      reason: 'Aucune facture n° F-INCONNUE-1 émise par votre entreprise : le statut « Refusée » n’a été enregistré nulle part',
    });
    expect(received.find((f) => f.flow_id === foreign.flowId)).toMatchObject({ state: 'unknown_invoice' });
    expect((await session.rest('GET', `/api/documents/${invoice.id}/lifecycle`)).body.data).toEqual([]);
    expect((await session.rest('GET', '/api/audit')).body.total).toBe(auditBefore);
  });

  it('a status the history cannot take is shown with the reason, the others of the sync recorded', async () => {
    const { session, customerId } = await connected();
    const invoice = await invoiceFor(session, customerId);
    const status = (code: number, label: string, minutes: number) =>
      flows.receive({
        flowType: 'CustomerInvoiceLC',
        data: customerStatus({ number: invoice.number, date: invoice.date, sellerSiren: SELLER_SIREN, code, label }),
        updatedAt: minutesAgo(minutes),
      });
    status(213, 'Rejetée', 30);
    const late = status(205, 'Approuvée', 20);
    const unreadable = flows.receive({ flowType: 'CustomerInvoiceLC', data: Buffer.from('pas du XML'), updatedAt: minutesAgo(10) });
    const answer = await sync(session);
    expect(answer.body.data).toMatchObject({ statuses: 1, errors: 2 });
    const received = (await inbox(session)).data as { flow_id: string }[];
    expect(received.find((f) => f.flow_id === late.flowId)).toMatchObject({
      state: 'not_applied',
      reason:
        '« Approuvée » non enregistré : Cette facture a été rejetée par la plateforme : son statut ne change plus (émettez un avoir puis une facture corrigée)',
    });
    expect(received.find((f) => f.flow_id === unreadable.flowId)).toMatchObject({ state: 'unreadable' });
    expect((await session.rest('GET', `/api/documents/${invoice.id}/lifecycle`)).body.data).toMatchObject([{ status: 'rejected' }]);
  });

  it('a platform answering garbage: a clear French error, the cursor stays, and the next sync takes the flow', async () => {
    const { session, organizationId } = await connected();
    flows.receive({ flowType: 'SupplierInvoice', data: supplierInvoice() });
    pa.fail({ target: 'flow', kind: 'garbage', path: '/v1/flows/search', times: 1 });
    const answer = await sync(session);
    expect(answer.status).toBe(502);
    expect(answer.body.messages).toBe(
      'Réception interrompue (Flow Service : réponse illisible à la recherche des flux reçus (HTTP 200, pas du JSON)) : les flux suivants seront repris à la prochaine synchronisation. Déjà fait : 0 facture fournisseur reçue, 0 statut enregistré',
    );
    expect(await cursorOf(organizationId)).toBeNull();
    expect(await expenses(session)).toHaveLength(0);
    expect((await inbox(session)).last_error).toMatch(/^Réception interrompue \(Flow Service : réponse illisible/);

    const next = await sync(session);
    expect(next).toMatchObject({ status: 200, body: { data: { invoices: 1 } } });
    expect((await inbox(session)).last_error).toBe('');
  });

  it('a download that fails stops the sync on the flow before it: nothing after is skipped, nothing before repeated', async () => {
    const { session, organizationId } = await connected();
    const first = flows.receive({ flowType: 'SupplierInvoice', data: supplierInvoice(), updatedAt: minutesAgo(30) });
    const second = flows.receive({ flowType: 'SupplierInvoice', data: otherSupplierInvoice(), updatedAt: minutesAgo(20) });
    pa.fail({ target: 'flow', kind: 'unavailable', path: `/v1/flows/${second.flowId}`, times: 1 });
    const answer = await sync(session);
    expect(answer.status).toBe(502);
    expect(answer.body.messages).toMatch(/^Réception interrompue \(Flow Service : service indisponible \(HTTP 503\)/);
    expect(answer.body.messages).toMatch(/Déjà fait : 1 facture fournisseur reçue/);
    expect(await cursorOf(organizationId)).toBe(first.updatedAt);
    expect(await expenses(session)).toHaveLength(1);

    expect((await sync(session)).body.data).toMatchObject({ invoices: 1 });
    expect((await expenses(session)).map((e) => e.invoice_number).sort()).toEqual(['12115118', 'TOSL108']);
    expect(flows.downloads).toEqual([first.flowId, second.flowId]);
    expect(pa.calls.filter((c) => c.path === `/v1/flows/${second.flowId}`).map((c) => c.status)).toEqual([503, 200]);
    expect(await cursorOf(organizationId)).toBe(second.updatedAt);
  });

  it('a flow whose file the platform no longer gives is kept « Illisible » and does not hold the others back', async () => {
    const { session } = await connected();
    const gone = flows.seed({ trackingId: 'supplier-gone', flowDirection: 'In', flowType: 'SupplierInvoice', updatedAt: minutesAgo(5) });
    flows.receive({ flowType: 'SupplierInvoice', data: supplierInvoice(), updatedAt: minutesAgo(4) });
    expect((await sync(session)).body.data).toMatchObject({ invoices: 1, errors: 1 });
    const received = (await inbox(session)).data as { flow_id: string }[];
    expect(received.find((f) => f.flow_id === gone.flowId)).toMatchObject({
      state: 'unreadable',
      reason: 'La plateforme ne trouve plus le fichier de ce flux (HTTP 404)',
    });
  });

  it('flows still being checked by the platform wait; a flow updated inside the overlap is not missed', async () => {
    const { session, organizationId } = await connected();
    const pending = flows.receive({
      flowType: 'SupplierInvoice',
      data: supplierInvoice(),
      ack: { status: 'Pending' },
      updatedAt: minutesAgo(2),
    });
    expect((await sync(session)).body.data).toMatchObject({ invoices: 0 });
    expect(await cursorOf(organizationId)).toBe(pending.updatedAt);
    // The platform accepts it: its updatedAt moves, and the next sync takes it.
    pending.ack = { status: 'Ok' };
    pending.updatedAt = minutesAgo(1);
    // A flow committed late on the platform's side, dated before the cursor but within the overlap.
    const late = flows.receive({
      flowType: 'SupplierInvoice',
      data: otherSupplierInvoice(),
      updatedAt: new Date(Date.parse(pending.updatedAt) - OVERLAP_MS / 2).toISOString(),
    });
    expect((await sync(session)).body.data).toMatchObject({ invoices: 2 });
    expect(flows.downloads).toEqual([late.flowId, pending.flowId]);
  });

  it('pages are followed to the end of the search', async () => {
    const { session, organizationId } = await connected();
    const statuses = [];
    for (let i = 0; i < 105; i++)
      statuses.push(
        flows.receive({
          flowType: 'CustomerInvoiceLC',
          data: customerStatus({ number: `F-AUTRE-${i}`, date: '2026-01-05', sellerSiren: SELLER_SIREN, code: 210, label: 'Refusée' }),
          updatedAt: new Date(Date.now() - (200 - i) * 1000).toISOString(),
        }),
      );
    const answer = await sync(session);
    expect(answer.body.data).toMatchObject({ errors: 105 });
    expect(pa.calls.filter((c) => c.path === '/v1/flows/search')).toHaveLength(2);
    expect(await cursorOf(organizationId)).toBe(statuses.at(-1)?.updatedAt);
    expect(flows.downloads).toHaveLength(105);
  });

  it('two processes syncing at once, and one that crashed holding the search: each flow handled once', async () => {
    const { session, organizationId } = await connected();
    for (const data of [supplierInvoice(), otherSupplierInvoice()]) flows.receive({ flowType: 'SupplierInvoice', data });
    const deps = { db: server.app.connection.db, env: server.app.deps.env };
    const outcomes = await Promise.all([syncOrganization(deps, organizationId), syncOrganization(deps, organizationId), sync(session)]);
    expect(
      outcomes.filter((o) => o === 'busy' || (typeof o === 'object' && 'status' in o && o.status === 409)).length,
    ).toBeGreaterThanOrEqual(1);
    expect(await expenses(session)).toHaveLength(2);
    expect(flows.downloads).toHaveLength(2);

    // A process killed during a search: its lease holds others off until it lapses, then the next one goes on.
    flows.receive({ flowType: 'SupplierInvoice', data: fs.readFileSync(path.join(FIXTURES, 'cii/CII_example4.xml')) });
    const db = server.app.connection.db;
    await db
      .updateTable('einvoice_inbox')
      .set({ lease_holder: 'dead-process', lease_until: new Date(Date.now() + 60_000).toISOString() })
      .where('organization_id', '=', organizationId)
      .execute();
    expect(await sync(session)).toMatchObject({
      status: 409,
      body: { messages: 'Une synchronisation est déjà en cours : réessayez dans un instant' },
    });
    await db
      .updateTable('einvoice_inbox')
      .set({ lease_until: minutesAgo(1) })
      .where('organization_id', '=', organizationId)
      .execute();
    expect((await sync(session)).body.data).toMatchObject({ invoices: 1 });
    expect(await expenses(session)).toHaveLength(3);
  });

  it('without a platform connection, « Synchroniser » says what to set up', async () => {
    const { session } = await registered(server.url);
    expect(await inbox(session)).toEqual({ connected: false, last_sync_at: null, last_error: '', data: [] });
    expect(await sync(session)).toMatchObject({
      status: 409,
      body: {
        messages:
          'Aucune plateforme agréée n’est configurée : choisissez « Plateforme agréée (API AFNOR XP Z12-013) » dans Paramètres → Facturation électronique',
      },
    });
  });
});
