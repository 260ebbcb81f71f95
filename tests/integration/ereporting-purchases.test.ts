import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { sellerIdentity } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';
import { flux10Valid, validateFlux10 } from '../../src/server/einvoice/flux10-validate';

/**
 * Flux 10.1 on the buyer's side: the expenses bought from suppliers established outside France, created through the
 * API, reported in a report of their own (the organisation declares as the buyer, BY), checked against the PPF's
 * schema and schematron (zero fatal rule) and submitted to the fake platform, which checks the flow again.
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

async function expense(session: Session, body: Record<string, unknown>): Promise<{ id: number }> {
  const created = await session.rest('POST', '/api/expenses', { category: 'autres', ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data;
}

type Row = { period: string; kind: string; status: string; amount: number; count: number; errors: string[] };
const rowOf = async (session: Session, kind: string, period = '2026-10') =>
  ((await session.rest('GET', '/api/ereporting?year=2026')).body.data as Row[]).find((r) => r.period === period && r.kind === kind);

async function checkedXml(session: Session): Promise<string> {
  const answer = await session.rest('GET', '/api/ereporting/2026-10/xml?kind=purchases');
  expect(answer.status).toBe(200);
  const text = String(answer.body);
  const validation = await validateFlux10(text);
  expect(validation, JSON.stringify(validation)).toSatisfy(flux10Valid);
  expect(validation.asserts.filter((a) => a.flag === 'fatal')).toEqual([]);
  return text;
}

describe('e-reporting of international purchases (Flux 10.1, the organisation as the buyer)', () => {
  it('reports each purchase from abroad with its self-assessed VAT to the cent, valid; transmits it; leaves French ones out', async () => {
    const session = await connected();
    // An intra-community acquisition of goods (purchases of goods: account 607), services from Belgium and from the
    // United States, VAT self-assessed at 20 %; a hotel in Germany charging German VAT; a Belgian credit note.
    const machines = await expense(session, {
      date: '2026-10-03',
      supplier: 'Müller Maschinen GmbH',
      category: 'achats',
      invoice_number: 'RE-2026-0412',
      amount: '1234.56',
      vat: [{ rate: '20', amount: '246.91' }],
      reverse_charge: 'goods',
      supplier_country: 'DE',
      supplier_vat_number: 'DE 123 456 789',
    });
    await expense(session, {
      date: '2026-10-07',
      supplier: 'Conseil Bruxelles SRL',
      category: 'honoraires',
      invoice_number: 'CB/2026/88',
      amount: '500',
      vat: [{ rate: '20', amount: '100' }],
      reverse_charge: 'services',
      supplier_country: 'BE',
      supplier_vat_number: 'BE0123456789',
    });
    await expense(session, {
      date: '2026-10-09',
      supplier: 'Cloud Services Inc.',
      category: 'logiciels',
      invoice_number: 'INV-99812',
      amount: '99.99',
      vat: [{ rate: '20', amount: '20' }],
      reverse_charge: 'services',
      supplier_country: 'US',
      supplier_vat_number: '12-3456789',
    });
    await expense(session, {
      date: '2026-10-14',
      supplier: 'Hotel am Park',
      category: 'deplacements',
      invoice_number: 'H 5531',
      amount: '119',
      vat: [{ rate: '19', amount: '19', deductible: false }],
      supplier_country: 'DE',
      supplier_vat_number: 'DE999999999',
    });
    const advice = await expense(session, {
      date: '2026-09-30',
      supplier: 'Conseil Bruxelles SRL',
      category: 'honoraires',
      invoice_number: 'CB/2026/80',
      amount: '200',
      vat: [{ rate: '20', amount: '40' }],
      reverse_charge: 'services',
      supplier_country: 'BE',
      supplier_vat_number: 'BE0123456789',
    });
    await expense(session, {
      date: '2026-10-20',
      kind: 'credit_note',
      supplier: 'Conseil Bruxelles SRL',
      category: 'honoraires',
      invoice_number: 'CN-7',
      preceding_invoice_number: 'CB/2026/80',
      amount: '50',
      vat: [{ rate: '20', amount: '10' }],
      reverse_charge: 'services',
      supplier_country: 'BE',
      supplier_vat_number: 'BE0123456789',
    });
    // Not reported: a French supplier; a German supplier's e-invoice received through the platform (as the platform
    // import records it); goods imported from China (declared to customs).
    await expense(session, {
      date: '2026-10-10',
      supplier: 'Papeterie Lyonnaise',
      invoice_number: 'P-1',
      amount: '120',
      vat: [{ rate: '20', amount: '20' }],
      supplier_country: 'FR',
      supplier_vat_number: 'FR27552032534',
    });
    const received = await expense(session, {
      date: '2026-10-11',
      supplier: 'Schmidt Software GmbH',
      invoice_number: 'S-1',
      amount: '300',
      vat: [{ rate: '20', amount: '60' }],
      reverse_charge: 'services',
      supplier_country: 'DE',
      supplier_vat_number: 'DE111111111',
    });
    await server.app.connection.db.updateTable('expenses').set({ source: 'platform' }).where('id', '=', received.id).execute();
    await expense(session, {
      date: '2026-10-12',
      supplier: 'Shenzhen Parts Ltd',
      category: 'achats',
      invoice_number: 'SZ-1',
      amount: '800',
      supplier_country: 'CN',
      supplier_vat_number: '91440300',
    });

    const xml = await checkedXml(session);
    expect(xml).toContain('<Issuer><Id schemeId="0002">552032534</Id>');
    expect(xml).toContain('<RoleCode>BY</RoleCode></Issuer>');
    expect(xml).toContain(
      '<Invoice><ID>RE-2026-0412</ID><IssueDate>20261003</IssueDate><TypeCode>380</TypeCode><CurrencyCode>EUR</CurrencyCode><BusinessProcess><ID>B1</ID><TypeID>urn.cpro.gouv.fr:1p0:ereporting</TypeID></BusinessProcess><Seller><CompanyId schemeId="0223">DE123456789</CompanyId><TaxRegistrationId qualifyingId="VAT">DE123456789</TaxRegistrationId><PostalAddress><CountryId>DE</CountryId></PostalAddress></Seller><Buyer><CompanyId schemeId="0002">552032534</CompanyId><TaxRegistrationId qualifyingId="VAT">FR27552032534</TaxRegistrationId><PostalAddress><CountryId>FR</CountryId></PostalAddress></Buyer><MonetaryTotal><TaxExclusiveAmount>1234.56</TaxExclusiveAmount><TaxAmount CurrencyCode="EUR">246.91</TaxAmount></MonetaryTotal><TaxSubTotal><TaxableAmount>1234.56</TaxableAmount><TaxAmount>246.91</TaxAmount><TaxCategory><Code>K</Code><Percent>20</Percent></TaxCategory></TaxSubTotal></Invoice>',
    );
    expect(xml).toContain(
      '<ID>CB/2026/88</ID><IssueDate>20261007</IssueDate><TypeCode>380</TypeCode><CurrencyCode>EUR</CurrencyCode><BusinessProcess><ID>S1</ID>',
    );
    expect(xml).toContain(
      '<TaxSubTotal><TaxableAmount>500.00</TaxableAmount><TaxAmount>100.00</TaxAmount><TaxCategory><Code>AE</Code><Percent>20</Percent>',
    );
    expect(xml).toContain('<Seller><CompanyId schemeId="0227">123456789</CompanyId>');
    expect(xml).toContain('<TaxableAmount>99.99</TaxableAmount><TaxAmount>20.00</TaxAmount><TaxCategory><Code>AE</Code>');
    expect(xml).toContain(
      '<MonetaryTotal><TaxExclusiveAmount>100.00</TaxExclusiveAmount><TaxAmount CurrencyCode="EUR">0.00</TaxAmount></MonetaryTotal><TaxSubTotal><TaxableAmount>100.00</TaxableAmount><TaxAmount>0.00</TaxAmount><TaxCategory><Code>O</Code><Percent>0</Percent>',
    );
    expect(xml).toContain(
      '<ID>CN-7</ID><IssueDate>20261020</IssueDate><TypeCode>381</TypeCode><CurrencyCode>EUR</CurrencyCode><BusinessProcess><ID>S1</ID><TypeID>urn.cpro.gouv.fr:1p0:ereporting</TypeID></BusinessProcess><ReferencedDocument><ID>CB/2026/80</ID><IssueDate>20260930</IssueDate></ReferencedDocument>',
    );
    expect(xml).toContain('<TaxExclusiveAmount>50.00</TaxExclusiveAmount><TaxAmount CurrencyCode="EUR">10.00</TaxAmount>');
    expect(xml.match(/<Invoice>/g)).toHaveLength(5);
    for (const absent of ['P-1', 'S-1', 'SZ-1', 'CB/2026/80</ID><IssueDate>20260930</IssueDate><TypeCode>'])
      expect(xml).not.toContain(absent);
    // 1 234,56 + 500 + 99,99 + 100 − 50 HT; the September invoice is September's.
    expect(await rowOf(session, 'purchases')).toMatchObject({ status: 'to_send', amount: 1884.55, count: 5, errors: [] });
    expect(await rowOf(session, 'purchases', '2026-09')).toMatchObject({ amount: 200, count: 1 });
    expect(advice.id).toBeGreaterThan(machines.id);

    const sent = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'purchases' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ ack_status: 'Ok', version: 1, type_code: 'IN' });
    expect(sent.body.messages).toContain('Déclaration 2026-10 (achats internationaux B2B) transmise');
    expect(flows.flows.find((f) => f.flowId === sent.body.data.flow_id)).toMatchObject({
      processingRule: 'B2BInt',
      flowSyntax: 'FRR',
      ack: { status: 'Ok' },
    });
    expect(flows.reports.at(-1)).toContain('<RoleCode>BY</RoleCode>');
    expect(await rowOf(session, 'purchases')).toMatchObject({ status: 'accepted', flow_id: sent.body.data.flow_id });
    // The sales reports of the month are untouched: nothing was sold.
    expect(await rowOf(session, 'international')).toMatchObject({ status: 'to_send', amount: 0, count: 0 });

    // A purchase recorded late: the report is « changed », resent corrected (RE, v2); unchanged, never twice.
    await expense(session, {
      date: '2026-10-30',
      supplier: 'Conseil Bruxelles SRL',
      category: 'honoraires',
      invoice_number: 'CB/2026/95',
      amount: '80',
      vat: [{ rate: '20', amount: '16' }],
      reverse_charge: 'services',
      supplier_country: 'BE',
      supplier_vat_number: 'BE0123456789',
    });
    expect(await rowOf(session, 'purchases')).toMatchObject({ status: 'changed', amount: 1964.55, count: 6 });
    const corrected = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'purchases' });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(corrected.body.data).toMatchObject({ ack_status: 'Ok', version: 2, type_code: 'RE' });
    const posted = flows.flows.length;
    const twice = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'purchases' });
    expect(twice.body.data.flow_id).toBe(corrected.body.data.flow_id);
    expect(flows.flows.length).toBe(posted);
  }, 240_000);

  it('shows what is missing in French, and sends nothing, for a purchase without its supplier’s identity', async () => {
    const session = await connected();
    await expense(session, {
      date: '2026-10-09',
      supplier: 'Brasserie de Namur SPRL',
      invoice_number: 'BN-12',
      amount: '400',
      vat: [{ rate: '20', amount: '80' }],
      reverse_charge: 'services',
      supplier_country: 'BE',
    });
    await expense(session, {
      date: '2026-10-10',
      supplier: 'Cloud Services Inc.',
      category: 'logiciels',
      invoice_number: 'INV-1',
      amount: '30',
      vat: [{ rate: '20', amount: '6' }],
      reverse_charge: 'services',
      supplier_country: 'US',
      supplier_vat_number: '12-3456789',
    });
    const row = await rowOf(session, 'purchases');
    expect(row).toMatchObject({
      status: 'to_send',
      amount: 30,
      count: 1,
      errors: [
        'Facture BN-12 du 2026-10-09 (Brasserie de Namur SPRL) : le numéro de TVA intracommunautaire du fournisseur manque, renseignez-le sur la dépense',
      ],
    });
    // What can be reported is valid as it stands; the report is not sent until every purchase can be.
    expect(await checkedXml(session)).not.toContain('BN-12');
    const posted = flows.flows.length;
    const refused = await session.rest('POST', '/api/ereporting/2026-10/transmit', { kind: 'purchases' });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body.messages)).toContain('ne passe pas les contrôles Flux 10');
    expect(JSON.stringify(refused.body.messages)).toContain('numéro de TVA intracommunautaire du fournisseur manque');
    expect(flows.flows.length).toBe(posted);
    expect(await rowOf(session, 'purchases')).toMatchObject({ status: 'invalid' });
  }, 120_000);
});
