import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, screenshot } from '../helpers/browser';
import { readyToInvoice } from '../helpers/documents';
import { parisToday } from '../../src/shared/paris-date';

const suite = browserSuite();
beforeAll(async () => {
  await readyToInvoice(suite.session);
});

const MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];

describe('recurring invoices in the browser', () => {
  it('empty state, create one in the editor, « Générer maintenant », and the invoice made is in the lists', async () => {
    const { page } = await suite.loggedIn({ height: 1000 });
    await page.goto('/recurring');
    await page.getByRole('heading', { level: 1, name: 'Factures récurrentes' }).waitFor();
    await page.getByText('Pas encore de factures récurrentes').waitFor();
    await screenshot(page, 'recurring-empty');

    await page.getByRole('button', { name: 'Nouvelle facture régulière' }).click();
    await page.getByRole('heading', { level: 1, name: 'Créer une facture régulière' }).waitFor();
    await page.getByRole('combobox', { name: 'Client' }).fill('Boul');
    await page.getByRole('option', { name: /Boulangerie Martin/ }).click();
    // Without a line: refused in French, nothing saved.
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Lignes : ajoutez au moins une ligne à facturer').waitFor();

    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByLabel('Désignation').fill('Abonnement {month} {year}');
    await page.getByLabel('Prix unitaire').fill('49');
    await chooseOption(page, 'À chaque échéance', 'Émettre');
    await page.getByLabel('Tous les… (intervalle)').fill('2');
    // The schedule starts on the app's day, which is Paris's: a UTC month would be the previous one around midnight.
    const [year, monthNumber] = parisToday().split('-');
    const month = `${MONTHS[Number(monthNumber) - 1]} ${year}`;
    const next = page.getByRole('region', { name: 'Prochaine facture' });
    await next.getByText(`« Abonnement ${month} »`).waitFor();
    await next.getByText('Tous les 2 mois', { exact: true }).waitFor();
    await screenshot(page, 'recurring-editor');
    await page.getByRole('button', { name: 'Enregistrer' }).click();

    await page.waitForURL('**/recurring');
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    const row = page.getByRole('row', { name: /Boulangerie Martin/ });
    await row.getByText('Tous les 2 mois').waitFor();
    await row.getByText('Abonnement {month} {year}').waitFor();
    await row.getByText('Aucune').waitFor();

    await row.getByRole('button', { name: 'Générer maintenant' }).click();
    // The server's first issue starts a worker thread and loads the e-invoice validator in it: seconds, once.
    await page
      .getByTestId('snackbar')
      .getByText(/^Facture .+ émise$/)
      .waitFor({ timeout: 30_000 });
    await row.getByText('1 facture', { exact: true }).waitFor();
    const link = row.getByRole('link', { name: /^F/ });
    const number = await link.textContent();
    expect(number).toMatch(/\d/);
    await screenshot(page, 'recurring-list');

    // The invoice made, in its Aperçu and in the invoices' list, with the period in its line.
    await link.click();
    await page.waitForURL('**/invoices/*/view');
    await page.getByText(`Abonnement ${month}`).first().waitFor();
    await page.goto('/invoices');
    await page.getByRole('row', { name: new RegExp(String(number)) }).waitFor();

    // Pause from the row menu.
    await page.goto('/recurring');
    await page.getByRole('button', { name: 'Actions pour la facture régulière de Boulangerie Martin' }).click();
    await page.getByRole('menuitem', { name: 'Mettre en pause' }).click();
    await page
      .getByRole('row', { name: /Boulangerie Martin/ })
      .getByText('En pause')
      .waitFor();
  });
});
