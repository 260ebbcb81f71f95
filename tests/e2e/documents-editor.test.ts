import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { dialogLayerReady, launchBrowser, newPage, screenshot, chooseOption } from '../helpers/browser';
import { newUser, Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { defined } from '../../src/shared/defined';
import { parisToday } from '../../src/shared/paris-date';

let server: TestServer;
let browser: Browser;
let session: Session;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser());
  cookie = defined(defined(session.cookie, 'session.cookie').split('=')[1]);
  await readyToInvoice(session);
  const taxes = (await session.rest('GET', '/api/taxes')).body.data as { id: number; rate: number }[];
  await session.rest('POST', '/api/items', {
    code: 'CONS',
    name: 'Conseil',
    unit: 'h',
    unit_price: 150,
    tax_ids: [
      defined(
        taxes.find((t) => t.rate === 20),
        'taxes.find((t) => t.rate === 20)',
      ).id,
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string): Promise<Page> {
  const { context, page } = await newPage(browser, server.url, { height: 1000 });
  await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
  await page.goto(path);
  return page;
}

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');
const total = (page: Page, key: string) => page.locator(`[aria-label="Totaux"] [data-total="${key}"]`);

describe('the document editor in the browser', () => {
  it('writes an invoice of three lines with two rates and discounts, whose totals match the hand-computed example', async () => {
    const page = await open('/invoices/new/add');
    await page.getByRole('combobox', { name: 'Client' }).fill('Boul');
    await page.getByRole('option', { name: /Boulangerie Martin/ }).click();

    // Line 1 from the catalogue (the item created in Articles is in the picker).
    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByRole('combobox', { name: 'Article du catalogue' }).fill('cons');
    await page.getByRole('option', { name: 'CONS — Conseil' }).click();
    await expect.poll(() => page.getByLabel('Désignation').inputValue()).toBe('Conseil');
    expect(await page.getByLabel('Prix unitaire').inputValue()).toBe('150');
    await page.getByLabel('Quantité').fill('3');
    await page.getByLabel('Remise', { exact: true }).fill('10');

    // Line 2: free text at 10 %.
    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByLabel('Désignation').fill('Formation');
    await page.getByLabel('Quantité').fill('2');
    await page.getByLabel('Prix unitaire').fill('87,5');
    // One rate per line: choosing 10 % replaces the default 20 %.
    await page.getByRole('radiogroup', { name: 'TVA' }).getByText('TVA 10 %', { exact: true }).click();

    // Line 3: a fixed discount, at 5,5 %; Enter in the last row adds a row, removing it asks first.
    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByLabel('Désignation').fill('Livre');
    await page.getByLabel('Quantité').fill('4');
    await page.getByLabel('Prix unitaire').fill('12,35');
    await chooseOption(page, 'Type de remise', 'Montant');
    await page.getByLabel('Remise', { exact: true }).fill('2,4');
    await page.getByRole('radiogroup', { name: 'TVA' }).getByText('TVA 5,5 %', { exact: true }).click();
    await page.getByLabel('Prix unitaire').press('Enter');
    await page.getByRole('button', { name: 'Supprimer la ligne 4' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByText('Voulez-vous vraiment supprimer ?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await expect.poll(() => page.getByRole('button', { name: /Supprimer la ligne/ }).count()).toBe(3);

    await page.getByLabel('Remise globale').fill('5');
    // 405 + 175 + 47 = 627; −5 % = 31,35; VAT 2,46 + 16,63 + 76,95; total 691,69.
    await expect.poll(() => total(page, 'subtotal').textContent()).toBe(nbsp('627,00 €'));
    expect(await total(page, 'discount').textContent()).toBe(nbsp('−31,35 €'));
    expect(await total(page, 'tax-5.5').textContent()).toBe(nbsp('2,46 €'));
    expect(await total(page, 'tax-10').textContent()).toBe(nbsp('16,63 €'));
    expect(await total(page, 'tax-20').textContent()).toBe(nbsp('76,95 €'));
    expect(await total(page, 'total').textContent()).toBe(nbsp('691,69 €'));
    await screenshot(page, 'document-editor');

    // The Aperçu tab shows the unsaved form; back on Créer, nothing was lost.
    await page.getByRole('link', { name: 'Aperçu' }).click();
    await page.getByRole('article', { name: 'Aperçu du document' }).getByText('Brouillon (numéroté à l’émission)').waitFor();
    await screenshot(page, 'document-preview-new');
    await page.getByRole('link', { name: 'Créer' }).click();
    await expect.poll(() => total(page, 'total').textContent()).toBe(nbsp('691,69 €'));

    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.waitForURL('**/invoices');
    const saved = (await session.rest('GET', '/api/documents?type=invoice')).body.data[0];
    expect(saved).toMatchObject({ total: 691.69, status: 'draft' });

    // Issue it from its Aperçu, then pay it in two steps. The editor dates it today: it opens this year's series.
    const year = parisToday().slice(0, 4);
    await page.goto(`/invoices/${saved.id}/view`);
    await page.getByRole('button', { name: 'Émettre', exact: true }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Émettre' }).click();
    // The first issue of the run starts the EN 16931 validation worker: seconds on a loaded machine, once.
    await page.getByTestId('snackbar').getByText(`Document émis sous le n° F${year}-0001`).waitFor({ timeout: 30_000 });
    await page.getByText('Impayée').first().waitFor();
    await screenshot(page, 'document-view');
    await page.getByRole('link', { name: 'Paiements' }).click();
    await page.getByLabel('Montant').fill('200');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('amount-due').getByText(nbsp('491,69 €')).waitFor();
    await page.getByText('Partiellement').first().waitFor();
    await page.getByRole('button', { name: 'Solder' }).click();
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('amount-due').getByText(nbsp('0,00 €')).waitFor();
    await page.getByText('Payée').first().waitFor();
    await screenshot(page, 'document-payments');

    // A credit note for one of the two training days, issued with its own number.
    await page.getByRole('link', { name: 'Aperçu' }).click();
    await page.getByRole('button', { name: 'Plus' }).click();
    await page.getByRole('menuitem', { name: 'Établir un avoir partiel' }).click();
    const credit = page.getByRole('dialog', { name: `Avoir sur la facture F${year}-0001` });
    await credit.getByLabel('Quantité à créditer : Formation').fill('1');
    await credit.getByRole('button', { name: 'Créer l’avoir' }).click();
    await page.waitForURL(/\/credits\/\d+\/edit/);
    await page.getByRole('link', { name: 'Aperçu' }).click();
    await page.getByRole('button', { name: 'Émettre', exact: true }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Émettre' }).click();
    await page.getByTestId('snackbar').getByText(`Document émis sous le n° AV${year}-0001`).waitFor();
    await page.getByText(`Avoir sur la facture n° F${year}-0001`).first().waitFor();
    await page.context().close();
  });

  it('converts an issued estimate into an invoice; Ctrl+S saves; an issued invoice is read-only', async () => {
    const customers = (await session.rest('GET', '/api/customers')).body.data;
    const estimate = await issued(session, { type: 'estimate', customer_id: customers[0].id, items: [line('Cuisine équipée', 1, 4800)] });
    const page = await open(`/estimates/${estimate.id}/view`);
    await page.getByRole('button', { name: /Actions devis/ }).click();
    await page.getByRole('menuitem', { name: 'Convertir en facture' }).click();
    await page.waitForURL(/\/invoices\/\d+\/edit/);
    await page.getByRole('combobox', { name: 'Client' }).waitFor();
    await expect.poll(() => total(page, 'total').textContent()).toBe(nbsp('5760,00 €'));
    await page.getByLabel('Note').fill('Merci de votre confiance');
    await page.keyboard.press('Control+s');
    await page.getByTestId('snackbar').getByText('Mis à jour avec succès').waitFor();
    await page.waitForURL('**/invoices');
    const invoice = (await session.rest('GET', '/api/documents?type=invoice&status=draft')).body.data[0];
    const full = (await session.rest('GET', `/api/documents/${invoice.id}`)).body;
    expect(full).toMatchObject({ note: 'Merci de votre confiance', origin: { id: estimate.id } });

    const paid = (await session.rest('GET', '/api/documents?type=invoice&status=paid')).body.data[0];
    await page.goto(`/invoices/${paid.id}/edit`);
    await page
      .getByRole('note')
      .getByText(/il ne se modifie plus/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Enregistrer', exact: true }).count()).toBe(0);

    // 'Enregistrer & imprimer' saves, then opens the browser's print of the laid-out pages.
    await page.addInitScript(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await page.goto(`/invoices/${invoice.id}/edit`);
    await page.getByLabel('Note').fill('Imprimée');
    await page.getByRole('button', { name: 'Autres façons d’enregistrer' }).click();
    await page.getByRole('menuitem', { name: 'Enregistrer & imprimer' }).click();
    await page.waitForURL(new RegExp(`/invoices/${invoice.id}/view$`));
    await page.locator('[data-render-ready="true"]').waitFor();
    await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body.note).toBe('Imprimée');
    await page.context().close();
  });

  it('asks before issuing, and when mentions are missing lists them on the Aperçu with where to fix them', async () => {
    const newcomer = new Session(server.url);
    await newcomer.rest('POST', '/api/auth/register', newUser());
    const customer = (await newcomer.rest('POST', '/api/customers', { name: 'Client Pressé' })).body.data;
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([
      { name: 'session', value: defined(defined(newcomer.cookie, 'newcomer.cookie').split('=')[1]), url: server.url },
    ]);
    await page.goto('/invoices/new/add');
    await page.getByRole('combobox', { name: 'Client' }).fill('Press');
    await page.getByRole('option', { name: /Client Pressé/ }).click();
    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByLabel('Désignation').fill('Audit express');
    await page.getByLabel('Prix unitaire').fill('300');
    await page.getByRole('button', { name: 'Enregistrer & émettre' }).click();
    // Validated first, so no « Émettre définitivement ? » for a document that cannot be issued; one banner,
    // the current reason, and no green « Mis à jour avec succès » beside it.
    const problems = page.getByRole('alert').filter({ hasText: 'Ce document ne peut pas encore être émis' });
    await problems.waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await page.getByTestId('snackbar').getByText('avec succès').count()).toBe(0);
    await problems.getByText(/le SIREN ou SIRET de votre entreprise/).waitFor();
    await problems.getByText(/l’adresse de facturation du client/).waitFor();
    await problems.getByRole('link', { name: 'Compléter Infos de l’entreprise' }).waitFor();
    expect(await problems.getByRole('link', { name: 'Compléter la fiche client' }).getAttribute('href')).toBe(`/customers/${customer.id}`);
    await screenshot(page, 'document-issue-missing-mentions');
    const saved = (await newcomer.rest('GET', '/api/documents')).body.data[0];
    expect(saved).toMatchObject({ status: 'draft', number: null });
    await context.close();
  });
});
