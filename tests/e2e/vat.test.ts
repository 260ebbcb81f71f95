import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { ARTIFACTS, launchBrowser, newPage, screenshot, chooseOption, chosenOption, selectNamed } from '../helpers/browser';
import { newUser, Session } from '../helpers/clients';
import { readyToInvoice, sellerIdentity } from '../helpers/documents';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A new organisation ready to invoice, and a page logged in as it. */
async function organisation(): Promise<{ session: Session; customerId: number; open: (p: string) => Promise<Page> }> {
  const session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser());
  const cookie = defined(defined(session.cookie, 'session.cookie').split('=')[1]);
  const { customerId } = await readyToInvoice(session);
  const open = async (pathname: string) => {
    const { context, page } = await newPage(browser, server.url, { width: 1400, height: 1000 });
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto(pathname);
    return page;
  };
  return { session, customerId, open };
}

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');
const total = (page: Page, key: string) => page.locator(`[aria-label="Totaux"] [data-total="${key}"]`);
const isFocused = (page: Page, name: string) =>
  page.getByRole('radio', { name, exact: true }).evaluate((el) => el === document.activeElement);
const rendered = (page: Page) => page.locator('[data-document-pages][data-render-ready="true"]').waitFor({ timeout: 20_000 });

async function newInvoiceWithALine(page: Page) {
  await page.getByRole('combobox', { name: 'Client' }).fill('Boul');
  await page.getByRole('option', { name: /Boulangerie Martin/ }).click();
  await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
  await page.getByLabel('Désignation').fill('Conseil');
  await page.getByLabel('Quantité').fill('2');
  await page.getByLabel('Prix unitaire').fill('150');
}

