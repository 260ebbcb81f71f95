import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, chosenOption, screenshot } from '../helpers/browser';
import { registered } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { readFacturX } from '../../src/server/einvoice/facturx-read';

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
    // The server's first import starts a worker thread and loads the e-invoice validator in it: seconds, once.
    await dialog.getByTestId('import-notice').getByText('Vérifiez la catégorie').waitFor({ timeout: 30_000 });
    expect(await dialog.getByLabel('Fournisseur', { exact: true }).inputValue()).toBe('De Koksmaat');
    expect(await dialog.getByLabel('N° de facture').inputValue()).toBe('12115118');
    expect(await dialog.getByLabel('Montant TTC (EUR)').inputValue()).toBe('250,33');
    expect(await chosenOption(dialog, 'Catégorie')).toBe('Autres charges (658000)');
    await dialog.getByRole('link', { name: 'Voir le XML de la facture' }).waitFor();
    await screenshot(page, 'expense-import-confirm');
    await chooseOption(dialog, 'Catégorie', 'Repas et réceptions (625700)');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('1 dépense', { exact: true }).waitFor();
    await page.getByRole('row', { name: /De Koksmaat.*Repas et réceptions.*250,33/ }).waitFor();

    // The keyboard's way: the labelled file input, here with a UBL of a Norwegian supplier: its MVA number is kept as
    // written, and its VAT comes in not deductible, the notice saying why.
    await page.getByLabel('Importer une facture fournisseur').setInputFiles({
      name: 'ubl-tc434-example2.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(sample('ubl/ubl-tc434-example2.xml')),
    });
    const second = page.getByRole('dialog', { name: 'Modifier la dépense' });
    await second
      .getByTestId('import-notice')
      .getByText(/^TVA étrangère \(.+\)\s:\snon déductible sur la déclaration française/)
      .waitFor();
    expect(await second.getByLabel('Fournisseur', { exact: true }).inputValue()).toBe('Salescompany ltd.');
    await screenshot(page, 'expense-import-ubl');
    await chooseOption(second, 'Catégorie', 'Sous-traitance (611000)');
    await second.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('2 dépenses').waitFor();

    // The same file again, then a file that is no invoice: each says what is wrong, above the list.
    await dragFile(page, cii);
    await page
      .getByRole('alert')
      .getByText(/Cette facture a déjà été importée\s:\sfacture n° 12115118 de De Koksmaat du 09\/01\/2015/)
      .waitFor();
    await dragFile(page, { name: 'commande.xml', type: 'application/xml', text: '<Order xmlns="urn:x"/>' });
    await page.getByRole('alert').getByText('Ce XML n’est pas une facture électronique', { exact: false }).waitFor();
    await screenshot(page, 'expense-import-error');
    await page.getByText('2 dépenses').waitFor();
  });

  it('a Factur-X PDF issued by Facturier itself (printed by Chromium, downloaded) becomes the buyer’s expense with its PDF as receipt', async () => {
    const seller = await registered(suite.server.url);
    const { customerId } = await readyToInvoice(seller.session);
    const invoice = await issued(seller.session, { customer_id: customerId, maturity: '2026-12-02', items: [line('Conseil', 2, 450)] });
    const download = await fetch(`${suite.server.url}/documents/download/${invoice.uuid}`);
    expect(download.status).toBe(200);
    const pdf = Buffer.from(await download.arrayBuffer());
    expect((await readFacturX(pdf))?.name).toBe('factur-x.xml');

    const { page } = await suite.loggedIn();
    await page.goto('/expenses');
    await page.getByLabel('Importer une facture fournisseur').setInputFiles({
      name: `Facture-${invoice.number}.pdf`,
      mimeType: 'application/pdf',
      buffer: pdf,
    });
    const dialog = page.getByRole('dialog', { name: 'Modifier la dépense' });
    await dialog.getByTestId('import-notice').getByText('Vérifiez la catégorie').waitFor();
    expect(await dialog.getByLabel('Fournisseur', { exact: true }).inputValue()).toBe('Atelier Fontaine');
    expect(await dialog.getByLabel('SIREN ou SIRET').inputValue()).toBe('552032534');
    expect(await dialog.getByLabel('N° de facture').inputValue()).toBe(invoice.number);
    expect(await dialog.getByLabel('Montant TTC (EUR)').inputValue()).toBe('1080');
    await dialog.getByRole('link', { name: 'Voir le justificatif' }).waitFor();
    await screenshot(page, 'expense-import-facturx');
  });
});
