import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, screenshot } from '../helpers/browser';

const suite = browserSuite();
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/einvoice');
const sample = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

/** Drags a file over the expenses panel as a file manager would: enter, over (the overlay shows), then drop. */
async function dragFile(page: Page, file: { name: string; type: string; text: string }, drop = true) {
  await page.getByTestId('einvoice-drop-zone').evaluate(
    (zone, { file, drop }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([file.text], file.name, { type: file.type }));
      const fire = (type: string) => zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      fire('dragenter');
      fire('dragover');
      if (drop) fire('drop');
    },
    { file, drop },
  );
}

describe('supplier e-invoices dropped on /expenses', () => {
  it('a CII dropped and a UBL picked with the button become expenses, the category confirmed by the user; errors are named', async () => {
    const { page } = await suite.loggedIn();
    await page.goto('/expenses');
    await page.getByText('Pas encore de dépenses').waitFor();

    const cii = { name: 'CII_example1.xml', type: 'application/xml', text: sample('cii/CII_example1.xml') };
    await dragFile(page, cii, false);
    await page.getByText('Déposez la facture du fournisseur ici').waitFor();
    await screenshot(page, 'expense-import-overlay');
    await dragFile(page, cii);

    const dialog = page.getByRole('dialog', { name: 'Modifier la dépense' });
    await dialog.getByTestId('import-notice').getByText('Vérifiez la catégorie').waitFor();
    expect(await dialog.getByLabel('Fournisseur', { exact: true }).inputValue()).toBe('De Koksmaat');
    expect(await dialog.getByLabel('N° de facture').inputValue()).toBe('12115118');
    expect(await dialog.getByLabel('Montant TTC (EUR)').inputValue()).toBe('250,33');
    expect(await dialog.getByLabel('Catégorie').inputValue()).toBe('autres');
    await dialog.getByRole('link', { name: 'Voir le XML de la facture' }).waitFor();
    await screenshot(page, 'expense-import-confirm');
    await dialog.getByLabel('Catégorie').selectOption('repas');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('1 dépense', { exact: true }).waitFor();
    await page.getByRole('row', { name: /De Koksmaat.*Repas et réceptions.*250,33/ }).waitFor();

    // The keyboard's way: the labelled file input, here with a UBL whose Norwegian VAT number is left out.
    await page.getByLabel('Importer une facture fournisseur').setInputFiles({
      name: 'ubl-tc434-example2.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(sample('ubl/ubl-tc434-example2.xml')),
    });
    const second = page.getByRole('dialog', { name: 'Modifier la dépense' });
    await second.getByTestId('import-notice').getByText('N° de TVA du fournisseur « NO123456789MVA » non repris : invalide').waitFor();
    expect(await second.getByLabel('Fournisseur', { exact: true }).inputValue()).toBe('Salescompany ltd.');
    await screenshot(page, 'expense-import-ubl');
    await second.getByLabel('Catégorie').selectOption('sous_traitance');
    await second.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('2 dépenses').waitFor();

    // The same file again, then a file that is no invoice: each says what is wrong, above the list.
    await dragFile(page, cii);
    await page
      .getByRole('alert')
      .getByText(/Cette facture a déjà été importée : facture n° 12115118 de De Koksmaat du 09\/01\/2015/)
      .waitFor();
    await dragFile(page, { name: 'commande.xml', type: 'application/xml', text: '<Order xmlns="urn:x"/>' });
    await page.getByRole('alert').getByText('Ce XML n’est pas une facture électronique', { exact: false }).waitFor();
    await screenshot(page, 'expense-import-error');
    await page.getByText('2 dépenses').waitFor();
  });
});
