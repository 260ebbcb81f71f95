import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, screenshot } from '../helpers/browser';

const suite = browserSuite();
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/einvoice');
const file = (name: string) => ({
  name: path.basename(name),
  mimeType: 'application/xml',
  buffer: fs.readFileSync(path.join(FIXTURES, name)),
});

describe('supplier credit notes and « catégorie à vérifier » on /expenses', () => {
  it('an imported invoice stays « à vérifier » until saved; its credit note shows as « Avoir », negative, linked; the form refuses a minus sign', async () => {
    const { page } = await suite.loggedIn();
    await page.goto('/expenses');
    await page.getByText('Pas encore de dépenses').waitFor();
    const picker = page.getByLabel('Importer une facture fournisseur');

    // An invoice imported, its dialog closed without saving: the list says its category is still to check.
    await picker.setInputFiles(file('cii/CII_example1.xml'));
    let dialog = page.getByRole('dialog', { name: 'Modifier la dépense' });
    // The server's first import starts a worker thread and loads the e-invoice validator in it: seconds, once.
    await dialog.getByTestId('import-notice').getByText('Vérifiez la catégorie').waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await page.getByRole('row', { name: /De Koksmaat.*Autres.*à vérifier.*250,33/ }).waitFor();

    // Opened again later: the prompt is back.
    await page.getByRole('button', { name: 'De Koksmaat' }).click();
    dialog = page.getByRole('dialog', { name: 'Modifier la dépense' });
    await dialog
      .getByTestId('import-notice')
      .getByText('Dépense remplie depuis la facture 12115118 de « De Koksmaat »', { exact: false })
      .waitFor();
    await screenshot(page, 'expense-category-to-check');
    await dialog.getByRole('button', { name: 'Annuler' }).click();

    // Its credit note (CII type 381) refers to it: imported as an « Avoir », linked, amounts shown positive in the form.
    await picker.setInputFiles(file('cii-credit-note-example1.xml'));
    dialog = page.getByRole('dialog', { name: 'Modifier l’avoir fournisseur' });
    await dialog.getByTestId('import-notice').getByText('Avoir rempli depuis l’avoir AV-12115118', { exact: false }).waitFor();
    expect(await dialog.getByLabel('Avoir fournisseur').isChecked()).toBe(true);
    expect(await dialog.getByLabel('Montant TTC (EUR)').inputValue()).toBe('250,33');
    expect(await dialog.getByLabel('Facture corrigée (n°)').inputValue()).toBe('12115118');
    await dialog.getByTestId('corrects').getByText('Corrige la facture n° 12115118 du 09/01/2015').waitFor();
    await screenshot(page, 'expense-credit-note-form');
    await chooseOption(dialog, 'Catégorie', 'Repas et réceptions (625700)');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('2 dépenses').waitFor();
    await page.getByRole('row', { name: /De Koksmaat.*Repas et réceptions.*Avoir.*−250,33/ }).waitFor();
    // The invoice and its whole credit: the filtered set's total is nil.
    await page.getByTestId('expense-sums').getByText('0,00', { exact: false }).first().waitFor();

    // A minus sign typed in the form is refused, pointing at the toggle; the toggle makes it a credit note.
    await page.getByRole('button', { name: 'Nouvelle dépense' }).first().click();
    dialog = page.getByRole('dialog', { name: 'Nouvelle dépense' });
    await dialog.getByLabel('Fournisseur', { exact: true }).fill('Bureau Vallée');
    await chooseOption(dialog, 'Catégorie', 'Fournitures et petit équipement (606300)');
    await dialog.getByLabel('Libellé').fill('Remise fidélité');
    await dialog.getByLabel('Montant TTC (EUR)').fill('-12');
    await dialog.getByLabel('Montant de TVA').fill('2');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await dialog
      .getByText('Montant TTC : il doit être positif ; pour un remboursement ou une remise du fournisseur, cochez « Avoir fournisseur »')
      .waitFor();
    // The kit's checkbox: a user clicks its label (the real checkbox under it is visually hidden).
    await dialog.getByText('Avoir fournisseur', { exact: true }).click();
    await expect.poll(() => dialog.getByLabel('Avoir fournisseur').isChecked()).toBe(true);
    await dialog.getByLabel('Montant TTC (EUR)').fill('12');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('3 dépenses').waitFor();
    await page.getByRole('row', { name: /Bureau Vallée.*Avoir.*Remise fidélité.*−2,00.*−12,00/ }).waitFor();
    await screenshot(page, 'expense-credit-notes-list');

    // « Catégorie à vérifier »: the one imported invoice not saved yet; saved with its category, it leaves the filter.
    // A kit checkbox is toggled through its label, as a user clicks it.
    await page.locator('label', { hasText: 'Catégorie à vérifier' }).click();
    await page.getByText('1 dépense', { exact: true }).waitFor();
    expect(page.url()).toContain('to_check=true');
    await page.getByRole('button', { name: 'De Koksmaat' }).click();
    dialog = page.getByRole('dialog', { name: 'Modifier la dépense' });
    await dialog.getByTestId('import-notice').waitFor();
    await chooseOption(dialog, 'Catégorie', 'Repas et réceptions (625700)');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Aucune dépense ne correspond à ces filtres.').waitFor();
    await page.locator('label', { hasText: 'Catégorie à vérifier' }).click();
    await page.getByText('3 dépenses').waitFor();
    // The unfiltered list comes back from the cache first, then from the server: wait for the fresh one.
    await expect.poll(() => page.getByText('à vérifier', { exact: true }).count()).toBe(0);
  });
});
