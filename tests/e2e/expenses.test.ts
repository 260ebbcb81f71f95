import { describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, optionsOf, screenshot } from '../helpers/browser';

const suite = browserSuite();

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('expenses in the browser', () => {
  it('empty state, create with VAT computed, filter in the URL, attach a receipt and view it inline', async () => {
    const { page, context } = await suite.loggedIn();
    await page.goto('/expenses');
    await page.getByText('Pas encore de dépenses').waitFor();
    await screenshot(page, 'expenses-empty');

    for (const [date, supplier, category, amount] of [
      ['2026-01-12', 'Orange', 'telecom', 39.99],
      ['2026-01-20', 'Boulangerie Paul', 'repas', 18.7],
    ] as const)
      await suite.session.rest('POST', '/api/expenses', { date, supplier, category, amount, vat: [], status: 'paid' });

    await page.reload();
    await page.getByText('2 dépenses').waitFor();
    await page.getByRole('button', { name: 'Nouvelle dépense' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Nouvelle dépense' });
    await dialog.getByLabel('Date').fill('2026-02-03');
    await dialog.getByLabel('Fournisseur', { exact: true }).fill('TotalEnergies');
    await chooseOption(dialog, 'Catégorie', 'Déplacements et hébergement (625100)');
    await dialog.getByLabel('Libellé').fill('Plein du Kangoo');
    await dialog.getByLabel('Montant TTC (EUR)').fill('-5');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('Montant TTC : il doit être positif').waitFor();
    await dialog.getByLabel('Montant TTC (EUR)').fill('84,60');
    await dialog.getByRole('button', { name: 'Calculer' }).click();
    expect(await dialog.getByLabel('Montant de TVA').inputValue()).toBe('14,10');
    await dialog.getByLabel('Joindre un justificatif').setInputFiles({ name: 'ticket.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByText('ticket.png — joint à l’enregistrement').waitFor();
    await screenshot(page, 'expenses-form');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.getByText('3 dépenses').waitFor();
    await page.getByTestId('expense-sums').getByText('143,29').waitFor();
    await screenshot(page, 'expenses-list');

    await chooseOption(page, 'Catégorie', 'Déplacements et hébergement');
    await page.getByText('1 dépense', { exact: true }).waitFor();
    expect(page.url()).toContain('category=deplacements');
    await page.getByTestId('expense-sums').getByText('84,60').waitFor();
    await page.reload();
    await page.getByText('1 dépense', { exact: true }).waitFor();

    // The receipt opens inline, in its real type.
    const [popup] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Voir' }).click()]);
    await popup.waitForLoadState();
    const response = await popup.evaluate(() => document.contentType);
    expect(response).toBe('image/png');
    await popup.close();

    await page.getByRole('button', { name: 'TotalEnergies' }).click();
    const edit = page.getByRole('dialog', { name: 'Modifier la dépense' });
    await edit.getByRole('link', { name: 'Voir le justificatif' }).waitFor();
    await edit.getByRole('img', { name: 'Aperçu du justificatif' }).waitFor();
    await screenshot(page, 'expenses-edit-receipt');
  });

  it('recurring expenses: create one, see its next date, pause and resume', async () => {
    const { page } = await suite.loggedIn();
    await page.goto('/expenses/recurring');
    await page.getByText('Pas encore de dépenses répétitives').waitFor();
    await page.getByRole('button', { name: 'Nouvelle dépense répétitive' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouvelle dépense répétitive' });
    await dialog.getByLabel('Fournisseur').fill('SCI du Port');
    await chooseOption(dialog, 'Catégorie', 'Loyer et charges locatives');
    await dialog.getByLabel('Montant TTC').fill('douze');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('Montant TTC : un nombre est attendu (ex. 120,50)').waitFor();
    await dialog.getByLabel('Montant TTC').fill('1200');
    // The one-off form's VAT rows: the French rates, computed from the TTC (a lease at 20 %, here 10 % to prove the choice).
    // A narrow no-break space before « % », as every rate is written.
    expect(await optionsOf(dialog, 'Taux')).toEqual(['20\u202f%', '10\u202f%', '5,5\u202f%', '2,1\u202f%', '0\u202f%']);
    await chooseOption(dialog, 'Taux', '10 %');
    await dialog.getByRole('button', { name: 'Calculer' }).click();
    expect(await dialog.getByLabel('Montant de TVA').inputValue()).toBe('109,09');
    await screenshot(page, 'expenses-recurring-form');
    await dialog.getByLabel('Date de début').fill('2031-01-31');
    await dialog.getByLabel('Date de fin (facultative)').fill('2030-12-31');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog.getByText('Date de fin : elle précède la date de début').waitFor();
    await dialog.getByLabel('Date de fin (facultative)').fill('');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByRole('cell', { name: '31/01/2031' }).waitFor();
    await page.getByRole('cell', { name: 'Chaque mois' }).waitFor();
    const [recurring] = (await suite.session.rest('GET', '/api/recurring-expenses')).body.data;
    expect(recurring.vat).toEqual([{ rate: 10, amount: 109.09, deductible: true }]);
    await page.getByRole('button', { name: 'Mettre en pause' }).click();
    await page.getByRole('cell', { name: 'En pause' }).waitFor();
    await screenshot(page, 'expenses-recurring');
    await page.getByRole('button', { name: 'Reprendre' }).click();
    await page.getByRole('cell', { name: 'Active' }).waitFor();
  });
});
