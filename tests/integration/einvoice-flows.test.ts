import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { keepPdf } from '../helpers/kept-pdf';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';
import { FLOW_REASONS } from '../../src/shared/einvoice-flows';
import { FlowOutbox } from '../../src/server/services/einvoice-outbox';
import { buildEinvoiceXml } from '../../src/server/services/einvoice-xml';

/**
 * Outgoing flows through the platform's XP Z12-013 API, against the fake PA (every request and answer checked against
 * the official OpenAPI documents). The outbox's clock is this file's: a retry is made due by moving it, never by
 * waiting; only the timeout case waits, for the shortened call timeout.
 */
let server: TestServer;
let pa: FakePa;
let flows: FakeFlowService;
let offsetMs = 0;
const advance = (ms: number) => {
  offsetMs += ms;
};
const TIMEOUT_MS = 1500;

beforeAll(async () => {
  [server, pa] = await Promise.all([
    startTestServer({
      flows: { now: () => new Date(Date.now() + offsetMs), random: () => 0.5, timeoutMs: TIMEOUT_MS, delays: { maxAttempts: 3 } },
    }),
    startFakePa(),
  ]);
  flows = serveFlows(pa);
});
afterEach(() => {
  pa.reset();
});
afterAll(async () => {
  // Every request Facturier sent and every answer the fake gave conformed to the official OpenAPI documents.
  expect(pa.violations).toEqual([]);
  await Promise.all([server.close(), pa.close()]);
});

const runDue = () => server.app.flows.runDue();
const posts = () => pa.calls.filter((c) => c.service === 'flow' && c.method === 'POST' && c.path === '/v1/flows');
const searches = () => pa.calls.filter((c) => c.path === '/v1/flows/search');

async function connected(syntax: 'cii' | 'factur-x' | 'ubl' = 'cii'): Promise<{ session: Session; customerId: number }> {
  const { session } = await registered(server.url);
  const { customerId } = await readyToInvoice(session);
  const settings = fakePaSettings(pa, syntax);
  const put = await session.rest('PUT', '/api/settings/einvoicing', settings);
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { session, customerId };
}

const invoiceFor = (session: Session, customerId: number) =>
  issued(session, { customer_id: customerId, items: [line('Conseil', 2, 400)] }) as Promise<{ id: number; uuid: string; number: string }>;

const lifecycle = async (session: Session, id: number) => (await session.rest('GET', `/api/documents/${id}/lifecycle`)).body;
const transmission = async (session: Session, id: number) => (await lifecycle(session, id)).transmission;

/** Past every backoff and acknowledgement wait the outbox may have set. */
const later = async () => {
  advance(2 * 3_600_000);
  await runDue();
};

