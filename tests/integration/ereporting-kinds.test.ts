import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, issued, line, sellerIdentity } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';
import { serveDirectory } from '../helpers/fake-pa-directory';
import { flux10Valid, validateFlux10 } from '../../src/server/einvoice/flux10-validate';

/**
 * The e-reporting beyond B2C sales: 10.1 international B2B invoices one by one, 10.2 and 10.4 the payments of
 * services taxed on receipt. Each report is checked against the PPF's schema and schematron (zero fatal rule) and
 * submitted as a flow to the fake platform, which checks it again; amounts are exact to the cent.
 */
let server: TestServer;
let pa: FakePa;
let flows: FakeFlowService;

beforeAll(async () => {
  [server, pa] = await Promise.all([startTestServer(), startFakePa()]);
  flows = serveFlows(pa);
  serveDirectory(pa).list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: '732829320_FACTURES', routingIdentifier: 'COMPTA' }]);
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
  expect((await session.rest('PUT', '/api/organization', sellerIdentity)).status).toBe(200);
  expect((await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa))).status).toBe(200);
  return session;
}

const customer = async (session: Session, body: Record<string, unknown>) => {
  const created = await session.rest('POST', '/api/customers', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as { id: number };
};
const untaxed = { taxes: [] };
type Row = { period: string; kind: string };
const rowOf = async (session: Session, kind: string, period = '2026-10') =>
  ((await session.rest('GET', '/api/ereporting?year=2026')).body.data as Row[]).find((r) => r.period === period && r.kind === kind);

async function checkedXml(session: Session, kind: string): Promise<string> {
  const answer = await session.rest('GET', `/api/ereporting/2026-10/xml?kind=${kind}`);
  expect(answer.status).toBe(200);
  const text = String(answer.body);
  const validation = await validateFlux10(text);
  expect(validation, JSON.stringify(validation)).toSatisfy(flux10Valid);
  expect(validation.asserts.filter((a) => a.flag === 'fatal')).toEqual([]);
  return text;
}

describe('e-reporting of international B2B sales (Flux 10.1) and of payments of services (10.2, 10.4)', () => {
  it('reports each international invoice and credit note, and the services paid, valid; transmits them; resends a correction', async () => {
    const session = await connected();
    const german = await customer(session, {
      name: 'Müller Maschinen GmbH',
      vat_number: 'DE 123 456 789',
      address: { line1: 'Hauptstraße 5', postal_code: '10115', city: 'Berlin', country: 'Allemagne' },
    });
    const swiss = await customer(session, {
      name: 'Helvetia Conseil SA',
      vat_number: 'CHE-123.456.789',
      address: { line1: 'Rue du Rhône 1', postal_code: '1204', city: 'Genève', country: 'Suisse' },
    });
    const person = await customer(session, {
      type: 'individual',
      name: 'Jeanne Petit',
      address: { line1: '8 rue Victor Hugo', postal_code: '69002', city: 'Lyon' },
    });
    const french = await customer(session, businessCustomer);

    // Issued in date order (the numbering is chronological). 10.1: an intra-community supply of goods (K), a mixed
    // sale to Switzerland (services taxed in France at 20 %, goods exported: G), a credit note on the first. Not 10.1:
    // a private person's sales (10.3), a French business's (e-invoiced).
    const lesson = await issued(session, { date: '2026-10-02', customer_id: person.id, items: [line('Cours de pâtisserie', 1, 60, 20)] });
    const course = await issued(session, { date: '2026-10-02', customer_id: person.id, items: [line('Stage', 1, 100, 10)] });
    const bread = await issued(session, {
      date: '2026-10-02',
      customer_id: person.id,
      items: [line('Pain', 10, 1.2, 5.5, { kind: 'goods' })],
    });
    const machines = await issued(session, {
      date: '2026-10-03',
      customer_id: german.id,
      items: [line('Presse', 2, 1500, 0, { kind: 'goods', ...untaxed })],
    });
    await issued(session, { date: '2026-10-08', customer_id: french.id, items: [line('Conseil', 1, 800, 20)] });
    const mixed = await issued(session, {
      date: '2026-10-12',
      customer_id: swiss.id,
      items: [line('Formation à Lyon', 1, 1000, 20), line('Outillage', 1, 500, 0, { kind: 'goods', ...untaxed })],
      vat_exemption: 'Exonération de TVA, art. 262 I du CGI, pour les biens exportés',
    });
    expect(mixed.total).toBe(1700);
    const draftCredit = await session.rest('POST', `/api/documents/${machines.id}/convert`, {
      type: 'credit',
      lines: [{ id: machines.items[0].id, quantity: 1 }],
    });
    expect(draftCredit.status, JSON.stringify(draftCredit.body)).toBe(201);
    const dated = await session.rest('PUT', `/api/documents/${draftCredit.body.data.id}`, { ...draftCredit.body.data, date: '2026-10-20' });
    expect(dated.status, JSON.stringify(dated.body)).toBe(200);
    const credit = await session.rest('POST', `/api/documents/${draftCredit.body.data.id}/issue`);
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);

    const international = await checkedXml(session, 'international');
    expect(international).toContain('<Issuer><Id schemeId="0002">552032534</Id>');
    expect(international).toContain(
      `<Invoice><ID>${machines.number}</ID><IssueDate>20261003</IssueDate><TypeCode>380</TypeCode><CurrencyCode>EUR</CurrencyCode><BusinessProcess><ID>B1</ID><TypeID>urn.cpro.gouv.fr:1p0:ereporting</TypeID></BusinessProcess><Seller><CompanyId schemeId="0002">552032534</CompanyId><TaxRegistrationId qualifyingId="VAT">FR27552032534</TaxRegistrationId><PostalAddress><CountryId>FR</CountryId></PostalAddress></Seller><Buyer><CompanyId schemeId="0223">DE123456789</CompanyId><TaxRegistrationId qualifyingId="VAT">DE123456789</TaxRegistrationId><PostalAddress><CountryId>DE</CountryId></PostalAddress></Buyer><MonetaryTotal><TaxExclusiveAmount>3000.00</TaxExclusiveAmount><TaxAmount CurrencyCode="EUR">0.00</TaxAmount></MonetaryTotal><TaxSubTotal><TaxableAmount>3000.00</TaxableAmount><TaxAmount>0.00</TaxAmount><TaxCategory><Code>K</Code><Percent>0</Percent></TaxCategory></TaxSubTotal></Invoice>`,
    );
    expect(international).toContain(
      `<TypeCode>381</TypeCode><CurrencyCode>EUR</CurrencyCode><BusinessProcess><ID>B1</ID><TypeID>urn.cpro.gouv.fr:1p0:ereporting</TypeID></BusinessProcess><ReferencedDocument><ID>${machines.number}</ID><IssueDate>20261003</IssueDate></ReferencedDocument>`,
    );
    expect(international).toContain('<TaxExclusiveAmount>1500.00</TaxExclusiveAmount><TaxAmount CurrencyCode="EUR">0.00</TaxAmount>');
    expect(international).toContain(
      '<BusinessProcess><ID>M1</ID><TypeID>urn.cpro.gouv.fr:1p0:ereporting</TypeID></BusinessProcess><Seller><CompanyId schemeId="0002">552032534</CompanyId><TaxRegistrationId qualifyingId="VAT">FR27552032534</TaxRegistrationId><PostalAddress><CountryId>FR</CountryId></PostalAddress></Seller><Buyer><CompanyId schemeId="0227">CHE123456789</CompanyId><TaxRegistrationId qualifyingId="VAT">CHE123456789</TaxRegistrationId><PostalAddress><CountryId>CH</CountryId></PostalAddress></Buyer><MonetaryTotal><TaxExclusiveAmount>1500.00</TaxExclusiveAmount><TaxAmount CurrencyCode="EUR">200.00</TaxAmount></MonetaryTotal><TaxSubTotal><TaxableAmount>1000.00</TaxableAmount><TaxAmount>200.00</TaxAmount><TaxCategory><Code>S</Code><Percent>20</Percent></TaxCategory></TaxSubTotal><TaxSubTotal><TaxableAmount>500.00</TaxableAmount><TaxAmount>0.00</TaxAmount><TaxCategory><Code>G</Code><Percent>0</Percent></TaxCategory></TaxSubTotal>',
    );
    expect(international).not.toContain('Boulangerie');
    expect(international.match(/<Invoice>/g)).toHaveLength(3);
    // 3 000 + 1 500 − 1 500 (the credit note) HT.
    expect(await rowOf(session, 'international')).toMatchObject({ status: 'to_send', amount: 3000, errors: [] });

    // 10.2 and 10.4: half the Swiss invoice paid (its services are 1 200 of its 1 700 TTC: 600,00 of 850,00); the
    // private person's two services paid in full and in half on one day, the bread (goods) paid but not reported; the
    // French business's payment goes through its lifecycle, not here. A payment cancelled the same day nets to nothing.
    const pay = async (id: number, date: string, amount: number) => {
      const paid = await session.rest('POST', `/api/documents/${id}/payments`, { date, amount });
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
      return paid.body.data;
    };
    await pay(mixed.id, '2026-10-20', 850);
    await pay(lesson.id, '2026-10-05', 72);
    await pay(course.id, '2026-10-05', 55);
    await pay(bread.id, '2026-10-05', 12.66);
    const cancelled = await pay(course.id, '2026-10-06', 10);
    const cancelledId = cancelled.id ?? cancelled.payment?.id;
    const removed = await session.rest('DELETE', `/api/documents/${course.id}/payments/${cancelledId}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const payments = await checkedXml(session, 'payments');
    expect(payments).toContain(
      `<PaymentsReport><ReportPeriod><StartDate>20261001</StartDate><EndDate>20261031</EndDate></ReportPeriod><Invoice><InvoiceID>${mixed.number}</InvoiceID><IssueDate>20261012</IssueDate><Payment><Date>20261020</Date><SubTotals><TaxPercent>20</TaxPercent><CurrencyCode>EUR</CurrencyCode><Amount>600.00</Amount></SubTotals></Payment></Invoice>`,
    );
    expect(payments).toContain(
      '<Transactions><Payment><Date>20261005</Date><SubTotals><TaxPercent>20</TaxPercent><CurrencyCode>EUR</CurrencyCode><Amount>72.00</Amount></SubTotals><SubTotals><TaxPercent>10</TaxPercent><CurrencyCode>EUR</CurrencyCode><Amount>55.00</Amount></SubTotals></Payment></Transactions></PaymentsReport>',
    );
    expect(payments).not.toContain('20261006');
    expect(payments).not.toContain('5.5');
    // 600 + 72 + 55 received for services.
    expect(await rowOf(session, 'payments')).toMatchObject({ status: 'to_send', amount: 727 });

    // Transmitted as flows like 10.3, each qualified for what it holds.
    const sentInternational = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'international' });
    expect(sentInternational.status, JSON.stringify(sentInternational.body)).toBe(200);
    expect(sentInternational.body.data).toMatchObject({ ack_status: 'Ok', version: 1, type_code: 'IN' });
    expect(sentInternational.body.messages).toContain('Déclaration 2026-10 (ventes internationales B2B) transmise');
    expect(flows.flows.find((f) => f.flowId === sentInternational.body.data.flow_id)).toMatchObject({
      processingRule: 'B2BInt',
      flowSyntax: 'FRR',
      ack: { status: 'Ok' },
    });
    const sentPayments = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'payments' });
    expect(sentPayments.status, JSON.stringify(sentPayments.body)).toBe(200);
    expect(sentPayments.body.data).toMatchObject({ ack_status: 'Ok', version: 1, type_code: 'IN' });
    expect(flows.reports.at(-1)).toContain('<PaymentsReport>');
    expect(await rowOf(session, 'international')).toMatchObject({ status: 'accepted', flow_id: sentInternational.body.data.flow_id });
    expect(await rowOf(session, 'payments')).toMatchObject({ status: 'accepted', flow_id: sentPayments.body.data.flow_id });
    // The B2C sales of the month are their own report, untouched by the others.
    expect(await rowOf(session, 'transactions')).toMatchObject({ status: 'to_send', amount: 172 });

    // Never twice; a payment recorded late in the period makes the report « changed », resent corrected (RE, v2).
    const posted = flows.flows.length;
    const twice = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'payments' });
    expect(twice.body.data.flow_id).toBe(sentPayments.body.data.flow_id);
    expect(flows.flows.length).toBe(posted);
    await pay(course.id, '2026-10-28', 55);
    expect(await rowOf(session, 'payments')).toMatchObject({ status: 'changed', amount: 782 });
    const corrected = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'payments' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(corrected.body.data).toMatchObject({ ack_status: 'Ok', version: 2, type_code: 'RE' });
    expect(flows.reports.at(-1)).toContain('<TypeCode>RE</TypeCode>');
    expect(flows.reports.at(-1)).toContain('<Date>20261028</Date>');
    expect(await rowOf(session, 'payments')).toMatchObject({ status: 'accepted', version: 2, type_code: 'RE' });
  }, 240_000);

  it('under the option for the débits no payment is owed: a nil payments report, still valid', async () => {
    const session = await connected();
    expect((await session.rest('PUT', '/api/organization', { ...sellerIdentity, vat_on_debits: true })).status).toBe(200);
    const person = await customer(session, {
      type: 'individual',
      name: 'Paul Durand',
      address: { line1: '2 rue Neuve', postal_code: '69001', city: 'Lyon' },
    });
    const lesson = await issued(session, { date: '2026-10-02', customer_id: person.id, items: [line('Cours', 1, 60, 20)] });
    expect((await session.rest('POST', `/api/documents/${lesson.id}/payments`, { date: '2026-10-05', amount: 72 })).status).toBe(201);
    const xml = await checkedXml(session, 'payments');
    expect(xml).toContain(
      '<PaymentsReport><ReportPeriod><StartDate>20261001</StartDate><EndDate>20261031</EndDate></ReportPeriod></PaymentsReport>',
    );
    expect(await rowOf(session, 'payments')).toMatchObject({ amount: 0 });
  });

  it('refuses in French, and sends nothing, an international sale whose buyer has no identifier', async () => {
    const session = await connected();
    const belgian = await customer(session, {
      name: 'Brasserie de Namur SPRL',
      address: { line1: 'Rue de Fer 3', postal_code: '5000', city: 'Namur', country: 'Belgique' },
    });
    const sale = await issued(session, { date: '2026-10-09', customer_id: belgian.id, items: [line('Conseil', 1, 400, 20)] });
    const row = await rowOf(session, 'international');
    expect(row).toMatchObject({ status: 'to_send', amount: 400 });
    expect(JSON.stringify(row)).toContain(
      `${sale.number} (Brasserie de Namur SPRL) : le numéro de TVA intracommunautaire du client manque`,
    );
    const posted = flows.flows.length;
    const refused = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'international' });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body.messages)).toContain('ne passe pas les contrôles Flux 10');
    expect(JSON.stringify(refused.body.messages)).toContain('numéro de TVA intracommunautaire du client manque');
    expect(flows.flows.length).toBe(posted);
    expect(await rowOf(session, 'international')).toMatchObject({ status: 'invalid' });
    const bad = await session.rest('GET', '/api/ereporting/2026-10/xml?kind=achats');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.messages)).toContain('Type de déclaration');
  });
});
