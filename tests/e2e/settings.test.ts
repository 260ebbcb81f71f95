import { describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, dialogLayerReady, screenshot } from '../helpers/browser';

const suite = browserSuite();

describe('Paramètres → Système général', () => {
  it('the currency sample follows the format live; leaving unsaved asks first; saved values survive a reload', async () => {
    const { context, page } = await suite.loggedIn();
    await page.goto('/settings');
    await page.waitForURL('**/settings/general');
    const sample = page.getByTestId('currency-sample');
    expect(await sample.textContent()).toBe('1234567,89\u00a0€');

    await chooseOption(page, 'Séparateur de milliers', 'Espace');
    expect(await sample.textContent()).toBe('1 234 567,89\u00a0€');
    await chooseOption(page, 'Devise', 'USD — Dollar des États-Unis');
    await chooseOption(page, 'Position du symbole', 'Avant le montant');
    await chooseOption(page, 'Séparateur décimal', 'Point (.)');
    await chooseOption(page, 'Séparateur de milliers', 'Virgule (,)');
    expect(await sample.textContent()).toBe('$\u00a01,234,567.89');
    await page.getByText('Modifications non enregistrées').waitFor();
    await screenshot(page, 'settings-general');

    await page.getByRole('link', { name: 'Articles' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByText('Vos modifications ne sont pas enregistrées. Quitter quand même ?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Annuler' }).click();
    expect(page.url()).toContain('/settings/general');

    await page.getByLabel('Indemnité forfaitaire de recouvrement (€)').fill('10');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('L’indemnité forfaitaire est de 40 € au moins (C. com. D441-5)').waitFor();
    await page.getByLabel('Indemnité forfaitaire de recouvrement (€)').fill('40');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Mise à jour avec succès').waitFor();
    await page.reload();
    expect(await page.getByTestId('currency-sample').textContent()).toBe('$\u00a01,234,567.89');
    expect((await suite.session.rest('GET', '/api/settings')).body.currency_format).toMatchObject({
      currency: 'USD',
      currency_position: 'before',
      decimal: '.',
      thousand: ',',
    });
    await page.getByRole('link', { name: 'Articles' }).click();
    await page.waitForURL('**/items'); // nothing unsaved: no question
    await context.close();
  });

  it('TVA: adds a rate typed with a comma, refuses a bad one, edits and deletes; Unités: adds and deletes', async () => {
    const { context, page } = await suite.loggedIn();
    await page.goto('/settings/taxes');
    await page.getByRole('cell', { name: '5,50\u202f%' }).waitFor();
    await page.getByLabel('Nouvel intitulé').fill('TVA 8,5 % (DOM)');
    await page.getByLabel('Taux (%)').fill('150');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByRole('alert').getByText('Le taux ne peut dépasser 100 %').waitFor();
    await page.getByLabel('Taux (%)').fill('8,5');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByRole('cell', { name: '8,50\u202f%' }).waitFor();
    await screenshot(page, 'settings-taxes');
    await page
      .getByRole('row', { name: /TVA 8,5\s% \(DOM\)/ })
      .getByRole('button', { name: 'Modifier' })
      .click();
    await page.getByLabel('Taux', { exact: true }).fill('8,6');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByRole('cell', { name: '8,60\u202f%' }).waitFor();
    await page.getByRole('button', { name: 'Supprimer TVA 8,5 % (DOM)' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.getByRole('cell', { name: '8,60\u202f%' }).waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Unités' }).click();
    await page.getByLabel('Nouvelle unité').fill('litre');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByRole('button', { name: 'Supprimer l’unité litre' }).waitFor();
    await screenshot(page, 'settings-units');
    await page.getByRole('button', { name: 'Supprimer l’unité litre' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.getByRole('button', { name: 'Supprimer l’unité litre' }).waitFor({ state: 'detached' });
    await context.close();
  });

  it('Infos de l’entreprise: legal identity with the VAT number computed from the SIRET, franchise, and a logo', async () => {
    const { context, page } = await suite.loggedIn();
    await page.goto('/settings/organization');
    await page.getByLabel('Forme juridique').fill('SARL');
    await page.getByLabel('SIRET').fill('552 032 534 00646');
    await page.getByRole('button', { name: 'Calculer' }).click();
    expect(await page.getByLabel('N° de TVA intracommunautaire').inputValue()).toBe('FR27552032534');
    await page.getByLabel('Ville du RCS').fill('Paris');
    await page.getByLabel('Option pour le paiement de la taxe d’après les débits').locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await page
      .getByLabel(/Franchise en base de TVA/)
      .locator('xpath=..')
      .click(); // a kit checkbox: its hidden input is toggled through its label
    expect(await page.getByLabel('Option pour le paiement de la taxe d’après les débits').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Mise à jour avec succès').waitFor();
    expect((await suite.session.rest('GET', '/api/organization')).body).toMatchObject({
      legal_form: 'SARL',
      vat_number: 'FR27552032534',
      vat_regime: 'franchise',
      vat_on_debits: false,
    });

    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await page.getByLabel('Logo (PNG, JPEG ou WebP, 1 Mo au plus)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'Logo de l’entreprise' }).waitFor();
    await page
      .getByLabel('Logo (PNG, JPEG ou WebP, 1 Mo au plus)')
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') });
    await page.getByTestId('snackbar').getByText('Le logo doit être une image PNG, JPEG ou WebP').waitFor();
    await screenshot(page, 'settings-organization');
    await context.close();
  });
});
