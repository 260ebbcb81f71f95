import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { dialogLayerReady, launchBrowser, newPage, screenshot, chooseOption } from '../helpers/browser';
import { newUser, Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { formatMoney } from '../../src/shared/format';
import type { CurrencyFormat } from '../../src/shared/schemas/settings';
import { defined } from '../../src/shared/defined';
import { parisToday } from '../../src/shared/paris-date';
import { addDays } from '../../src/shared/calendar-dates';

let server: TestServer;
let browser: Browser;
let cookie: string;
let format: CurrencyFormat;
// The app's day is Paris's: the dashboard's month is counted from it, so a UTC date would miss it around midnight.
const today = parisToday();
const daysAgo = (n: number) => addDays(today, -n);
const overdueDate = daysAgo(40);
let shareUuid: string;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser());
  cookie = defined(defined(session.cookie, 'session.cookie').split('=')[1]);
  // The organisation groups thousands with a space: amounts read '1 234,50 €'.
  const settings = (await session.rest('GET', '/api/settings')).body;
  format = { ...settings.currency_format, thousand: ' ' };
  expect((await session.rest('PUT', '/api/settings', { ...settings, currency_format: format })).status).toBe(200);

  const { customerId } = await readyToInvoice(session); // Boulangerie Martin
  const other = (
    await session.rest('POST', '/api/customers', {
      name: 'Atelier Bleu',
      business_id: '443 061 841',
      address: { line1: '8 rue Oberkampf', postal_code: '75011', city: 'Paris' },
    })
  ).body.data.id;
  // Numbering is chronological (CGI art. 242 nonies A): the oldest invoice is issued first.
  await issued(session, { customer_id: customerId, date: overdueDate, maturity: daysAgo(10), items: [line('Audit', 1, 500)] }); // 600 TTC, overdue
  const unpaid = await issued(session, { customer_id: customerId, date: today, items: [line('Création du logo', 1, 1028.75)] }); // 1 234,50 TTC
  const paid = await issued(session, { customer_id: other, date: today, items: [line('Maintenance', 2, 150)] }); // 360 TTC
  expect((await session.rest('POST', `/api/documents/${paid.id}/payments`, { date: today, amount: 360, method: 'transfer' })).status).toBe(
    201,
  );
  await draft(session, { customer_id: customerId, date: today, items: [line('Brouillon à supprimer', 1, 10)] }); // 12 TTC
  await issued(session, { type: 'estimate', customer_id: customerId, date: today, items: [line('Étude', 1, 875)] }); // 1 050 TTC
  shareUuid = unpaid.uuid;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const money = (amount: number) => formatMoney(amount, format);
const rows = (page: Page) => page.locator('main tbody tr');
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });
async function openMenu(page: Page, text: string, status?: string) {
  const target = status ? row(page, text).filter({ hasText: status }) : row(page, text);
  await target.getByRole('button', { name: /^Actions / }).click();
  await page.getByRole('menu').waitFor();
}

