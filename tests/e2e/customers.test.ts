import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { dialogLayerReady, launchBrowser, newPage, screenshot, chooseOption } from '../helpers/browser';
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
  for (const name of ['Atelier Bleu', 'Boulangerie Martin'])
    await session.rest('POST', '/api/customers', { name, address: { city: name === 'Atelier Bleu' ? 'Paris' : 'Lyon' } });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('customers in the browser', () => {
  it('create (with a bad SIREN first), search, edit, archive and restore a customer', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/customers');
    await page.getByText('2 clients').waitFor();
    await screenshot(page, 'customers-list');

    await page.getByRole('button', { name: 'Nouveau client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
    await dialog.getByLabel('Nom', { exact: true }).fill('Danone');
    await dialog.getByLabel('SIREN ou SIRET').fill('552 032 535');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('SIREN invalide : la clé de contrôle ne correspond pas').waitFor();
    await dialog.getByLabel('SIREN ou SIRET').fill('552 032 534');
    expect(await dialog.getByText('SIREN invalide').count()).toBe(0); // the error goes with the value it was about
    await dialog.getByRole('button', { name: 'Calculer' }).click();
    expect(await dialog.getByLabel('N° de TVA intracommunautaire').inputValue()).toBe('FR27552032534');
    await dialog.getByLabel('Adresse', { exact: true }).first().fill('17 boulevard Haussmann');
    await dialog.getByLabel('Code postal').first().fill('75009');
    await dialog.getByLabel('Ville').first().fill('Paris');
    await dialog.getByRole('button', { name: 'Copier l’adresse de facturation' }).click();
    await screenshot(page, 'customers-form');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.getByText('3 clients').waitFor();

    await page.getByRole('searchbox', { name: 'Rechercher' }).fill('danon');
    await page.getByText('1 client').waitFor();
    expect(page.url()).toContain('search=danon'); // the filter lives in the URL
    await page.reload();
    await page.getByText('1 client').waitFor();
    await page.getByRole('link', { name: 'Danone' }).click();
    await page.getByText('CL-00003').waitFor();
    await page.getByText('FR27552032534').waitFor();
    await screenshot(page, 'customers-detail');

    await page.getByRole('button', { name: 'Modifier' }).click();
    const edit = page.getByRole('dialog', { name: 'Modifier Danone' });
    await edit.getByLabel('Délai de paiement (jours)').fill('45');
    await edit.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('45 jours').waitFor();

    await page.getByRole('button', { name: 'Archiver' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.getByText('Client archivé').waitFor();
    await page.getByRole('button', { name: 'Restaurer' }).click();
    await page.getByRole('button', { name: 'Archiver' }).waitFor();
    await context.close();
  });

  it('filters by city and type from the sidebar, and says so when nothing matches', async () => {
    const { context, page } = await newPage(browser, server.url, { width: 390, height: 844 });
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/customers?city=Lyon');
    await page.getByRole('link', { name: 'Boulangerie Martin' }).waitFor();
    expect(await page.getByRole('link', { name: 'Atelier Bleu' }).count()).toBe(0);
    await chooseOption(page, 'Type', 'Particuliers');
    await page.getByText('Aucun client ne correspond à ces filtres.').waitFor();
    await context.close();
  });

  it('the top bar’s search finds a customer and opens it', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/');
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await page.getByPlaceholder('Rechercher').fill('boulang');
    const result = page.getByRole('group', { name: 'Clients' }).getByRole('option', { name: /Boulangerie Martin/ });
    await result.waitFor();
    await screenshot(page, 'search-results');
    await result.click();
    await page.waitForURL(/\/customers\/\d+$/);
    await page.getByRole('heading', { name: 'Boulangerie Martin' }).waitFor();
    expect(await page.getByPlaceholder('Rechercher').count()).toBe(0);
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await page.getByPlaceholder('Rechercher').fill('zzzz');
    await page.getByText('Aucun client, article ni document ne correspond à « zzzz ».').waitFor();
    await context.close();
  });

  it('imports a Windows-1252 CSV with two bad rows after reading the report, and exports a CSV download', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
    await page.goto('/customers');
    const before = Number(defined(await page.getByText(/^\d+ clients?$/).textContent()).split(' ')[0]);
    await page.getByRole('button', { name: 'Importer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importer des clients' });
    const csv = [
      'Nom;E-mail;SIREN/SIRET;Ville',
      'Société Générale Test;sg@exemple.fr;;Paris',
      ';vide@exemple.fr;;Lyon',
      'Mauvais;pas-une-adresse;;Nice',
      'Café de Flore;;;Paris',
      'Électricité Dupont;;;Nantes',
    ].join('\r\n');
    await dialog
      .getByLabel('Fichier CSV des clients')
      .setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'latin1') });
    const report = dialog.getByTestId('import-report');
    await report.getByText('rejetées').waitFor();
    expect(await dialog.getByText('clients.csv (Windows-1252)', { exact: false }).count()).toBe(1);
    await report.getByRole('cell', { name: 'Le nom du client est obligatoire' }).waitFor();
    await report.getByRole('cell', { name: 'Adresse e-mail du client invalide' }).waitFor();
    await screenshot(page, 'customers-import-report');
    expect(
      defined(await page.goto('/customers').then(() => page.getByText(/^\d+ clients?$/).textContent())).startsWith(String(before)),
    ).toBe(true); // nothing written yet

    await page.getByRole('button', { name: 'Importer' }).click();
    await page
      .getByRole('dialog', { name: 'Importer des clients' })
      .getByLabel('Fichier CSV des clients')
      .setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'latin1') });
    await page.getByRole('button', { name: 'Importer 3 clients' }).click();
    await page.getByTestId('snackbar').getByText('3 clients importés').waitFor();
    await page.getByText(`${before + 3} clients`).waitFor();
    await page.getByRole('link', { name: 'Société Générale Test' }).waitFor(); // accents intact

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^clients-\d{4}-\d\d-\d\d\.csv$/);
    const content = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(content as Buffer[]).toString('utf8');
    expect(text.startsWith('\uFEFFNuméro;Nom;Type')).toBe(true);
    expect(text).toContain('Électricité Dupont');
    await context.close();
  });
});
