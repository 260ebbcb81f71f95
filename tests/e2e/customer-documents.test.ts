import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { launchBrowser, newPage, screenshot } from '../helpers/browser';
import { newUser, Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { formatMoney } from '../../src/shared/format';
import type { CurrencyFormat } from '../../src/shared/schemas/settings';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
let cookie: string;
let api: Session;
let format: CurrencyFormat;
let owing: number;
let fresh: number;
let partialInvoice: { id: number; number: string };
const today = new Date().toISOString().slice(0, 10);
const lastMonth = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const session = new Session(server.url);
  api = session;
  await session.rest('POST', '/api/auth/register', newUser());
  cookie = defined(defined(session.cookie, 'session.cookie').split('=')[1]);
  // Thousands grouped with a space: the page must follow the organisation's currency_format ('1 234,50 €').
  const settings = (await session.rest('GET', '/api/settings')).body;
  format = { ...settings.currency_format, thousand: ' ' };
  expect((await session.rest('PUT', '/api/settings', { ...settings, currency_format: format })).status).toBe(200);

  owing = (await readyToInvoice(session)).customerId; // Boulangerie Martin
  fresh = (await session.rest('POST', '/api/customers', { name: 'Café des Arts', maturity: 15, address: { city: 'Nantes' } })).body.data.id;
  const paid = await issued(session, { customer_id: owing, date: lastMonth, items: [line('Audit', 1, 500)] }); // 600 TTC
  expect((await session.rest('POST', `/api/documents/${paid.id}/payments`, { date: today, amount: 600, method: 'transfer' })).status).toBe(
    201,
  );
  partialInvoice = await issued(session, { customer_id: owing, date: today, items: [line('Création du logo', 1, 1028.75)] }); // 1 234,50 TTC
  expect(
    (await session.rest('POST', `/api/documents/${partialInvoice.id}/payments`, { date: today, amount: 234.5, method: 'card' })).status,
  ).toBe(201);
  await issued(session, { type: 'estimate', customer_id: owing, date: today, items: [line('Étude', 1, 875)] });
  await draft(session, { customer_id: owing, date: today, items: [line('Pains spéciaux', 1, 10)] });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const money = (amount: number) => formatMoney(amount, format, 'EUR');

describe('a customer’s documents and figures in the browser', () => {
  it('shows Facturé, Encaissé, Reste dû and the documents of every type, each opening its document', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto(`/customers/${owing}`);
    await page.getByRole('heading', { name: 'Boulangerie Martin' }).waitFor();
    const figures = page.getByRole('region', { name: 'Montants du client' });
    await figures.getByText(money(1834.5)).waitFor(); // billed: 600 + 1 234,50
    expect(await figures.getByText(money(834.5), { exact: true }).count()).toBe(1); // paid: 600 + 234,50
    expect(await figures.getByText(money(1000), { exact: true }).count()).toBe(1); // still owed

    const documents = page.getByRole('region', { name: 'Documents' });
    await documents.getByText('4 documents').waitFor();
    const rows = documents.getByRole('row');
    expect(await rows.count()).toBe(5); // header + 4
    // Newest first; the draft has no number yet.
    await documents.getByRole('link', { name: 'Brouillon' }).waitFor();
    expect(await documents.getByRole('cell', { name: 'Devis', exact: true }).count()).toBe(1);
    expect(await documents.getByText('Partiellement').count()).toBe(1);
    expect(await documents.getByText('Payée').count()).toBe(1);
    await documents.getByRole('cell', { name: money(1234.5) }).waitFor();
    await screenshot(page, 'customer-documents-detail');

    await documents.getByRole('link', { name: partialInvoice.number }).click();
    await page.waitForURL(new RegExp(`/invoices/${partialInvoice.id}/view$`));
    await page.goBack();
    await page.getByRole('region', { name: 'Documents' }).getByText('4 documents').waitFor();

    // The whole row opens too: the draft opens in the editor.
    await page.getByRole('region', { name: 'Documents' }).getByRole('row').filter({ hasText: 'Brouillon' }).getByText('Facture').click();
    await page.waitForURL(/\/invoices\/\d+\/edit$/);
    await context.close();
  });

  it('a customer with no document shows zeros and invites to invoice them, with the customer already chosen', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto(`/customers/${fresh}`);
    await page.getByText('Aucun document pour ce client').waitFor();
    await page.getByRole('region', { name: 'Montants du client' }).getByText('Aucune facture émise').waitFor();
    await screenshot(page, 'customer-documents-empty');
    await page.getByRole('link', { name: 'Nouvelle facture' }).click();
    await page.waitForURL(/\/invoices\/new\/add\?customer=\d+$/);
    await page.getByRole('heading', { name: 'Nouvelle facture' }).first().waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: 'Client' }).inputValue()).toContain('Café des Arts');
    await screenshot(page, 'customer-documents-new-invoice');
    await context.close();
  });

  it('the list’s “Avec factures impayées” filter keeps only owing customers and survives a reload', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/customers');
    await page.getByText('2 clients').waitFor();
    // A kit checkbox is toggled through its label, as a user clicks it.
    const unpaid = page.locator('label', { hasText: 'Avec factures impayées' });
    await unpaid.click();
    await page.getByText('1 client', { exact: true }).waitFor();
    expect(page.url()).toContain('unpaid=true');
    await page.reload();
    await page.getByText('1 client', { exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Avec factures impayées' }).isChecked()).toBe(true);
    await page.getByRole('link', { name: 'Boulangerie Martin' }).waitFor();
    expect(await page.getByRole('link', { name: 'Café des Arts' }).count()).toBe(0);
    await screenshot(page, 'customer-documents-unpaid-filter');
    await unpaid.click();
    await page.getByText('2 clients').waitFor();
    expect(page.url()).not.toContain('unpaid');
    await context.close();
  });

  it('reads well on a phone', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto(`/customers/${owing}`);
    const documents = page.getByRole('region', { name: 'Documents' });
    await documents.getByText('4 documents').waitFor();
    // Two lines per document instead of a table: the status stays on screen, nothing scrolls sideways.
    const status = await documents.getByText('Partiellement').boundingBox();
    expect(defined(status, 'status').x + defined(status, 'status').width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'customer-documents-phone');
    await documents.getByRole('link', { name: partialInvoice.number }).click();
    await page.waitForURL(new RegExp(`/invoices/${partialInvoice.id}/view$`));
    await context.close();
  });

  // Last: it adds documents to the customer the tests above count.
  it('names a deposit invoice « Facture d’acompte » among the customer’s documents and the dashboard’s latest alike', async () => {
    const estimate = await issued(api, { type: 'estimate', customer_id: owing, date: today, items: [line('Agrandissement', 1, 2000)] });
    const deposit = await api.rest('POST', `/api/documents/${estimate.id}/deposit`, { percent: 30 });
    expect(deposit.status).toBe(201);
    const invoice = await api.rest('POST', `/api/documents/${deposit.body.data.id}/issue`);
    expect(invoice.status).toBe(200);
    const number = String(invoice.body.data.number);

    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto(`/customers/${owing}`);
    const row = page.getByTestId('customer-documents-list').getByRole('row').filter({ hasText: number });
    await row.getByRole('cell', { name: 'Facture d’acompte', exact: true }).waitFor();
    await page.goto('/');
    const latest = page.getByTestId('latest-documents').getByRole('row').filter({ hasText: number });
    await latest.getByRole('cell', { name: 'Facture d’acompte', exact: true }).waitFor();
    await context.close();
  });
});