describe('the documents list in the browser', () => {
  it('lists invoices with their status, filters them from the URL, sorts, duplicates, converts and deletes', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto('/invoices');
    await page.getByText('4 factures').waitFor();
    for (const status of ['Impayée', 'Payée', 'Exigible', 'Brouillon'])
      await rows(page).getByText(status, { exact: true }).first().waitFor();
    expect(await row(page, 'Atelier Bleu').getByRole('cell').nth(4).textContent()).toBe(money(360));
    expect(await row(page, money(1234.5)).count()).toBe(1); // '1 234,50 €': the organisation's format
    expect(await page.getByRole('columnheader', { name: "Date d'échéance" }).count()).toBe(1); // SPEC §9 maturity label
    await screenshot(page, 'documents-list');

    // Status, then search: each lives in the URL and survives a reload.
    await chooseOption(page, 'Statut', 'Exigible');
    await page.getByText('1 facture', { exact: true }).waitFor();
    expect(await row(page, money(600)).count()).toBe(1);
    expect(page.url()).toContain('status=overdue');
    await chooseOption(page, 'Statut', 'Tous');
    await page.getByRole('searchbox', { name: 'Rechercher' }).fill('atelier');
    await page.getByText('1 facture', { exact: true }).waitFor();
    await page.reload();
    await page.getByText('1 facture', { exact: true }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Rechercher' }).inputValue()).toBe('atelier');
    expect(await rows(page).first().textContent()).toContain('Atelier Bleu');
    await screenshot(page, 'documents-list-filtered');
    await page.getByRole('searchbox', { name: 'Rechercher' }).fill('zzzz');
    await page.getByText('Aucun document ne correspond à ces filtres.').waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Effacer les filtres' }).last().click();
    await page.getByText('4 factures').waitFor();
    expect(await page.getByRole('searchbox', { name: 'Rechercher' }).inputValue()).toBe('');

    // The customer filter searches customers and keeps its label after a reload.
    await page.getByRole('combobox', { name: 'Client' }).fill('atel');
    await page.getByRole('option', { name: 'Atelier Bleu' }).click();
    await page.getByText('1 facture', { exact: true }).waitFor();
    await page.reload();
    await page.getByText('1 facture', { exact: true }).waitFor();
    // The label is read back from the customer the URL names, which may answer after the list.
    await expect.poll(() => page.getByRole('combobox', { name: 'Client' }).inputValue(), { timeout: 15_000 }).toBe('Atelier Bleu');
    await page.goto('/invoices');

    // Sorting by total, both ways.
    await page.getByRole('button', { name: 'Total TTC' }).click();
    await page.waitForURL(/sort_by=total/);
    await expect.poll(() => rows(page).first().textContent()).toContain(money(12));
    await expect.poll(() => rows(page).last().textContent()).toContain(money(1234.5));
    await page.getByRole('button', { name: /Total TTC/ }).click();
    await expect.poll(() => rows(page).first().textContent()).toContain(money(1234.5));

    // An issued invoice is a legal record: no delete; the share link is copied.
    await openMenu(page, money(1234.5));
    expect(await page.getByRole('menuitem', { name: 'Supprimer' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'Modifier' }).count()).toBe(0);
    await screenshot(page, 'documents-row-menu');
    await page.getByRole('menuitem', { name: 'Copier le lien de partage' }).click();
    await page.getByTestId('snackbar').getByText('Lien copié avec succès').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/share/${shareUuid}`);

    // Duplicate: a new draft, opened in the editor.
    await openMenu(page, money(1234.5));
    await page.getByRole('menuitem', { name: 'Dupliquer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.waitForURL(/\/invoices\/\d+\/edit$/);
    await page.goto('/invoices');
    await page.getByText('5 factures').waitFor();
    expect(await row(page, money(1234.5)).count()).toBe(2);

    // Convert the estimate into an invoice from its row menu; the estimate is then 'Converti'.
    await page.getByRole('navigation', { name: 'Types de documents' }).getByRole('link', { name: 'Devis' }).click();
    await page.getByText('1 devis').waitFor();
    await openMenu(page, money(1050));
    await page.getByRole('menuitem', { name: 'Convertir en facture' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.waitForURL(/\/invoices\/\d+\/edit$/);
    await page.goto('/estimates');
    await row(page, money(1050)).getByText('Converti').waitFor();
    await page.goto('/invoices');
    await page.getByText('6 factures').waitFor();

    // Delete a draft after the confirmation.
    await openMenu(page, money(12));
    await page.getByRole('menuitem', { name: 'Supprimer' }).click();
    await dialogLayerReady(page);
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Voulez-vous vraiment supprimer ?').waitFor();
    await confirm.getByRole('button', { name: 'Oui' }).click();
    await page.getByTestId('snackbar').getByText('Supprimé avec succès').waitFor();
    await page.getByText('5 factures').waitFor();
    expect(await row(page, money(12)).count()).toBe(0);

    // A draft opens in the editor, an issued invoice in its view.
    await row(page, 'Atelier Bleu').getByRole('cell').nth(1).click();
    await page.waitForURL(/\/invoices\/\d+\/view$/);
    await context.close();
  });

  it('shows the dashboard figures computed from the same documents', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/');
    const month = today.slice(0, 7);
    const year = today.slice(0, 4);
    // Issued invoices only (drafts and estimates are no turnover): 1 028,75 + 300 HT today, 500 HT forty days ago.
    const monthHt = 1028.75 + 300 + (overdueDate.startsWith(month) ? 500 : 0);
    const yearHt = 1028.75 + 300 + (overdueDate.startsWith(year) ? 500 : 0);
    await page.getByTestId('kpi-month').getByText(money(monthHt)).waitFor();
    expect(await page.getByTestId('kpi-year').textContent()).toBe(money(yearHt));
    expect(await page.getByTestId('kpi-outstanding').textContent()).toBe(money(1234.5 + 600));
    expect(await page.getByTestId('kpi-overdue').textContent()).toBe(money(600));
    await page.getByText('2 factures à encaisser').waitFor();
    await page.getByText('1 facture exigible').waitFor();
    const overdueColor = await page.getByTestId('kpi-overdue').evaluate((el) => getComputedStyle(el).color);
    expect(overdueColor).toBe('rgb(198, 40, 40)'); // the danger red of the light theme
    const bars = page.getByRole('list', { name: /Chiffre d’affaires HT par mois/ }).getByRole('listitem');
    expect(await bars.count()).toBe(12);
    expect(await bars.nth(Number(today.slice(5, 7)) - 1).getAttribute('aria-label')).toContain(money(monthHt));
    const latest = page.getByRole('region', { name: 'Derniers documents' });
    await latest.getByText(money(1234.5)).first().waitFor();
    await latest.getByText('Exigible').waitFor();
    await screenshot(page, 'dashboard');
    await context.close();
  });

  it('invites a new organisation to create its first document, and says when the Clipboard API is missing', async () => {
    const fresh = new Session(server.url);
    await fresh.rest('POST', '/api/auth/register', newUser());
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: defined(defined(fresh.cookie, 'fresh.cookie').split('=')[1]), url: server.url }]);
    await page.goto('/invoices');
    await page.getByText('Pas encore de factures').waitFor();
    expect(await page.getByRole('main').getByRole('link', { name: 'Nouvelle facture' }).first().getAttribute('href')).toBe(
      '/invoices/new/add',
    );
    await page.goto('/');
    await page.getByText('Aucun document pour l’instant').waitFor();
    await context.close();

    // SPEC §8: without navigator.clipboard the share action says so in an error snackbar.
    const second = await newPage(browser, server.url);
    await second.context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await second.page.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
    await second.page.goto('/invoices');
    await openMenu(second.page, money(1234.5), 'Impayée');
    await second.page.getByRole('menuitem', { name: 'Copier le lien de partage' }).click();
    const snack = second.page.getByTestId('snackbar');
    await snack.getByText('The Clipboard API is not available').waitFor();
    expect(await snack.getAttribute('data-tone')).toBe('error');
    await second.context.close();

    // On a phone the rows are cards (tests/e2e/phone.test.ts); the page itself never scrolls sideways.
    const phone = await newPage(browser, server.url, { width: 390, height: 844 });
    await phone.context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await phone.page.goto('/invoices');
    await phone.page.locator('main [data-shape=cards] li').first().waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone.page, 'documents-list-narrow');
    await phone.context.close();
  });
});
