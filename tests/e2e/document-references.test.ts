import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserSuite, dialogLayerReady, newPage, screenshot } from '../helpers/browser';
import { businessCustomer, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();
const quai = { line1: '18 quai Saint-Antoine', postal_code: '69002', city: 'Lyon', country: 'France' };

beforeAll(async () => {
  await readyToInvoice(suite.session);
  await suite.session.rest('POST', '/api/customers', { ...businessCustomer, name: 'Épicerie Roux', shipping: quai });
});

/** The drawn pages of the document (not the hidden copy the renderer measures). */
const pages = (page: Page) => page.locator('[data-document-pages] [data-page]');
const rendered = (page: Page) => page.locator('[data-document-pages][data-render-ready="true"]').waitFor({ timeout: 20_000 });
const field = (page: Page, label: string) => page.getByRole('textbox', { name: `Livraison : ${label}` });

describe('purchase-order number, delivery address and RM registration, as a user sets and reads them', () => {
  it('are typed in Infos de l’entreprise and the editor, and printed on the issued invoice', async () => {
    const { page } = await suite.loggedIn({ width: 1400, height: 1400 });

    // An artisan company: registered at the RM, beside the RCS.
    await page.goto('/settings/organization');
    await page.getByLabel('Immatriculation au RM').fill('RM 552 032 534 Paris');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page
      .getByTestId('snackbar')
      .getByText(/succès/)
      .waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-organization-rm');

    await page.goto('/invoices/new/add');
    await page.getByRole('combobox', { name: 'Client' }).fill('Roux');
    await page.getByRole('option', { name: /Épicerie Roux/ }).click();
    // The customer ships elsewhere than they are billed: the document starts with that address.
    await expect.poll(() => field(page, 'Adresse').inputValue()).toBe('18 quai Saint-Antoine');
    expect(await page.getByRole('radio', { name: 'Autre adresse de livraison' }).isChecked()).toBe(true);
    // "Identique" clears it; "Autre" starts again from the customer's shipping address, which the user completes.
    // The kit's radios are chosen through their label, as a user clicks them.
    await page.locator('label', { hasText: 'Identique à l’adresse de facturation' }).click();
    expect(await field(page, 'Adresse').count()).toBe(0);
    await page.locator('label', { hasText: 'Autre adresse de livraison' }).click();
    await field(page, 'Complément d’adresse').fill('Quai de livraison B, portail bleu');
    await page.getByLabel('N° de bon de commande').fill('BC-2026-117');

    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByLabel('Désignation').fill('Pose d’une vitrine réfrigérée');
    await page.getByLabel('Prix unitaire').fill('1200');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'document-editor-references');

    // A started address must be complete: the form says what is missing before anything is sent.
    await field(page, 'Ville').fill('');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByText('Adresse de livraison : la ville est attendue').first().waitFor();
    await field(page, 'Ville').fill('Lyon');

    await page.getByRole('button', { name: 'Enregistrer & émettre' }).click();
    // Saved first (the Aperçu opens), then asked: a failure says which of the two did not happen.
    await page.waitForURL(/\/invoices\/\d+\/view$/);
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Émettre' }).click();
    // The first issue of the run starts the EN 16931 validation worker: seconds on a loaded machine, once.
    await page
      .getByTestId('snackbar')
      .getByText(/Document émis sous le n°/)
      .waitFor({ timeout: 30_000 });
    await rendered(page);
    await page.getByTestId('snackbar').getByRole('button').click();
    await page.getByTestId('snackbar').waitFor({ state: 'hidden' });
    const doc = pages(page);
    await doc.getByText('Votre commande n° BC-2026-117').waitFor();
    await doc.getByText('Quai de livraison B, portail bleu').waitFor();
    await doc.getByText(/RM 552 032 534 Paris/).waitFor();
    await doc.first().screenshot({ path: path.join(ARTIFACTS, 'document-invoice-references.png') });

    // The public page of the invoice shows the same, as issued.
    const saved = (await suite.session.rest('GET', '/api/documents?type=invoice')).body.data[0];
    const full = (await suite.session.rest('GET', `/api/documents/${saved.id}`)).body;
    expect(full).toMatchObject({
      purchase_order: 'BC-2026-117',
      delivery_address: { ...quai, line2: 'Quai de livraison B, portail bleu' },
    });
    const { page: visitor } = await newPage(suite.browser, suite.server.url, { width: 1200, height: 1000 });
    await visitor.goto(`/share/${full.uuid}`);
    await rendered(visitor);
    await pages(visitor).getByText('Votre commande n° BC-2026-117').waitFor();
    await pages(visitor).getByText('Quai de livraison B, portail bleu').waitFor();
  }, 60_000);
});
