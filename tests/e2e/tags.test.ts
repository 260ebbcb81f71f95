import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { chooseOption, dialogLayerReady, launchBrowser, newPage, screenshot } from '../helpers/browser';
import { newUser, Session } from '../helpers/clients';
import { defined } from '../../src/shared/defined';

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
  for (const name of ['Atelier Bleu', 'Boulangerie Martin']) await session.rest('POST', '/api/customers', { name });
  await session.rest('POST', '/api/items', { name: 'Pain de campagne', unit_price: 3.2 });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Paramètres → Étiquettes', () => {
  it('creates a tag, puts it on a customer, shows its chip, filters the list by it, then deletes it after asking', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/settings/tags');
    await page.getByText('Aucune étiquette pour l’instant.', { exact: false }).waitFor();

    // Nothing checked under "S’applique aux": refused before any call.
    await page.getByLabel('Nouvelle étiquette').fill('Grand compte');
    await page.getByLabel('Rouge').check();
    await page.getByRole('checkbox', { name: 'Clients' }).locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await page.getByRole('checkbox', { name: 'Articles' }).locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByRole('alert').getByText('Portée : cochez au moins un type de fiche').waitFor();
    await page.getByRole('checkbox', { name: 'Clients' }).locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page
      .getByRole('row', { name: /Grand compte/ })
      .getByText('Clients')
      .waitFor();
    expect(await page.getByLabel('Nouvelle étiquette').inputValue()).toBe(''); // the form starts over

    // Same name, other case: the server's 409 shows by the field.
    await page.getByLabel('Nouvelle étiquette').fill('grand COMPTE');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByText('L’étiquette « Grand compte » existe déjà').waitFor();
    await page.getByLabel('Nouvelle étiquette').fill('Bio');
    await page.getByLabel('Vert').check();
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByRole('row', { name: /Bio/ }).waitFor();

    // Rename and recolour in place.
    await page.getByRole('button', { name: 'Modifier Bio' }).click();
    const edit = page.getByRole('form', { name: 'Modifier l’étiquette Bio' });
    await edit.getByLabel('Nom', { exact: true }).fill('Bio local');
    await edit.getByLabel('Turquoise').check();
    await screenshot(page, 'settings-tags-edit');
    await edit.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByRole('row', { name: /Bio local/ }).waitFor();
    await screenshot(page, 'settings-tags');

    // The customer form offers the customers' tags only; the chip shows in the list.
    await page.goto('/customers');
    await page.getByText('2 clients').waitFor();
    await page.getByRole('link', { name: 'Atelier Bleu' }).click();
    await page.getByRole('button', { name: 'Modifier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier Atelier Bleu' });
    await dialog.getByRole('checkbox', { name: 'Grand compte' }).locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await dialog.getByRole('checkbox', { name: 'Bio local' }).locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await dialog.getByRole('checkbox', { name: 'Bio local' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'customers-form-tags');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Mis à jour avec succès').waitFor();
    await page.getByRole('definition').getByText('Grand compte').waitFor();

    await page.goto('/customers');
    const row = page.getByRole('row', { name: /Atelier Bleu/ });
    await row.getByText('Grand compte').waitFor();
    await chooseOption(page, 'Étiquette', 'Grand compte');
    await page.getByText('1 client', { exact: true }).waitFor();
    expect(page.url()).toMatch(/tag=\d+/); // the filter lives in the URL
    await page.reload();
    await page.getByText('1 client', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Boulangerie Martin' }).count()).toBe(0);
    await screenshot(page, 'customers-tag-filter');

    // Items: the picker offers "Bio local" (customers and items), not "Grand compte" (customers only).
    await page.goto('/items');
    await page.getByRole('button', { name: 'Pain de campagne' }).click();
    const item = page.getByRole('dialog', { name: 'Modifier Pain de campagne' });
    await item.getByRole('checkbox', { name: 'Bio local' }).locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    expect(await item.getByRole('checkbox', { name: 'Grand compte' }).count()).toBe(0);
    await item.getByRole('button', { name: 'Enregistrer' }).click();
    await page
      .getByRole('row', { name: /Pain de campagne/ })
      .getByText('Bio local')
      .waitFor();
    await chooseOption(page, 'Étiquette', 'Bio local');
    await page.getByText('1 article', { exact: true }).waitFor();

    // Deleting a tag in use says what happens to the records carrying it.
    await page.goto('/settings/tags');
    await page.getByRole('button', { name: 'Supprimer Grand compte' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByText('Elle est posée sur 1 client : elle leur sera retirée.', { exact: false }).waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.getByRole('row', { name: /Grand compte/ }).waitFor({ state: 'detached' });
    const customers = (await session.rest('GET', '/api/customers')).body;
    expect(customers.total).toBe(2);
    expect(customers.data.find((c: { name: string }) => c.name === 'Atelier Bleu').tags.map((t: { name: string }) => t.name)).toEqual([
      'Bio local',
    ]);
    await context.close();
  });
});
