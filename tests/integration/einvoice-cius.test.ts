import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, issued, line, sellerIdentity } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { serveFlows } from '../helpers/fake-pa-flows';
import { type FakeDirectory, serveDirectory } from '../helpers/fake-pa-directory';
import { validateFrenchEinvoice } from '../../src/server/einvoice/french-cius';

/**
 * The French CIUS remainders: the buyer's electronic address and routing code as the platform's directory listed
 * them, frozen at issue; buyers without SIREN (consumers, businesses abroad) always given a BT-49 (BR-FR-12). Every
 * e-invoice passes EN 16931, BR-FR-Flux2 and, in CII, Factur-X 1.09 with no fatal assert.
 */
// Each case validates several e-invoices against three rule sets, on a machine shared with other test runs.
vi.setConfig({ testTimeout: 240_000 });

let server: TestServer;
let pa: FakePa;
let directory: FakeDirectory;

beforeAll(async () => {
  [server, pa] = await Promise.all([startTestServer(), startFakePa()]);
  serveFlows(pa);
  directory = serveDirectory(pa);
});
afterEach(() => {
  pa.reset();
});
afterAll(async () => {
  expect(pa.violations).toEqual([]);
  await Promise.all([server.close(), pa.close()]);
});

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

async function session(options: { platform?: boolean } = {}): Promise<Session> {
  const { session } = await registered(server.url);
  const org = await session.rest('PUT', '/api/organization', sellerIdentity);
  expect(org.status, JSON.stringify(org.body)).toBe(200);
  if (options.platform) {
    const put = await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  return session;
}

async function customer(s: Session, body: Record<string, unknown>) {
  const answer = await s.rest('POST', '/api/customers', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

async function xmlOf(s: Session, id: number, format: 'cii' | 'ubl'): Promise<string> {
  const url = `${s.baseUrl}/api/documents/${id}/einvoice?format=${format}`;
  // A GET, retried once: a keep-alive socket left idle through a long validation may be closed as it is reused.
  const response = await s.fetch(url).catch(() => s.fetch(url));
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text;
}

/** Both syntaxes, with no fatal assert under EN 16931, BR-FR-Flux2 and (CII) Factur-X 1.09. */
async function valid(s: Session, id: number): Promise<{ cii: string; ubl: string }> {
  const out: Record<string, string> = {};
  for (const format of ['cii', 'ubl'] as const) {
    const xml = await xmlOf(s, id, format);
    const result = await validateFrenchEinvoice(xml, format, { facturx: format === 'cii' });
    const fatal = result.asserts.filter((a) => a.flag === 'fatal').map((a) => `${a.rule} ${a.message}`);
    expect({ ok: result.ok, problems: result.problems, fatal }, `${format}\n${xml}`).toEqual({ ok: true, problems: [], fatal: [] });
    out[format] = xml;
  }
  return out as { cii: string; ubl: string };
}

describe('BT-49 from the directory, frozen at issue', () => {
  it('writes the listed address (0225) and routing code (0224); a later answer changes new invoices only', async () => {
    directory.list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: '732829320_FACTURES', routingIdentifier: 'COMPTA' }]);
    const s = await session({ platform: true });
    const listed = await customer(s, businessCustomer);
    expect(listed).toMatchObject({ directory_status: 'listed', electronic_address: '732829320_FACTURES', routing_code: 'COMPTA' });
    const first = await issued(s, { customer_id: listed.id, date: today, items: [line('Conseil', 1, 800)] });
    const { cii, ubl } = await valid(s, first.id);
    expect(cii).toContain('<ram:BuyerTradeParty><ram:GlobalID schemeID="0224">COMPTA</ram:GlobalID><ram:Name>');
    expect(cii).toContain('<ram:URIUniversalCommunication><ram:URIID schemeID="0225">732829320_FACTURES</ram:URIID>');
    // The seller has no directory entry of its own here: its SIREN, as before.
    expect(cii).toContain('<ram:URIID schemeID="0225">552032534</ram:URIID>');
    expect(ubl).toContain(
      '<cbc:EndpointID schemeID="0225">732829320_FACTURES</cbc:EndpointID><cac:PartyIdentification><cbc:ID schemeID="0224">COMPTA</cbc:ID></cac:PartyIdentification>',
    );

    // The business moves to another platform: the customer follows, the invoice already issued does not.
    directory.list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: '732829320_ACHATS' }]);
    const again = await s.rest('POST', `/api/customers/${listed.id}/directory`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ electronic_address: '732829320_ACHATS', routing_code: '' });
    expect(await xmlOf(s, first.id, 'cii')).toBe(cii);
    expect(await xmlOf(s, first.id, 'ubl')).toBe(ubl);

    const second = await issued(s, { customer_id: listed.id, date: today, items: [line('Conseil', 1, 800)] });
    const { cii: next } = await valid(s, second.id);
    expect(next).toContain('<ram:URIID schemeID="0225">732829320_ACHATS</ram:URIID>');
    expect(next).not.toContain('<ram:GlobalID');

    // A credit note on the first invoice is issued now: the address listed now.
    const credit = (await s.rest('POST', `/api/documents/${first.id}/convert`, { type: 'credit' })).body.data;
    const issuedCredit = await s.rest('POST', `/api/documents/${credit.id}/issue`);
    expect(issuedCredit.status, JSON.stringify(issuedCredit.body)).toBe(200);
    const { cii: creditXml } = await valid(s, credit.id);
    expect(creditXml).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(creditXml).toContain('<ram:URIID schemeID="0225">732829320_ACHATS</ram:URIID>');

    // The document answers the customer as it was at issue, its directory address included.
    expect(JSON.stringify((await s.rest('GET', `/api/documents/${first.id}`)).body.customer)).toContain('732829320_FACTURES');
  });

  it('keeps a routing code the e-invoice cannot carry on the customer only; without a listing, the SIREN', async () => {
    directory.list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: '732829320', routingIdentifier: 'SERVICE/COMPTA' }]);
    const s = await session({ platform: true });
    const listed = await customer(s, businessCustomer);
    expect(listed).toMatchObject({ electronic_address: '732829320', routing_code: 'SERVICE/COMPTA' });
    const doc = await issued(s, { customer_id: listed.id, date: today, items: [line('Conseil', 1, 100)] });
    const { cii } = await valid(s, doc.id);
    // BR-FR-24: « / » is not allowed under scheme 0224.
    expect(cii).not.toContain('SERVICE/COMPTA');
    expect(cii).toContain('<ram:URIID schemeID="0225">732829320</ram:URIID>');

    // No platform (no directory read): the SIREN under 0225, as every invoice before the directory.
    const plain = await session();
    const offline = await customer(plain, businessCustomer);
    expect(offline.directory_status).toBe('unknown');
    const unlisted = await issued(plain, { customer_id: offline.id, date: today, items: [line('Conseil', 1, 100)] });
    expect((await valid(plain, unlisted.id)).cii).toContain('<ram:URIID schemeID="0225">732829320</ram:URIID>');
  });

  it('refuses, in French, a listing whose address no e-invoice can carry, and keeps what the customer had', async () => {
    directory.list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: '732829320_FACTURES' }]);
    const s = await session({ platform: true });
    const listed = await customer(s, businessCustomer);

    directory.list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: 'compta@boulangerie.fr' }]);
    const spaces = await s.rest('POST', `/api/customers/${listed.id}/directory`);
    expect(spaces.status).toBe(502);
    expect(spaces.body.messages).toBe(
      'L’annuaire de la facturation électronique a répondu pour le SIREN 732829320, mais l’adresse électronique « compta@boulangerie.fr » n’est pas utilisable : 125 caractères au plus, lettres, chiffres et « + - _ . » seulement',
    );
    directory.list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: '552100554_FACTURES' }]);
    const other = await s.rest('POST', `/api/customers/${listed.id}/directory`);
    expect(other.status).toBe(502);
    expect(JSON.stringify(other.body.messages)).toContain('ne commence pas par le SIREN 732829320');
    const kept = await s.rest('GET', `/api/customers/${listed.id}`);
    expect(kept.body).toMatchObject({ directory_status: 'listed', electronic_address: '732829320_FACTURES' });

    // One usable line among others: that one.
    directory.list('732829320', 'BOULANGERIE MARTIN', [
      { addressingIdentifier: 'adresse invalide' },
      { addressingIdentifier: '732829320_COMPTA' },
    ]);
    const usable = await s.rest('POST', `/api/customers/${listed.id}/directory`);
    expect(usable.status).toBe(200);
    expect(usable.body.data.electronic_address).toBe('732829320_COMPTA');

    // On a save the directory never stops the save: the status goes back to « unknown », the server goes on.
    directory.list('552100554', 'INCONNUE SA', [{ addressingIdentifier: 'mauvaise adresse' }]);
    const saved = await customer(s, { ...businessCustomer, name: 'Inconnue SA', business_id: '552 100 554' });
    expect(saved).toMatchObject({ directory_status: 'unknown', electronic_address: '' });
    expect((await s.rest('GET', '/api/customers')).status).toBe(200);
  });
});

