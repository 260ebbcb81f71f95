import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, issued, line, sellerIdentity } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';
import { type FakeDirectory, serveDirectory } from '../helpers/fake-pa-directory';
import { flux10Valid, validateFlux10 } from '../../src/server/einvoice/flux10-validate';

/**
 * The reform's directory (a customer's SIREN in the platform's Directory Service) and e-reporting (Flux 10.3: a
 * month of B2C sales aggregated per day and rate, checked against the PPF's schema and schematron, submitted as a
 * flow), against the fake platform, which checks every request and answer against the official OpenAPI documents
 * and every e-reporting file against the Flux 10 artefacts.
 */
let server: TestServer;
let pa: FakePa;
let flows: FakeFlowService;
let directory: FakeDirectory;

beforeAll(async () => {
  [server, pa] = await Promise.all([startTestServer(), startFakePa()]);
  flows = serveFlows(pa);
  directory = serveDirectory(pa);
  directory.list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: '732829320_FACTURES', routingIdentifier: 'COMPTA' }]);
});
afterEach(() => {
  pa.reset();
});
afterAll(async () => {
  expect(pa.violations).toEqual([]);
  await Promise.all([server.close(), pa.close()]);
});

async function connected(): Promise<Session> {
  const { session } = await registered(server.url);
  const org = await session.rest('PUT', '/api/organization', sellerIdentity);
  expect(org.status, JSON.stringify(org.body)).toBe(200);
  const put = await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa));
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return session;
}

describe('directory (GET /api/directory/{siren})', () => {
  it('answers the listing of a SIREN, 404 with a French reason when the directory does not know it', async () => {
    const session = await connected();
    const listed = await session.rest('GET', '/api/directory/732829320');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      siren: '732829320',
      name: 'BOULANGERIE MARTIN',
      addresses: [{ electronic_address: '732829320_FACTURES', routing_code: 'COMPTA' }],
    });
    const absent = await session.rest('GET', '/api/directory/552100554');
    expect(absent.status).toBe(404);
    expect(absent.body.messages).toContain('552100554');
    const bad = await session.rest('GET', '/api/directory/12345');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.messages)).toContain('SIREN : 9 chiffres attendus');
  });

  it('looks a customer up on save: its address and routing code are kept and answered; an absent one warns before issue', async () => {
    const session = await connected();
    const created = await session.rest('POST', '/api/customers', businessCustomer);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      directory_status: 'listed',
      electronic_address: '732829320_FACTURES',
      routing_code: 'COMPTA',
    });
    expect(created.body.data.directory_checked_at).toEqual(expect.any(String));

    const stranger = await session.rest('POST', '/api/customers', { ...businessCustomer, name: 'Inconnue SA', business_id: '552 100 554' });
    expect(stranger.body.data).toMatchObject({ directory_status: 'absent', electronic_address: '', routing_code: '' });
    const doc = await session.rest('POST', '/api/documents', {
      date: '2026-11-02',
      customer_id: stranger.body.data.id,
      items: [line('Conseil', 1, 100)],
    });
    const check = await session.rest('POST', `/api/documents/${doc.body.data.id}/issue`, { dry_run: true });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body.messages).toContain('absent de l’annuaire de la facturation électronique');

    // Registered since: « Vérifier dans l’annuaire » finds it, and the warning is gone.
    directory.list('552100554', 'INCONNUE SA');
    const again = await session.rest('POST', `/api/customers/${stranger.body.data.id}/directory`);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ directory_status: 'listed', electronic_address: '552100554' });
    const recheck = await session.rest('POST', `/api/documents/${doc.body.data.id}/issue`, { dry_run: true });
    expect(recheck.body.messages).toBe('Prêt à être émis');
  });

  it('a customer with no SIREN is not looked up', async () => {
    const session = await connected();
    const before = directory.lookups.length;
    const person = await session.rest('POST', '/api/customers', { type: 'individual', name: 'Jeanne Petit' });
    expect(person.status, JSON.stringify(person.body)).toBe(201);
    expect(person.body.data.directory_status).toBe('unknown');
    expect(directory.lookups.length).toBe(before);
  });
});

