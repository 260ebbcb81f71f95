import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { chooseOption, dialogLayerReady, launchBrowser, newPage, screenshot } from '../helpers/browser';
import { newUser, Session } from '../helpers/clients';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  const session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser());
  cookie = defined(defined(session.cookie, 'session.cookie').split('=')[1]);
  await session.rest('POST', '/api/items', { code: 'LIV-1', name: 'Livre « Compter juste »', unit: 'u', unit_price: 24.9, kind: 'goods' });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('items in the browser', () => {
  it('creates an item with a French price, finds it, edits it, archives and restores it', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/items');
    await page.getByText('1 article').waitFor();
    await page.getByRole('button', { name: 'Nouvel article' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouvel article' });
    await dialog.getByLabel('Désignation').fill('Journée de conseil');
    await dialog.getByLabel('Code', { exact: true }).fill('CONS-J');
    await chooseOption(dialog, 'Unité', 'jour');
    await dialog.getByLabel('Prix unitaire HT').fill('six cents');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('Le prix unitaire est un nombre (ex. 12,50)').waitFor();
    await dialog.getByLabel('Prix unitaire HT').fill('1 650,5');
    expect(await dialog.getByLabel('TVA 20 %').isChecked()).toBe(true); // the normal rate by default
    await screenshot(page, 'items-form');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.getByText('2 articles').waitFor();
    await page.getByRole('cell', { name: '1650,50 €' }).waitFor();
    await screenshot(page, 'items-list');

    await page.getByRole('searchbox', { name: 'Rechercher' }).fill('cons-j');
    await page.getByText('1 article').waitFor();
    await page.getByRole('button', { name: 'Journée de conseil' }).click();
    const edit = page.getByRole('dialog', { name: 'Modifier Journée de conseil' });
    await edit.getByLabel('Prix unitaire HT').fill('700');
    await edit.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByRole('cell', { name: '700,00 €' }).waitFor();

    await page.getByRole('button', { name: 'Journée de conseil' }).click();
    await page.getByRole('dialog', { name: 'Modifier Journée de conseil' }).getByRole('button', { name: 'Archiver' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.getByText('Aucun article ne correspond à ces filtres.').waitFor();
    await page.locator('label', { hasText: 'Afficher les articles archivés' }).click();
    await page.getByRole('button', { name: 'Restaurer' }).click();
    await page.getByRole('button', { name: 'Journée de conseil' }).waitFor();
    await context.close();
  });

  it('keeps what was typed in a new item when the VAT rules arrive late, and still offers the normal rate', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    // The organisation's regime arrives 1.5 s late, as on a busy server: the form must not reset when it lands.
    await page.route(/\/api\/trpc\/[^?]*organization\.get/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/items');
    await page.getByRole('button', { name: 'Nouvel article' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouvel article' });
    await dialog.getByLabel('Désignation').fill('Forfait tardif');
    await dialog.getByLabel('Prix unitaire HT').fill('45');
    await expect.poll(() => dialog.getByLabel('TVA 20 %').isChecked(), { timeout: 10_000 }).toBe(true);
    expect(await dialog.getByLabel('Désignation').inputValue()).toBe('Forfait tardif');
    expect(await dialog.getByLabel('Prix unitaire HT').inputValue()).toMatch(/^45/);
    await context.close();
  });

  it('imports items from a CSV after the report names the bad row', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/items');
    await page.getByRole('button', { name: 'Importer' }).click();
    const csv = [
      'Code;Désignation;Unité;Prix unitaire HT;TVA',
      'FORF-1;Forfait installation;forfait;99,99;TVA 20 %',
      'GAL-1;Gallon;gallon;3;',
    ].join('\r\n');
    await page
      .getByLabel('Fichier CSV des articles')
      .setInputFiles({ name: 'articles.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByTestId('import-report').getByRole('cell', { name: 'Unité inconnue : « gallon »' }).waitFor();
    await page.getByRole('button', { name: 'Importer 1 article' }).click();
    await page.getByTestId('snackbar').getByText('1 article importé').waitFor();
    await page.getByRole('button', { name: 'Forfait installation' }).waitFor();
    await context.close();
  });
});