describe('VAT in the editor and on the document', () => {
  it('one rate per line, chosen with the keyboard; shipping taxed at the main rate or the one chosen', async () => {
    const { session, open } = await organisation();
    const page = await open('/invoices/new/add');
    await newInvoiceWithALine(page);

    // A new line carries the normal rate; the rates are radios (one choice), not checkboxes.
    expect(await page.getByRole('radio', { name: 'TVA 20 %', exact: true }).isChecked()).toBe(true);
    expect(await page.getByRole('radiogroup', { name: 'TVA' }).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'TVA 20 %' }).count()).toBe(0);
    await expect.poll(() => total(page, 'tax-20').textContent()).toBe(nbsp('60,00 €'));

    // Keyboard: Tab from Nature lands on the chosen rate; the arrow moves the choice to the next rate.
    await selectNamed(page, 'Nature').focus();
    await page.keyboard.press('Tab');
    await expect.poll(() => isFocused(page, 'TVA 20 %')).toBe(true);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('radio', { name: 'TVA 10 %', exact: true }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'TVA 20 %', exact: true }).isChecked()).toBe(false);
    await expect.poll(() => total(page, 'tax-10').textContent()).toBe(nbsp('30,00 €'));

    // Shipping is apportioned to the lines' rates (all at 10 % now): 300 + 10 at 10 % = 31; total 341.
    await page.getByLabel('Frais de port HT').fill('10');
    expect(await chosenOption(page, 'TVA des frais de port')).toBe('Taux des lignes, au prorata de leurs bases');
    await expect.poll(() => total(page, 'tax-10').textContent()).toBe(nbsp('31,00 €'));
    expect(await total(page, 'total').textContent()).toBe(nbsp('341,00 €'));

    // Another rate for shipping: 10 % on 300 = 30, 20 % on 10 = 2; total 342.
    await chooseOption(page, 'TVA des frais de port', 'TVA 20 %');
    await expect.poll(() => total(page, 'tax-20').textContent()).toBe(nbsp('2,00 €'));
    expect(await total(page, 'tax-10').textContent()).toBe(nbsp('30,00 €'));
    expect(await total(page, 'total').textContent()).toBe(nbsp('342,00 €'));
    await page.getByLabel('Désignation').scrollIntoViewIfNeeded();
    await screenshot(page, 'vat-editor');

    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    const saved = (await session.rest('GET', '/api/documents?type=invoice')).body.data[0];
    const doc = (await session.rest('GET', `/api/documents/${saved.id}`)).body;
    expect(doc).toMatchObject({
      total: 342,
      tax: 32,
      shipping: 10,
      shipping_tax: { title: 'TVA 20 %', rate: 20 },
      shipping_tax_auto: false,
    });
    expect(doc.items[0].taxes).toEqual([{ title: 'TVA 10 %', rate: 10 }]);

    // The rendered document: shipping before the VAT rows, the 20 % group made of shipping alone.
    await page.goto(`/invoices/${saved.id}/view`);
    await rendered(page);
    const totals = page.getByRole('table', { name: 'Totaux du document' }).first();
    await expect.poll(() => totals.locator('[data-total="shipping"] th').textContent()).toBe('Frais de port HT');
    expect(await totals.locator('[data-total="tax-TVA 20 %-20"] th').textContent()).toBe(`TVA 20,00\u202f% sur ${nbsp('10,00 €')}`);
    expect(await totals.locator('[data-total="tax-total"] td').textContent()).toBe(nbsp('32,00 €'));
    expect(await totals.locator('[data-total="total"] td').textContent()).toBe(nbsp('342,00 €'));
    await page
      .locator('[data-document-pages] [data-page]')
      .first()
      .screenshot({ path: path.join(ARTIFACTS, 'vat-document.png') });
  });

  it('franchise en base: no rate offered, the mention instead; the document shows no VAT column nor VAT rows', async () => {
    const { session, open } = await organisation();
    const profile = await session.rest('PUT', '/api/organization', {
      ...sellerIdentity,
      legal_form: 'EI',
      capital: '',
      rcs_city: '',
      vat_number: '',
      vat_regime: 'franchise',
    });
    expect(profile.status).toBe(200);

    const page = await open('/invoices/new/add');
    await newInvoiceWithALine(page);
    // No rate on the line (the delivery address's own radios are elsewhere in the form).
    const line = page.locator('[data-line="0"]');
    expect(await line.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: /TVA/ }).count()).toBe(0);
    await line.getByText('TVA non applicable, art. 293 B du CGI').waitFor();
    expect(await selectNamed(page, 'TVA des frais de port').count()).toBe(0);
    await page.getByRole('textbox', { name: /^Frais de port/ }).fill('10');
    await expect.poll(() => total(page, 'total').textContent()).toBe(nbsp('310,00 €'));
    const card = page.getByRole('region', { name: 'Totaux' });
    expect(await card.textContent()).not.toMatch(/HT|TTC|TVA/);
    await screenshot(page, 'vat-franchise-editor');

    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    const saved = (await session.rest('GET', '/api/documents?type=invoice')).body.data[0];
    const issue = await session.rest('POST', `/api/documents/${saved.id}/issue`);
    expect(issue.status).toBe(200);
    expect(issue.body.data).toMatchObject({ tax: 0, total: 310, shipping_tax: null });

    for (const pathname of [`/invoices/${saved.id}/view`, `/share/${saved.uuid}`]) {
      await page.goto(pathname);
      await rendered(page);
      const sheet = page.locator('[data-document-pages] [data-page]').first();
      const headers = await sheet.locator('thead th').allTextContents();
      expect(headers.length).toBeGreaterThan(2);
      expect(headers.join(' ')).not.toMatch(/TVA|\bHT\b|TTC/);
      const rows = await sheet.locator('[data-totals] th').allTextContents();
      expect(rows).toEqual(['Sous-total', 'Frais de port', 'Total']);
      expect(await sheet.locator('[data-legal-mentions]').textContent()).toContain('TVA non applicable, art. 293 B du CGI');
    }
    await page
      .locator('[data-document-pages] [data-page]')
      .first()
      .screenshot({ path: path.join(ARTIFACTS, 'vat-franchise-document.png') });

    // The catalogue item form offers no rate either.
    await page.goto('/items');
    await page.getByRole('button', { name: 'Nouvel article' }).click();
    await page.getByRole('dialog').getByText('TVA non applicable, art. 293 B du CGI').waitFor();
    expect(await page.getByRole('dialog').getByRole('radiogroup', { name: 'TVA par défaut' }).count()).toBe(0);
    await screenshot(page, 'vat-franchise-item');
  });
});
