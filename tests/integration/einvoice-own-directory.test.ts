import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, issued, line, sellerIdentity } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { serveFlows } from '../helpers/fake-pa-flows';
import { type FakeDirectory, serveDirectory } from '../helpers/fake-pa-directory';

/**
 * The organisation's own line in its platform's directory: read by its SIREN when the connection is saved, on « Tester
 * la connexion » and on demand, kept and shown on Paramètres → Facturation électronique, and carried as the seller's
 * electronic address (BT-34) of the invoices issued afterwards; an organisation the directory does not list is warned.
 */
let server: TestServer;
let pa: FakePa;
let directory: FakeDirectory;
const OWN_SIREN = '552032534';

beforeAll(async () => {
  [server, pa] = await Promise.all([startTestServer(), startFakePa()]);
  serveFlows(pa);
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

async function withIdentity(): Promise<Session> {
  const { session } = await registered(server.url);
  expect((await session.rest('PUT', '/api/organization', sellerIdentity)).status).toBe(200);
  return session;
}

describe('the organisation’s own directory line (BT-34)', () => {
  it('absent: saving the connection looks it up and warns in French; listed later, « Vérifier » keeps its address and routing code', async () => {
    const session = await withIdentity();
    const before = await session.rest('GET', '/api/settings/einvoicing/directory');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ status: 'unknown', siren: OWN_SIREN, electronic_address: '', warning: '' });

    const lookups = directory.lookups.length;
    const saved = await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(directory.lookups.slice(lookups)).toEqual([OWN_SIREN]);
    const absent = await session.rest('GET', '/api/settings/einvoicing/directory');
    expect(absent.body).toMatchObject({ status: 'absent', siren: OWN_SIREN, electronic_address: '', routing_code: '' });
    expect(absent.body.warning).toContain(`Votre entreprise (SIREN ${OWN_SIREN}) est absente de l’annuaire de la facturation électronique`);
    expect(absent.body.checked_at).toEqual(expect.any(String));

    directory.list(OWN_SIREN, 'ATELIER FONTAINE', [{ addressingIdentifier: `${OWN_SIREN}_FACTURATION`, routingIdentifier: 'ADMIN' }]);
    const checked = await session.rest('POST', '/api/settings/einvoicing/directory');
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.messages).toBe(`Inscrite à l’annuaire : adresse ${OWN_SIREN}_FACTURATION`);
    expect(checked.body.data).toMatchObject({
      status: 'listed',
      electronic_address: `${OWN_SIREN}_FACTURATION`,
      address_scheme: '0225',
      routing_code: 'ADMIN',
      warning: '',
    });
    expect((await session.rest('GET', '/api/settings/einvoicing/directory')).body).toEqual(checked.body.data);
  });

  it('« Tester la connexion » reads it too; the invoices issued afterwards carry it as BT-34 in CII and UBL', async () => {
    const session = await withIdentity();
    // Saving the connection looks the SIREN up while the directory does not list it yet (a fresh directory: the test
    // before listed it).
    directory = serveDirectory(pa);
    expect((await session.rest('PUT', '/api/settings/einvoicing', { ...fakePaSettings(pa), syntax: 'cii' })).status).toBe(200);
    const customer = await session.rest('POST', '/api/customers', businessCustomer);
    // Issued before the line is known here: its SIREN stands as its address.
    const first = await issued(session, { date: '2026-11-02', customer_id: customer.body.data.id, items: [line('Conseil', 1, 100, 20)] });
    directory.list(OWN_SIREN, 'ATELIER FONTAINE', [{ addressingIdentifier: `${OWN_SIREN}_FACTURATION` }]);

    const lookups = directory.lookups.length;
    const check = await session.rest('POST', '/api/einvoicing/check');
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(directory.lookups.slice(lookups)).toContain(OWN_SIREN);
    expect((await session.rest('GET', '/api/settings/einvoicing/directory')).body).toMatchObject({
      status: 'listed',
      electronic_address: `${OWN_SIREN}_FACTURATION`,
    });
    const second = await issued(session, { date: '2026-11-03', customer_id: customer.body.data.id, items: [line('Conseil', 1, 200, 20)] });

    const cii = String((await session.rest('GET', `/api/documents/${second.id}/einvoice?format=cii`)).body);
    expect(cii).toMatch(
      new RegExp(
        `<ram:SellerTradeParty>[\\s\\S]*<ram:URIUniversalCommunication><ram:URIID schemeID="0225">${OWN_SIREN}_FACTURATION</ram:URIID>`,
      ),
    );
    const ubl = String((await session.rest('GET', `/api/documents/${second.id}/einvoice?format=ubl`)).body);
    expect(ubl).toContain(
      `<cac:AccountingSupplierParty><cac:Party><cbc:EndpointID schemeID="0225">${OWN_SIREN}_FACTURATION</cbc:EndpointID>`,
    );
    // Frozen at issue: the invoice issued before keeps its SIREN.
    const old = String((await session.rest('GET', `/api/documents/${first.id}/einvoice?format=cii`)).body);
    expect(old).toMatch(new RegExp(`<ram:SellerTradeParty>[\\s\\S]*<ram:URIID schemeID="0225">${OWN_SIREN}</ram:URIID>`));
  }, 180_000);

  it('refuses in French without a SIREN or without the API; a platform that fails answers 502 and keeps what was read', async () => {
    const { session } = await registered(server.url);
    const noApi = await session.rest('POST', '/api/settings/einvoicing/directory');
    expect(noApi.status).toBe(409);
    expect(JSON.stringify(noApi.body.messages)).toContain('SIREN manque');
    expect((await session.rest('PUT', '/api/organization', sellerIdentity)).status).toBe(200);
    const notConnected = await session.rest('POST', '/api/settings/einvoicing/directory');
    expect(notConnected.status).toBe(409);
    expect(JSON.stringify(notConnected.body.messages)).toContain('Aucune plateforme agréée n’est configurée');

    directory.list(OWN_SIREN, 'ATELIER FONTAINE');
    expect((await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa))).status).toBe(200);
    expect((await session.rest('GET', '/api/settings/einvoicing/directory')).body).toMatchObject({
      status: 'listed',
      electronic_address: OWN_SIREN,
    });
    pa.fail({ target: 'directory', kind: 'server-error', path: '/v1/directory-line/search' });
    const failed = await session.rest('POST', '/api/settings/einvoicing/directory');
    expect(failed.status).toBe(502);
    expect(JSON.stringify(failed.body.messages)).toContain('L’annuaire de la facturation électronique n’a pas pu être lu');
    const kept = (await session.rest('GET', '/api/settings/einvoicing/directory')).body;
    expect(kept).toMatchObject({ status: 'listed', electronic_address: OWN_SIREN });
    expect(kept.warning).toContain('Dernière lecture de l’annuaire en échec');
  });
});
