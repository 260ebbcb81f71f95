import { describe, expect, it } from 'vitest';
import { browserSuite, screenshot } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';

const suite = browserSuite();
const IBAN = 'FR7630001007941234567890185';

// As a big French bank exports it: account lines above the header, Windows-1252, decimal commas.
const BANK_CSV = [
  'Compte courant n° 12345678901;;;;',
  '',
  'Date opération;Date valeur;Libellé;Montant;Référence',
  '02/11/2026;03/11/2026;VIR M. DUPONT;1 250,00;LOYER NOV',
  '05/11/2026;05/11/2026;CB CAFÉ DE LA GARE;-3,50;CARTE 1234',
  '06/11/2026;06/11/2026;PRLV EDF;-42,10;FACTURE 778',
].join('\r\n');
const file = () => ({ name: 'export-banque.csv', mimeType: 'text/csv', buffer: Buffer.from(BANK_CSV, 'latin1') });

describe('the columns of a bank CSV, confirmed in « Colonnes du relevé »', () => {
  it('shows the guessed columns over the first lines; « Annuler » imports nothing; a changed column imports and is remembered', async () => {
    const { session } = suite;
    const account = (await session.rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN })).body.data;
    const { page } = await suite.loggedIn();
    await page.goto('/bank');
    const report = page.getByRole('region', { name: 'Compte et relevé' }).getByRole('status');

    await page.getByLabel('Importer un relevé').setInputFiles(file());
    const dialog = page.getByRole('dialog', { name: 'Colonnes du relevé' });
    await dialog.waitFor({ timeout: 30_000 });
    await dialog.getByRole('cell', { name: 'CB CAFÉ DE LA GARE' }).waitFor();
    const column = (n: number, name: string) => dialog.getByRole('combobox', { name: `Contenu de la colonne ${n} « ${name} »` });
    await expect.poll(() => column(1, 'Date opération').textContent()).toContain('Date d’opération');
    await expect.poll(() => column(5, 'Référence').textContent()).toContain('Ignorée');
    await expectNoSeriousViolations(page, 'bank-csv-columns');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await session.rest('GET', `/api/bank-transactions?account_id=${account.id}`)).body.total).toBe(0);

    await page.getByLabel('Importer un relevé').setInputFiles(file());
    await dialog.waitFor();
    // Two columns for the label: told in the dialog, nothing sent.
    await column(5, 'Référence').click();
    await page.getByRole('option', { name: 'Libellé', exact: true }).click();
    await dialog.getByRole('button', { name: 'Importer' }).click();
    await dialog.getByRole('alert').getByText('« Libellé » est choisie pour plusieurs colonnes').waitFor();
    // From the keyboard: the reference column becomes the detail appended to the label.
    await column(5, 'Référence').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'Détail (ajouté au libellé)' }).waitFor();
    // The list opens on the current choice (« Libellé »); the next one down is the detail. Each key waits for the
    // highlight it moves: a key pressed while the list is still placing it would land elsewhere.
    const highlighted = () => page.locator('[role="option"][data-highlighted]').textContent();
    await expect.poll(highlighted).toContain('Libellé');
    // Ark moves the focus into the open list a frame after drawing it; an arrow pressed before lands on the button,
    // which ignores it while the list is open.
    await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="listbox"]')))).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(highlighted).toContain('Détail');
    await page.keyboard.press('Enter');
    await expect.poll(() => column(5, 'Référence').textContent()).toContain('Détail');
    await screenshot(page, 'bank-csv-columns');
    // A format that does not read the file: the server's reason, in the dialog, nothing imported.
    await dialog.getByRole('combobox', { name: 'Format des dates' }).click();
    await page.getByRole('option', { name: 'AAAA-MM-JJ' }).click();
    await dialog.getByRole('button', { name: 'Importer' }).click();
    await dialog
      .getByRole('alert')
      .getByText('Ligne 4, colonne 1 « Date opération » choisie comme date : « 02/11/2026 » n’est pas une date AAAA-MM-JJ', {
        exact: false,
      })
      .waitFor();
    expect((await session.rest('GET', `/api/bank-transactions?account_id=${account.id}`)).body.total).toBe(0);
    await dialog.getByRole('combobox', { name: 'Format des dates' }).click();
    await page.getByRole('option', { name: 'JJ/MM/AAAA' }).click();
    await dialog.getByRole('button', { name: 'Importer' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await report.getByText(/3 opérations importées/).waitFor();

    await page.getByRole('button', { name: 'Toutes' }).click();
    const lines = page.getByRole('region', { name: 'Opérations' });
    await lines.getByText('CB CAFÉ DE LA GARE CARTE 1234').waitFor();
    await lines.getByText('VIR M. DUPONT LOYER NOV').waitFor();
    await screenshot(page, 'bank-csv-imported');

    // The account remembers its columns: the same file again asks nothing.
    await page.getByLabel('Importer un relevé').setInputFiles(file());
    await report.getByText(/0 opération importée, 3 déjà présentes/).waitFor();
    expect(await dialog.count()).toBe(0);
  });
});
