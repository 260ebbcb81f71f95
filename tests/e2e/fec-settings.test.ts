import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserSuite, chosenOption, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

describe('Paramètres → Comptabilité', () => {
  it('saves the accounts, refuses a bad one by name, and downloads the year’s FEC named after the SIREN', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    await issued(suite.session, { customer_id: customerId, date: today, items: [line('Audit', 1, 1000)] });

    const { context, page } = await suite.loggedIn();
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Comptabilité' }).click();
    await page.waitForURL('**/settings/accounting');
    await page.getByRole('heading', { level: 1, name: 'Comptabilité' }).waitFor();
    expect(await page.getByLabel('Ventes de prestations de services').inputValue()).toBe('706');
    expect(await page.getByLabel('TVA collectée sur encaissements').inputValue()).toBe('44574');
    expect(await page.getByLabel('TVA déductible sur encaissements').inputValue()).toBe('44564');

    await page.getByLabel('Ventes de prestations de services').fill('706100');
    await page.getByLabel('Banque').fill('51 2x');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Banque : un numéro de compte de 3 à 12 chiffres (ex. 512)').waitFor();
    await page.getByLabel('Banque').fill('512000');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Mise à jour avec succès').waitFor();

    // Fiscal years close on 31 December until the first closing date is given: the option says so.
    expect(await chosenOption(page, 'Exercice clos en')).toBe(`${today.slice(0, 4)} (clôture le 31/12/${today.slice(0, 4)})`);
    expect(await page.getByLabel('Date de clôture du premier exercice').inputValue()).toBe('');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Télécharger le FEC' }).click()]);
    // Named after the closing date of the fiscal year, not the day of the download.
    expect(download.suggestedFilename()).toBe(`552032534FEC${today.slice(0, 4)}1231.txt`);
    const text = new TextDecoder('iso-8859-15').decode(fs.readFileSync(await download.path()));
    const rows = text.split('\r\n').slice(1, -1);
    // An audit not yet paid: its VAT waits on « TVA collectée sur encaissements ».
    expect(rows.map((r) => r.split('\t')[4])).toEqual(['411', '706100', '44574']);
    await page
      .getByTestId('snackbar')
      .getByText(/^FEC \d{4} téléchargé\s:\s552032534FEC\d{8}\.txt$/)
      .waitFor();
    await screenshot(page, 'settings-accounting');
    await context.close();
  });
});
