import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { launchBrowser, newPage, screenshot } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { newUser, Session } from '../helpers/clients';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { serveFlows } from '../helpers/fake-pa-flows';
import { serveDirectory } from '../helpers/fake-pa-directory';
import { businessCustomer, issued, line, sellerIdentity } from '../helpers/documents';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
let pa: FakePa;
let session: Session;

beforeAll(async () => {
  [server, browser, pa] = await Promise.all([startTestServer(), launchBrowser(), startFakePa()]);
  serveFlows(pa);
  serveDirectory(pa).list('732829320', 'BOULANGERIE MARTIN', [{ addressingIdentifier: '732829320_FACTURES', routingIdentifier: 'COMPTA' }]);
  session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser({ organization: 'Atelier Fontaine' }));
  await session.rest('PUT', '/api/organization', sellerIdentity);
  await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa));
});
afterAll(async () => {
  expect(pa?.violations).toEqual([]);
  await browser?.close();
  await Promise.all([server?.close(), pa?.close()]);
});

describe('the reform on screen: the directory on the customer, the e-reporting periods', () => {
  it('shows the customer’s directory line and looks it up again; lists a month of B2C sales and transmits its report', async () => {
    const customer = (await session.rest('POST', '/api/customers', businessCustomer)).body.data;
    const person = (
      await session.rest('POST', '/api/customers', {
        type: 'individual',
        name: 'Jeanne Petit',
        address: { line1: '8 rue Victor Hugo', postal_code: '69002', city: 'Lyon' },
      })
    ).body.data;
    await issued(session, { date: '2026-10-02', customer_id: person.id, items: [line('Pain', 10, 1.2, 5.5, { kind: 'goods' })] });
    const lesson = await issued(session, { date: '2026-10-15', customer_id: person.id, items: [line('Cours de pâtisserie', 1, 60, 20)] });
    // Beyond 10.3: a sale to a German business (10.1), the lesson paid (a service taxed on receipt: 10.4).
    const german = (
      await session.rest('POST', '/api/customers', {
        name: 'Müller Maschinen GmbH',
        vat_number: 'DE123456789',
        address: { line1: 'Hauptstraße 5', postal_code: '10115', city: 'Berlin', country: 'Allemagne' },
      })
    ).body.data;
    await issued(session, {
      date: '2026-10-16',
      customer_id: german.id,
      items: [line('Presse', 2, 1500, 0, { kind: 'goods', taxes: [] })],
    });
    await session.rest('POST', `/api/documents/${lesson.id}/payments`, { date: '2026-10-20', amount: 72 });
    // 10.1 on the buyer's side: advice bought from a Belgian firm, its VAT self-assessed.
    const bought = await session.rest('POST', '/api/expenses', {
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
    expect(bought.status).toBe(201);

    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: defined(defined(session.cookie).split('=')[1]), url: server.url }]);
    await page.goto(`/customers/${customer.id}`);
    const status = page.getByTestId('directory-status');
    await status.getByText('Inscrit').waitFor();
    await page.getByText('732829320_FACTURES').waitFor();
    await page.getByText('COMPTA', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Vérifier dans l’annuaire' }).click();
    await page.getByTestId('snackbar').getByText('Inscrit à l’annuaire', { exact: false }).waitFor();
    await expectNoSeriousViolations(page, 'customer directory');
    await screenshot(page, 'customer-directory');

    // A link to a period opens its year, whatever the browser's current one (these sales are of October 2026), and a
    // link to another year's period, followed on the page, moves the table there: before the reform, nothing to report,
    // and the table goes no further back.
    await page.goto('/einvoicing#ereporting-2026-10');
    const october = page.getByTestId('ereporting-2026-10-transactions');
    await october.waitFor();
    await page.evaluate(() => {
      window.location.hash = '#ereporting-2024-05';
    });
    await page.locator('strong', { hasText: /^2024$/ }).waitFor();
    await page.getByText('L’e-reporting commence avec les opérations du 1er septembre 2026.').waitFor();
    expect(await page.getByTestId('ereporting-2024-05-transactions').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Année précédente' }).isDisabled()).toBe(true);
    await screenshot(page, 'ereporting-before-reform');
    await page.getByRole('button', { name: 'Année suivante' }).click();
    await page.getByRole('button', { name: 'Année suivante' }).click();
    await page.locator('strong', { hasText: /^2026$/ }).waitFor();
    await october.getByText('À transmettre').waitFor();
    await october.getByText(/72,00/).waitFor();
    await screenshot(page, 'ereporting-to-send');
    await october.getByRole('button', { name: 'Transmettre' }).click();
    // The first report of the process loads the Flux 10 rules (seconds on a loaded machine).
    await page.getByTestId('snackbar').getByText('Déclaration 2026-10 transmise', { exact: false }).waitFor({ timeout: 60_000 });
    await october.getByText('Acceptée').waitFor();

    // The other two reports of the month, each with its amount; the international one is transmitted the same way.
    const international = page.getByTestId('ereporting-2026-10-international');
    await international.getByText('Ventes internationales B2B (10.1)').waitFor();
    await international.getByText(/3\s?000,00/).waitFor();
    const payments = page.getByTestId('ereporting-2026-10-payments');
    await payments.getByText('Encaissements de services (10.2, 10.4)').waitFor();
    await payments.getByText(/72,00/).waitFor();
    await payments.getByText('TTC encaissé').waitFor();
    await payments.getByText('À transmettre').waitFor();
    const purchases = page.getByTestId('ereporting-2026-10-purchases');
    await purchases.getByText('Achats internationaux B2B (10.1)').waitFor();
    await purchases.getByText(/500,00/).waitFor();
    await purchases.getByText('HT · 1 facture').waitFor();
    await purchases.getByText('À transmettre').waitFor();
    await international.getByRole('button', { name: 'Transmettre' }).click();
    await page
      .getByTestId('snackbar')
      .getByText('Déclaration 2026-10 (ventes internationales B2B) transmise', { exact: false })
      .waitFor({ timeout: 30_000 });
    await international.getByText('Acceptée').waitFor();
    await page.getByTestId('ereporting-2026-10-transactions').scrollIntoViewIfNeeded();
    await screenshot(page, 'ereporting-kinds');

    await page.getByRole('button', { name: /^Déclarées \(e-reporting\) \(2\)/ }).click();
    await page.getByTestId('overview-rows').getByRole('link', { name: 'E-reporting 2026-10', exact: true }).waitFor();
    await expectNoSeriousViolations(page, 'ereporting');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'ereporting-accepted');
  });
});
