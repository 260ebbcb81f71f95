import { describe, expect, it } from 'vitest';
import { browserSuite, optionsOf, screenshot } from '../helpers/browser';

const suite = browserSuite();

describe('Paramètres → Comptabilité → Catégories de dépenses', () => {
  it('adds a category, renames it and changes its account, archives it (kept on its expense, out of the form), restores it', async () => {
    const { page } = await suite.loggedIn();
    // Reached from the expenses' filters, where the categories are used.
    await page.goto('/expenses');
    await page.getByRole('link', { name: 'Gérer les catégories et leurs comptes' }).click();
    await page.waitForURL('**/settings/accounting');
    const card = page.getByRole('region', { name: 'Catégories de dépenses' });
    await card.getByTestId('category-repas').waitFor();

    await card.getByLabel('Nouvelle catégorie').fill('Carburant');
    await card.getByLabel('Compte').first().fill('706000');
    await card.getByRole('button', { name: 'Ajouter' }).click();
    await card
      .getByText('Compte : un compte de charges de la classe 6 (ex. 606400) ou d’immobilisations de la classe 2 (ex. 218300)')
      .waitFor();
    await card.getByLabel('Compte').first().fill('606110');
    await card.getByRole('button', { name: 'Ajouter' }).click();
    const row = card.getByTestId('category-carburant');
    await row.waitFor();
    expect(await card.getByLabel('Nouvelle catégorie').inputValue()).toBe('');

    await row.getByLabel('Nom').fill('Carburants et lubrifiants');
    await row.getByLabel('Compte').fill('606120');
    await row.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Enregistré avec succès').waitFor();
    const categories = async () => (await suite.session.rest('GET', '/api/expenses/categories')).body.data as { code: string }[];
    expect((await categories()).find((c) => c.code === 'carburant')).toEqual({
      code: 'carburant',
      label: 'Carburants et lubrifiants',
      account: '606120',
      archived: false,
    });

    // Used by an expense, then deleted: archived instead, the expense keeps it.
    const expense = await suite.session.rest('POST', '/api/expenses', {
      date: '2026-03-02',
      supplier: 'Total',
      category: 'carburant',
      amount: 60,
      vat: [{ rate: 20, amount: 10 }],
    });
    expect(expense.status).toBe(201);
    await card.getByTestId('category-carburant').getByRole('button', { name: 'Supprimer' }).click();
    await page.getByTestId('snackbar').getByText('Catégorie archivée : elle reste sur les dépenses qui l’utilisent').waitFor();
    await card.getByTestId('category-carburant').getByText('Archivée').waitFor();
    await screenshot(page, 'settings-expense-categories');

    await page.goto('/expenses');
    await page.getByRole('button', { name: 'Nouvelle dépense' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Nouvelle dépense' });
    const options = await optionsOf(dialog, 'Catégorie');
    expect(options).toContain('Repas et réceptions (625700)');
    expect(options.some((o) => o.startsWith('Carburants'))).toBe(false);
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await page.getByRole('row', { name: /Total.*Carburants et lubrifiants/ }).waitFor();

    await page.goto('/settings/accounting');
    await page.getByTestId('category-carburant').getByRole('button', { name: 'Restaurer' }).click();
    await page.getByTestId('snackbar').getByText('Catégorie restaurée').waitFor();
    await page.getByTestId('category-carburant').getByRole('button', { name: 'Archiver' }).waitFor();
  });
});
