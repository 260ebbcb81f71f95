import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, dialogLayerReady, screenshot } from '../helpers/browser';
import { draft, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const nbsp = (text: string) => text.replace(/ /g, '\u00a0');
const total = (page: Page, key: string) => page.locator(`[aria-label="Totaux"] [data-total="${key}"]`);

describe('the exchange rate of a document in dollars', () => {
  it('is prefilled from Paramètres → Devises, typed on the draft with the euros following, refused when no rate, read-only once issued', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    expect((await suite.session.rest('POST', '/api/currencies', { code: 'USD', rate: '1,085' })).status).toBe(201);
    const saved = await draft(suite.session, {
      customer_id: customerId,
      date: today,
      currency: 'USD',
      items: [line('Consulting', 1, 1000, 20)],
    });
    expect(saved.exchange_rate).toBeNull();

    const { context, page } = await suite.loggedIn({ height: 1000 });
    await page.goto(`/invoices/${saved.id}/edit`);
    const rate = page.getByLabel('Taux de change');
    // The settings' rate until one is typed: 200 USD of VAT = 184,33 €, 1 200 USD = 1 105,99 €.
    await expect.poll(() => rate.inputValue()).toBe('1,0850');
    await page.getByText('Celui de Paramètres → Devises au').waitFor();
    expect(await total(page, 'base-tax').textContent()).toBe(nbsp('184,33 €'));
    expect(await total(page, 'base-total').textContent()).toBe(nbsp('1105,99 €'));

    // Typed the French way: the euros follow at once (200 / 1,1 = 181,82 €; 1 200 / 1,1 = 1 090,91 €).
    await rate.fill('1,1');
    await expect.poll(() => total(page, 'base-tax').textContent()).toBe(nbsp('181,82 €'));
    expect(await total(page, 'base-total').textContent()).toBe(nbsp('1090,91 €'));
    expect(await total(page, 'exchange-rate').textContent()).toBe('1 EUR = 1,1000 USD');
    await page.getByText('Saisi pour ce document').waitFor();
    // Taken back: the settings' rate again, and its euros.
    await page.getByRole('button', { name: 'Reprendre le taux des paramètres' }).click();
    await expect.poll(() => rate.inputValue()).toBe('1,0850');
    await expect.poll(() => total(page, 'base-tax').textContent()).toBe(nbsp('184,33 €'));

    // No rate: said in French by the field, no euros shown, nothing saved.
    await rate.fill('0');
    await page.getByText('Le taux de change doit être supérieur à 0').waitFor();
    expect(await page.getByTestId('totals-in-base').count()).toBe(0);
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText('Le taux de change doit être supérieur à 0').waitFor();
    expect((await suite.session.rest('GET', `/api/documents/${saved.id}`)).body.exchange_rate).toBeNull();

    await page.getByTestId('snackbar').getByRole('button').click();
    await rate.fill('1,1');
    await expect.poll(() => total(page, 'base-tax').textContent()).toBe(nbsp('181,82 €'));
    await page.getByText('Saisi pour ce document (Paramètres → Devises : 1,0850 au').waitFor();
    await screenshot(page, 'document-exchange-rate-draft');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText('Mis à jour avec succès').waitFor();
    await page.waitForURL('**/invoices');
    expect((await suite.session.rest('GET', `/api/documents/${saved.id}`)).body.exchange_rate).toBe('1.1');

    // The settings move; the draft keeps its typed rate, its Aperçu prints the VAT in euros at it; issued at it.
    const usd = (await suite.session.rest('GET', '/api/currencies')).body.data.find((c: { code: string }) => c.code === 'USD');
    expect((await suite.session.rest('PUT', `/api/currencies/${usd.id}`, { rate: '1,3' })).status).toBe(200);
    await page.goto(`/invoices/${saved.id}/view`);
    const preview = page.getByRole('article', { name: 'Aperçu du document' });
    await preview.getByText('Total TVA en EUR (1 EUR = 1,1 USD)').waitFor();
    await page.getByRole('button', { name: 'Émettre', exact: true }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Émettre' }).click();
    // The first issue of the run starts the EN 16931 validation worker: seconds on a loaded machine, once.
    await page
      .getByTestId('snackbar')
      .getByText(/Document émis sous le n°/)
      .waitFor({ timeout: 30_000 });
    await preview.getByText('Total TVA en EUR (1 EUR = 1,1 USD)').waitFor();
    expect((await suite.session.rest('GET', `/api/documents/${saved.id}`)).body).toMatchObject({ status: 'unpaid', exchange_rate: '1.1' });
    await preview.getByText('Total TVA en EUR (1 EUR = 1,1 USD)').scrollIntoViewIfNeeded();
    await screenshot(page, 'document-exchange-rate-preview', { fullPage: false });

    // Issued: the rate is shown, not offered for typing.
    await page.goto(`/invoices/${saved.id}/edit`);
    const shown = page.getByTestId('exchange-rate');
    await expect.poll(() => shown.inputValue()).toBe('1 EUR = 1,1000 USD');
    expect(await shown.getAttribute('readonly')).not.toBeNull();
    await page.getByText('Fixé à l’émission').waitFor();
    expect(await total(page, 'base-tax').textContent()).toBe(nbsp('181,82 €'));
    await screenshot(page, 'document-exchange-rate-issued');
    await context.close();
  });
});