describe('outgoing flows (XP Z12-013 POST /v1/flows)', () => {
  it('issuing an invoice to a French business submits it in the background, once; its acknowledgement makes it « Déposée »', async () => {
    server.app.flows.start();
    try {
      const { session, customerId } = await connected();
      const invoice = await invoiceFor(session, customerId);
      await expect.poll(() => transmission(session, invoice.id), { timeout: 20_000, interval: 50 }).toMatchObject({ state: 'submitted' });
      const [flow] = flows.ofTracking(invoice.uuid);
      expect(flow).toMatchObject({ processingRule: 'B2B', flowSyntax: 'CII', flowProfile: 'CIUS', name: `${invoice.number}-cii.xml` });
      expect(flow?.file?.contentType).toBe('application/xml');
      expect(flow?.file?.data.toString('utf8')).toContain(`<ram:ID>${invoice.number}</ram:ID>`);
      expect(flow?.sha256).toBe(
        crypto
          .createHash('sha256')
          .update(flow?.file?.data ?? '')
          .digest('hex'),
      );
      expect(flow?.requestId).toMatch(/^[0-9a-f-]{36}$/);

      // The acknowledgement is read at its due time: the loop is woken after the clock moved.
      advance(60_000);
      server.app.flows.kick();
      await expect
        .poll(() => transmission(session, invoice.id), { timeout: 20_000, interval: 50 })
        .toMatchObject({
          state: 'acknowledged',
          state_label: 'Déposée',
          flow_id: flow?.flowId,
          ack_status: 'Ok',
          reasons: [],
        });
      const answer = await lifecycle(session, invoice.id);
      expect(answer.data).toMatchObject([{ status: 'deposited', label: 'Déposée', source: 'platform' }]);
      // The document's own answer carries it too.
      expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body.einvoice).toEqual({
        state: 'acknowledged',
        flow_id: flow?.flowId,
        ack_status: 'Ok',
        lifecycle: [{ code: 200, label: 'Déposée', date: answer.data[0].date }],
      });
      expect(posts()).toHaveLength(1);

      const log = (await session.rest('GET', '/api/audit')).body.data as { event: string; content: Record<string, unknown> }[];
      expect(log.find((e) => e.event === 'einvoice_send')?.content.submission).toEqual({
        platform: 'API XP Z12-013',
        reference: flow?.flowId,
        files: [{ name: `${invoice.number}-cii.xml`, sha256: flow?.sha256 }],
      });
      expect((await session.rest('GET', '/api/audit/verify')).body.ok).toBe(true);

      // A second « Transmettre » answers the first flow and sends nothing.
      const again = await session.rest('POST', `/api/documents/${invoice.id}/transmit`);
      expect(again).toMatchObject({
        status: 200,
        body: {
          messages: `Déjà déposée sur la plateforme agréée (flux ${flow?.flowId})`,
          data: { flow_id: flow?.flowId, ack_status: 'Ok' },
        },
      });
      expect(posts()).toHaveLength(1);
    } finally {
      await server.app.flows.stop();
    }
  });

  it('a credit note goes as Factur-X, its archived PDF; a sale to an individual is not queued', async () => {
    const { session, customerId } = await connected('factur-x');
    const invoice = await invoiceFor(session, customerId);
    const convert = await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' });
    const issue = await session.rest('POST', `/api/documents/${convert.body.data.id}/issue`);
    expect(issue.status).toBe(200);
    const credit = issue.body.data;
    const [invoicePdf, creditPdf] = [await keepPdf(server, invoice.id), await keepPdf(server, credit.id)];
    await runDue();
    expect(flows.ofTracking(credit.uuid)[0]).toMatchObject({ flowSyntax: 'Factur-X', flowProfile: 'CIUS' });
    expect(flows.ofTracking(credit.uuid)[0]?.file?.contentType).toBe('application/pdf');
    expect(flows.ofTracking(credit.uuid)[0]?.file?.data.equals(creditPdf)).toBe(true);
    expect(flows.ofTracking(invoice.uuid)[0]?.file?.data.equals(invoicePdf)).toBe(true);

    const individual = (
      await session.rest('POST', '/api/customers', {
        name: 'Jeanne Martin',
        type: 'individual',
        address: { line1: '8 rue Neuve', postal_code: '33000', city: 'Bordeaux' },
      })
    ).body.data;
    const sale = await issued(session, { customer_id: individual.id, items: [line('Cours', 1, 50)] });
    expect(await transmission(session, sale.id)).toBeNull();
    expect((await session.rest('GET', `/api/documents/${sale.id}`)).body.einvoice).toBeNull();
    expect(await session.rest('POST', `/api/documents/${sale.id}/transmit`)).toMatchObject({
      status: 409,
      body: { messages: 'Ce client n’a pas de SIREN : une vente à un particulier relève du e-reporting, pas du dépôt sur la plateforme' },
    });
  });

  it('a 429 is retried after its Retry-After, not before', async () => {
    const { session, customerId } = await connected();
    pa.fail({ target: 'flow', kind: 'throttled', retryAfter: 120, times: 1, path: '/v1/flows' });
    const invoice = await invoiceFor(session, customerId);
    const before = Date.now() + offsetMs;
    await runDue();
    const waiting = await transmission(session, invoice.id);
    expect(waiting).toMatchObject({ state: 'pending', state_label: 'En attente d’envoi', attempts: 1, flow_id: null });
    expect(waiting.error).toBe('Flow Service : trop de requêtes (HTTP 429) (code TOO_MANY_REQUESTS), réessayez dans 120 s');
    const due = Date.parse(waiting.next_attempt_at) - before;
    expect(due).toBeGreaterThanOrEqual(120_000);
    expect(due).toBeLessThan(125_000);

    advance(60_000);
    await runDue();
    expect(posts()).toHaveLength(1);
    advance(61_000);
    await runDue();
    expect(posts()).toHaveLength(2);
    expect(await transmission(session, invoice.id)).toMatchObject({ state: 'submitted', error: '' });
    await later();
    expect(await transmission(session, invoice.id)).toMatchObject({ state: 'acknowledged', ack_status: 'Ok' });
  });

  it('a 503 is retried after a jittered backoff; repeated 5xx end « À renvoyer », and « Renvoyer » asks the platform first', async () => {
    const { session, customerId } = await connected();
    pa.fail({ target: 'flow', kind: 'unavailable', times: 1, path: '/v1/flows' });
    const invoice = await invoiceFor(session, customerId);
    const before = Date.now() + offsetMs;
    await runDue();
    // 30 s doubled 0 times, half of it fixed and half random (0.5 here): 22.5 s.
    const wait = Date.parse((await transmission(session, invoice.id)).next_attempt_at) - before;
    expect(wait).toBeGreaterThanOrEqual(22_500);
    expect(wait).toBeLessThan(25_000);
    advance(23_000);
    await runDue();
    expect(await transmission(session, invoice.id)).toMatchObject({ state: 'submitted', attempts: 1 });

    expect(searches()).toHaveLength(0);

    // A 500 may have been preceded by the flow's creation: each retry asks by trackingId before posting again.
    pa.reset();
    const second = await invoiceFor(session, customerId);
    pa.fail({ target: 'flow', kind: 'server-error', path: '/v1/flows' });
    for (let i = 0; i < 3; i++) await later();
    const given = await transmission(session, second.id);
    expect(given).toMatchObject({ state: 'to_resend', state_label: 'À renvoyer', attempts: 3, next_attempt_at: null });
    expect(given.error).toBe(
      'toujours en échec après 3 essais (Flow Service : erreur de la plateforme (HTTP 500) (code INTERNAL_ERROR), réessayez plus tard) : renvoyez-la quand la plateforme répondra',
    );
    await later();
    expect(posts()).toHaveLength(3);
    expect(searches()).toHaveLength(2);

    pa.reset();
    const resent = await session.rest('POST', `/api/documents/${second.id}/transmit`);
    expect(resent.status).toBe(200);
    expect(resent.body.data).toMatchObject({ state: 'submitted', attempts: 0 });
    expect(resent.body.messages).toBe(
      `Transmise à la plateforme agréée (flux ${resent.body.data.flow_id}), en attente de son accusé de réception`,
    );
    expect(searches()).toHaveLength(1);
    expect(posts()).toHaveLength(1);
  });

  it('a 422 with its reason code is not retried: refused, said in French, the raw code kept', async () => {
    const { session, customerId } = await connected();
    flows.refusals.push({
      status: 422,
      body: { errorCode: 'InvalidSchema', errorMessage: 'Invalid XML', details: 'cvc-complex-type.2.4.a: BT-23 expected' },
    });
    const invoice = await invoiceFor(session, customerId);
    await runDue();
    await later();
    expect(posts()).toHaveLength(1);
    const refused = await transmission(session, invoice.id);
    expect(refused).toMatchObject({
      state: 'error',
      state_label: 'Refusée par la plateforme',
      ack_status: 'Error',
      flow_id: null,
      next_attempt_at: null,
      reasons: [
        {
          code: 'InvalidSchema',
          platform_message: 'cvc-complex-type.2.4.a: BT-23 expected',
          level: 'Error',
          message: FLOW_REASONS.InvalidSchema,
        },
      ],
    });
    expect((await lifecycle(session, invoice.id)).data).toEqual([]);
  });

  it('an acknowledgement in Error shows each reason in French; « Renvoyer » makes a new flow', async () => {
    const { session, customerId } = await connected();
    flows.acks.push({
      status: 'Error',
      details: [
        { level: 'Error', item: 'BT-48', reasonCode: 'InvoiceLCAmountError', reasonMessage: 'VAT mismatch' },
        { level: 'Warning', item: 'BT-1', reasonCode: 'X-LOCAL-42', reasonMessage: 'Numéro inhabituel' },
      ],
    });
    const invoice = await invoiceFor(session, customerId);
    await runDue();
    await later();
    const [first] = flows.ofTracking(invoice.uuid);
    expect(await transmission(session, invoice.id)).toMatchObject({
      state: 'error',
      ack_status: 'Error',
      flow_id: first?.flowId,
      reasons: [
        { code: 'InvoiceLCAmountError', item: 'BT-48', level: 'Error', message: FLOW_REASONS.InvoiceLCAmountError },
        { code: 'X-LOCAL-42', item: 'BT-1', level: 'Warning', message: 'Numéro inhabituel (code X-LOCAL-42)' },
      ],
    });

    const resent = await session.rest('POST', `/api/documents/${invoice.id}/transmit`);
    expect(resent.status).toBe(200);
    const [, second] = flows.ofTracking(invoice.uuid);
    // The refused flow stays refused on the platform; the new one has its own id.
    expect(resent.body.data).toMatchObject({ state: 'submitted', flow_id: second?.flowId, ack_status: 'Pending', reasons: [] });
    await later();
    expect(await transmission(session, invoice.id)).toMatchObject({ state: 'acknowledged', flow_id: second?.flowId });
  });

  it('a timeout after the platform took the flow: the retry finds it by trackingId and does not post it twice; so does a crash', async () => {
    const { session, customerId } = await connected();
    pa.fail({ target: 'flow', kind: 'lost-answer', times: 1, path: '/v1/flows' });
    const invoice = await invoiceFor(session, customerId);
    await runDue();
    const lost = await transmission(session, invoice.id);
    expect(lost).toMatchObject({ state: 'pending', flow_id: null, attempts: 1 });
    expect(lost.error).toBe(`Flow Service : pas de réponse en ${Math.round(TIMEOUT_MS / 1000)} s`);
    expect(flows.ofTracking(invoice.uuid)).toHaveLength(1);

    await later();
    expect(posts()).toHaveLength(1);
    expect(searches()).toHaveLength(1);
    expect(await transmission(session, invoice.id)).toMatchObject({
      state: 'acknowledged',
      flow_id: flows.ofTracking(invoice.uuid)[0]?.flowId,
    });
    expect(flows.ofTracking(invoice.uuid)).toHaveLength(1);

    // A process killed between its POST and writing the answer: its lease lapses, and the next one asks first.
    pa.reset();
    const crashed = await invoiceFor(session, customerId);
    flows.seed({ trackingId: crashed.uuid });
    await server.app.connection.db
      .updateTable('einvoice_flows')
      .set({ uncertain: 1, lease_holder: 'dead-process', lease_until: new Date(Date.now() + offsetMs + 60_000).toISOString() })
      .where('tracking_id', '=', crashed.uuid)
      .execute();
    await runDue();
    expect(pa.calls).toEqual([]);
    await later();
    expect(posts()).toHaveLength(0);
    expect(await transmission(session, crashed.id)).toMatchObject({
      state: 'acknowledged',
      flow_id: flows.ofTracking(crashed.uuid)[0]?.flowId,
    });
  });

  it('two processes working the same outbox submit each document once', async () => {
    const { session, customerId } = await connected();
    const invoices = [await invoiceFor(session, customerId), await invoiceFor(session, customerId)];
    // A second process: its own outbox (its own holder) on the same database.
    const other = new FlowOutbox(
      {
        db: server.app.connection.db,
        env: server.app.deps.env,
        xml: (organizationId, documentId, syntax) => buildEinvoiceXml(server.app.connection.db, organizationId, documentId, syntax),
        pdf: server.app.deps.einvoice.pdf,
      },
      { now: () => new Date(Date.now() + offsetMs) },
    );
    await Promise.all([runDue(), other.runDue(), runDue(), other.runDue()]);
    for (const invoice of invoices) expect(flows.ofTracking(invoice.uuid)).toHaveLength(1);
    expect(posts()).toHaveLength(2);
  });

  it('a platform answering garbage leaves the invoice « À renvoyer » with the reason, nothing marked sent', async () => {
    const { session, customerId } = await connected();
    pa.fail({ target: 'flow', kind: 'garbage', status: 202, times: 1, path: '/v1/flows' });
    const invoice = await invoiceFor(session, customerId);
    await runDue();
    await later();
    const garbage = await transmission(session, invoice.id);
    expect(garbage).toMatchObject({ state: 'to_resend', flow_id: null, ack_status: 'Pending' });
    expect(garbage.error).toBe(
      'Flow Service : réponse illisible à l’envoi de la facture (HTTP 202, pas du JSON) : rien n’est tenu pour déposé, renvoyez-la',
    );
    expect((await lifecycle(session, invoice.id)).data).toEqual([]);
    expect(posts()).toHaveLength(1);

    const resent = await session.rest('POST', `/api/documents/${invoice.id}/transmit`);
    expect(resent.body.data).toMatchObject({ state: 'submitted' });
    expect(searches()).toHaveLength(1);
    expect(posts()).toHaveLength(2);
  });

  it('a trackingId the platform already holds is not submitted again: its flow is adopted', async () => {
    const { session, customerId } = await connected();
    const created = await draft(session, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    const held = flows.seed({ trackingId: created.uuid });
    const issue = await session.rest('POST', `/api/documents/${created.id}/issue`);
    expect(issue.status).toBe(200);
    await runDue();
    expect(posts()).toHaveLength(1);
    expect(flows.ofTracking(created.uuid)).toHaveLength(1);
    expect(await transmission(session, created.id)).toMatchObject({ state: 'acknowledged', flow_id: held.flowId, ack_status: 'Ok' });
    expect((await lifecycle(session, created.id)).data).toMatchObject([{ status: 'deposited', source: 'platform' }]);
  });

  it('« Déposer sur la plateforme » goes through the API for an invoice issued before the switch to it', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await invoiceFor(session, customerId);
    expect(await transmission(session, invoice.id)).toBeNull();
    const settings = fakePaSettings(pa, 'ubl');
    expect((await session.rest('PUT', '/api/settings/einvoicing', settings)).status).toBe(200);
    const sent = await session.rest('POST', `/api/documents/${invoice.id}/einvoice/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.data.transmission).toMatchObject({ state: 'submitted', syntax: 'UBL', profile: 'CIUS' });
    expect(sent.body.messages).toMatch(/^Transmise à la plateforme agréée \(flux flow-/);
    expect(flows.ofTracking(invoice.uuid)[0]?.file?.data.toString('utf8')).toContain('<Invoice xmlns=');
  });

  it('« Transmettre » refuses what is not an issued invoice or credit note, and another organisation’s document', async () => {
    const { session, customerId } = await connected();
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Devis', 1, 10)] });
    expect(await session.rest('POST', `/api/documents/${estimate.id}/transmit`)).toMatchObject({
      status: 409,
      body: { messages: 'Seules les factures et les avoirs ont un cycle de vie de facture électronique' },
    });
    const invoice = await invoiceFor(session, customerId);
    const other = (await registered(server.url)).session;
    expect(await other.rest('POST', `/api/documents/${invoice.id}/transmit`)).toMatchObject({
      status: 404,
      body: { messages: 'Document introuvable' },
    });
  });
});