describe('e-reporting of B2C sales (Flux 10.3)', () => {
  it('a month of B2C sales yields a valid Flux 10 report, submitted once as a flow; a change is resent as a corrected report', async () => {
    const session = await connected();
    const person = (
      await session.rest('POST', '/api/customers', {
        type: 'individual',
        name: 'Jeanne Petit',
        address: { line1: '8 rue Victor Hugo', postal_code: '69002', city: 'Lyon' },
      })
    ).body.data;
    const business = (await session.rest('POST', '/api/customers', businessCustomer)).body.data;
    const sale = (date: string, items: unknown[], customerId = person.id) => issued(session, { date, customer_id: customerId, items });
    await sale('2026-10-02', [line('Pain', 10, 1.2, 5.5, { kind: 'goods' }), line('Tarte', 1, 18, 5.5, { kind: 'goods' })]);
    await sale('2026-10-02', [line('Cours de pâtisserie', 1, 60, 20)]);
    await sale('2026-10-15', [line('Gâteau', 2, 25, 5.5, { kind: 'goods' }), line('Livraison', 1, 10, 20)]);
    await sale('2026-10-20', [line('Conseil', 1, 1000, 20)], business.id); // B2B: e-invoiced, not e-reported

    const list = await session.rest('GET', '/api/ereporting?year=2026');
    expect(list.status).toBe(200);
    // The reform starts on 1 September 2026: no earlier period is offered, read or sent.
    const periods = new Set<string>(list.body.data.map((r: { period: string }) => r.period));
    expect([...periods].every((p) => p >= '2026-09')).toBe(true);
    expect(periods.has('2026-09')).toBe(true);
    expect((await session.rest('GET', '/api/ereporting?year=2025')).body.data).toEqual([]);
    for (const [method, path] of [
      ['GET', '/api/ereporting/2026-08/xml?kind=transactions'],
      ['POST', '/api/ereporting/2026-08/transmit'],
    ] as const) {
      const before = await session.rest(method, path, method === 'POST' ? { kind: 'transactions' } : undefined);
      expect(before.status).toBe(400);
      expect(before.body.messages).toContain('Période 2026-08 : avant le 1er septembre 2026, rien n’est à déclarer en e-reporting');
    }
    const october = list.body.data.find((r: { period: string }) => r.period === '2026-10');
    // 12 + 18 + 60 + 50 + 10 HT
    expect(october).toMatchObject({ kind: 'transactions', status: 'to_send', amount: 150, from: '2026-10-01', to: '2026-10-31' });

    const xml = await session.rest('GET', '/api/ereporting/2026-10/xml?kind=transactions');
    expect(xml.status).toBe(200);
    const text = String(xml.body);
    const validation = await validateFlux10(text);
    expect(validation, JSON.stringify(validation)).toSatisfy(flux10Valid);
    expect(text).toContain('<TypeCode>IN</TypeCode>');
    expect(text).toContain('<Id schemeId="0238">0042</Id>');
    expect(text).toContain('<Id schemeId="0002">552032534</Id>');
    // 2 October: goods at 5.5 % (two lines of one sale), services at 20 %; 15 October: goods and services.
    expect(text).toContain(
      '<Transactions><Date>20261002</Date><TransactionsCurrency>EUR</TransactionsCurrency><CategoryCode>TLB1</CategoryCode><TaxExclusiveAmount>30.00</TaxExclusiveAmount><TaxTotal>1.65</TaxTotal><TransactionsCount>1</TransactionsCount><TaxSubtotal><TaxPercent>5.5</TaxPercent><TaxableAmount>30.00</TaxableAmount><TaxTotal>1.65</TaxTotal></TaxSubtotal></Transactions>',
    );
    expect(text).toContain(
      '<Date>20261002</Date><TransactionsCurrency>EUR</TransactionsCurrency><CategoryCode>TPS1</CategoryCode><TaxExclusiveAmount>60.00</TaxExclusiveAmount><TaxTotal>12.00</TaxTotal>',
    );
    expect(text).toContain(
      '<Date>20261015</Date><TransactionsCurrency>EUR</TransactionsCurrency><CategoryCode>TPS1</CategoryCode><TaxExclusiveAmount>10.00</TaxExclusiveAmount>',
    );
    expect(text).not.toContain('1000.00');

    const sent = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'transactions' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ ack_status: 'Ok', version: 1, type_code: 'IN' });
    const flow = flows.flows.find((f) => f.flowId === sent.body.data.flow_id);
    expect(flow).toMatchObject({ processingRule: 'B2C', flowSyntax: 'FRR', ack: { status: 'Ok' } });
    const part = (xml: string) => /<TransactionsReport>[\s\S]*<\/TransactionsReport>/.exec(xml)?.[0];
    expect(part(flow?.file?.data.toString('utf8') ?? '')).toBe(part(text)); // the report read above
    const accepted = (await session.rest('GET', '/api/ereporting?year=2026')).body.data.find(
      (r: { period: string }) => r.period === '2026-10',
    );
    expect(accepted).toMatchObject({ status: 'accepted', flow_id: sent.body.data.flow_id, version: 1, type_code: 'IN' });

    // Never twice: nothing changed, the first flow is answered.
    const posted = flows.flows.length;
    const twice = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'transactions' });
    expect(twice.body.data.flow_id).toBe(sent.body.data.flow_id);
    expect(flows.flows.length).toBe(posted);

    // A sale issued late in the period: the report is « changed », resent as a corrected report (RE, version 2).
    await sale('2026-10-30', [line('Pain', 5, 1.2, 5.5, { kind: 'goods' })]);
    const changed = (await session.rest('GET', '/api/ereporting?year=2026')).body.data.find(
      (r: { period: string }) => r.period === '2026-10',
    );
    expect(changed).toMatchObject({ status: 'changed', amount: 156 });
    const corrected = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'transactions' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(corrected.body.data).toMatchObject({ ack_status: 'Ok', version: 2, type_code: 'RE' });
    expect(flows.reports.at(-1)).toContain('<TypeCode>RE</TypeCode>');

    // At a glance: the period is reported, linked to its row; the B2B invoice is on its way to the platform.
    const overview = await session.rest('GET', '/api/einvoicing/overview');
    expect(overview.status).toBe(200);
    expect(overview.body.counts.reported).toBe(1);
    expect(overview.body.data).toContainEqual(
      expect.objectContaining({ group: 'reported', target: { kind: 'ereporting', period: '2026-10' }, state: 'Acceptée' }),
    );
    expect(overview.body.data).toContainEqual(
      expect.objectContaining({
        target: expect.objectContaining({ kind: 'document', type: 'invoice' }),
        title: expect.stringContaining('Boulangerie Martin'),
      }),
    );
  });

  it('refuses an unfinished period, a period outside the regime and an unknown kind, in French', async () => {
    const session = await connected();
    const month = new Date().toISOString().slice(0, 7);
    const open = await session.rest('POST', `/api/ereporting/${month}/transmit`, { kind: 'transactions' });
    expect(open.status).toBe(409);
    expect(JSON.stringify(open.body.messages)).toContain('n’est pas terminée');
    const decade = await session.rest('POST', '/api/ereporting/2026-10-D1/transmit', { kind: 'transactions' });
    expect(decade.status).toBe(400);
    const unknown = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'achats' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.messages)).toContain('Type de déclaration');
  });
});