describe('BR-FR-12 for buyers without SIREN: every B2C and foreign buyer has a BT-49', () => {
  it('a consumer without e-mail: invoice (380), deposit (386), final invoice and credit note (381)', async () => {
    const s = await session();
    const person = await customer(s, {
      type: 'individual',
      name: 'Paul Durand',
      address: { line1: '12 rue de la Paix', postal_code: '44000', city: 'Nantes', country: 'France' },
    });
    const invoice = await issued(s, { customer_id: person.id, date: today, items: [line('Cours de guitare', 4, 30)] });
    const { cii, ubl } = await valid(s, invoice.id);
    expect(cii).toContain('<ram:Content>B2C</ram:Content><ram:SubjectCode>BAR</ram:SubjectCode>');
    // No address of its own: the seller's, where the invoice it hands over is kept.
    expect(cii).toMatch(/<ram:BuyerTradeParty>.*<ram:URIID schemeID="0225">552032534<\/ram:URIID>.*<\/ram:BuyerTradeParty>/);
    expect(ubl).toMatch(/<cac:AccountingCustomerParty><cac:Party><cbc:EndpointID schemeID="0225">552032534<\/cbc:EndpointID>/);
    expect(cii).not.toContain('schemeID="0002">Paul');

    const estimate = await issued(s, {
      type: 'estimate',
      customer_id: person.id,
      date: today,
      items: [line('Cuisine', 1, 1000, 20, { kind: 'goods' })],
    });
    const deposit = (await s.rest('POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 })).body.data;
    expect((await s.rest('POST', `/api/documents/${deposit.id}/issue`)).status).toBe(200);
    expect((await valid(s, deposit.id)).cii).toContain('<ram:TypeCode>386</ram:TypeCode>');
    const final = (await s.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' })).body.data;
    expect((await s.rest('POST', `/api/documents/${final.id}/issue`)).status).toBe(200);
    expect((await valid(s, final.id)).cii).toContain('<ram:ID>B4</ram:ID>');
    const credit = (await s.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).body.data;
    expect((await s.rest('POST', `/api/documents/${credit.id}/issue`)).status).toBe(200);
    expect((await valid(s, credit.id)).cii).toContain('<ram:TypeCode>381</ram:TypeCode>');
  });

  it('a consumer abroad, an export customer and a Swiss business: e-mail, VAT scheme, or the seller’s address', async () => {
    const s = await session();
    const abroad = await customer(s, {
      type: 'individual',
      name: 'Lukas Weber',
      address: { line1: 'Lindenstraße 2', postal_code: '10969', city: 'Berlin', country: 'Allemagne' },
    });
    const sale = await issued(s, { customer_id: abroad.id, date: today, items: [line('Lampe', 1, 120, 20, { kind: 'goods' })] });
    expect((await valid(s, sale.id)).cii).toContain('<ram:Content>B2C</ram:Content>');

    const exporter = await customer(s, {
      name: 'Tokyo Trading KK',
      address: { line1: '1-1 Marunouchi', postal_code: '100-0005', city: 'Tokyo', country: 'Japon' },
    });
    const exported = await issued(s, {
      customer_id: exporter.id,
      date: today,
      items: [{ item: 'Pendule', quantity: 1, unit_price: 2400, kind: 'goods', taxes: [] }],
    });
    const { cii: g } = await valid(s, exported.id);
    expect(g).toContain('<ram:CategoryCode>G</ram:CategoryCode>');
    expect(g).toContain('<ram:Content>B2BINT</ram:Content>');

    const swiss = await customer(s, {
      name: 'Horlogerie Favre SA',
      vat_number: 'CHE-123.456.789 TVA',
      address: { line1: 'Rue du Rhône 40', postal_code: '1204', city: 'Genève', country: 'Suisse' },
    });
    const services = await issued(s, {
      customer_id: swiss.id,
      date: today,
      items: [{ item: 'Audit', quantity: 1, unit_price: 900, taxes: [] }],
    });
    expect((await valid(s, services.id)).cii).toContain('<ram:URIID schemeID="9927">CHE123456789</ram:URIID>');
  });
});
