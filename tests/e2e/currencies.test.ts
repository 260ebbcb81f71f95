import { describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, dialogLayerReady, optionsOf, screenshot, selectNamed } from '../helpers/browser';

const suite = browserSuite();

describe('Paramètres → Devises', () => {
  it('enables USD at 1,085, offers it to customers, edits its rate, refuses to remove it while used, then removes it', async () => {
    const { context, page } = await suite.loggedIn();
    await page.goto('/settings/currencies');
    await page
      .getByRole('row', { name: /^EUR Euro/ })
      .getByText('Taux fixe : 1')
      .waitFor();
    await page.getByText('Aucune autre devise activée').waitFor();
    expect(await page.getByRole('button', { name: 'Supprimer EUR' }).count()).toBe(0); // the base stays

    // Nothing chosen, then a rate that is no rate: French messages by the fields.
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByText('Choisissez une devise dans la liste').waitFor();
    await page.getByRole('combobox', { name: 'Devise' }).fill('dollar des');
    await page.getByRole('option', { name: 'USD — Dollar des États-Unis' }).click();
    expect(await page.getByRole('combobox', { name: 'Devise' }).inputValue()).toBe('USD — Dollar des États-Unis');
    await page.getByLabel('Taux pour 1 EUR').fill('0');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByText('Le taux de change doit être supérieur à 0').waitFor();
    await page.getByLabel('Taux pour 1 EUR').fill('1,085');
    await page.getByRole('button', { name: 'Ajouter' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.getByRole('cell', { name: '1 EUR = 1,0850 USD' }).waitFor();
    expect(await page.getByText('Aucune autre devise activée').count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Devise' }).inputValue()).toBe(''); // the form is ready for the next one
    // USD is enabled: the catalogue no longer offers it.
    await page.getByRole('combobox', { name: 'Devise' }).fill('USD');
    await page.getByText('Aucune devise du catalogue ne correspond').waitFor();
    await page.getByRole('combobox', { name: 'Devise' }).fill('franc s');
    await page.getByRole('option', { name: 'CHF — Franc suisse' }).waitFor();
    expect(await page.getByRole('option').count()).toBe(1); // searched without accents or case
    await screenshot(page, 'settings-currencies');
    await page.getByRole('combobox', { name: 'Devise' }).fill('');
    await page.getByRole('combobox', { name: 'Devise' }).press('Escape');

    // Edited in place, with a decimal comma; a bad value is refused there.
    await page.getByRole('button', { name: 'Modifier le taux USD' }).click();
    const rate = page.getByLabel('Taux de change USD');
    expect(await rate.inputValue()).toBe('1,0850');
    await rate.fill('1,2,3');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Le taux de change doit être un nombre (ex. 1,085)').waitFor();
    await screenshot(page, 'settings-currencies-edit');
    await rate.fill('1,0923');
    await rate.press('Enter');
    await page.getByTestId('snackbar').getByText('Mis à jour avec succès').waitFor();
    await page.getByRole('cell', { name: '1 EUR = 1,0923 USD' }).waitFor();
    expect((await suite.session.rest('GET', '/api/currencies')).body.data[1]).toMatchObject({ code: 'USD', rate: '1.0923' });

    // The customer form offers the enabled currencies only.
    await page.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('button', { name: 'Nouveau client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
    const currency = selectNamed(dialog, 'Devise');
    expect(await optionsOf(dialog, 'Devise')).toEqual(['EUR — Euro', 'USD — Dollar des États-Unis']);
    await dialog.getByLabel('Nom', { exact: true }).fill('Acme Inc.');
    await chooseOption(dialog, 'Devise', 'USD — Dollar des États-Unis');
    await currency.scrollIntoViewIfNeeded();
    await screenshot(page, 'customers-form-currency');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    const customer = (await suite.session.rest('GET', '/api/customers')).body.data.find((c: { name: string }) => c.name === 'Acme Inc.');
    expect(customer.currency).toBe('USD');

    // Used by a customer: the server's 409 shows; once the customer is archived, it goes.
    await page.goto('/settings/currencies');
    await page.getByRole('button', { name: 'Supprimer USD' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.getByTestId('snackbar').getByText('La devise USD est utilisée par 1 client : changez leur devise d’abord').waitFor();
    await suite.session.rest('DELETE', `/api/customers/${customer.id}`);
    await page.getByRole('button', { name: 'Supprimer USD' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByText('Supprimer la devise USD (Dollar des États-Unis) ?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.getByTestId('snackbar').getByText('Supprimé avec succès').waitFor();
    await page.getByRole('cell', { name: '1 EUR = 1,0923 USD' }).waitFor({ state: 'detached' });
    await page.getByText('Aucune autre devise activée').waitFor();
    await context.close();
  });
});
