import { describe, expect, it } from 'vitest';
import { browserSuite, dialogLayerReady, screenshot, chooseOption, chosenOption } from '../helpers/browser';
import { draft, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();
const iso = (d: Date) => d.toISOString().slice(0, 10);
const inDays = (days: number) => iso(new Date(Date.now() + days * 86_400_000));

describe('B2B payment terms past 60 days (C. com. L441-10) in the editor', () => {
  it('warns while editing, asks for a confirmation at issue, and issues once confirmed', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, {
      customer_id: customerId,
      date: iso(new Date()),
      maturity: inDays(75),
      items: [line('Maintenance annuelle', 1, 1200)],
    });
    const { page } = await suite.loggedIn({ height: 1000 });
    await page.goto(`/invoices/${doc.id}/edit`);
    const warning = page.getByTestId('payment-term-warning');
    await warning.getByText(/^Délai de paiement supérieur à 60 jours \(C\. com\. L441-10\)/).waitFor();
    await screenshot(page, 'payment-term-warning-editor');

    await page.getByRole('button', { name: 'Enregistrer & émettre' }).click();
    await dialogLayerReady(page);
    // Validation comes first: the term is asked about before « Émettre définitivement ? ».
    const question = page.getByRole('alertdialog', { name: 'Délai de paiement' });
    await question.getByText(/Le délai a-t-il été convenu avec le client\s\?/).waitFor();
    await screenshot(page, 'payment-term-confirm-dialog');
    // Cancelled: nothing issued.
    await question.getByRole('button', { name: 'Annuler' }).click();
    await question.waitFor({ state: 'hidden' });
    expect((await session.rest('GET', `/api/documents/${doc.id}`)).body.stored_status).toBe('draft');

    // Asked again from the Aperçu, then confirmed: issued.
    await page.getByRole('button', { name: 'Émettre', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Délai de paiement' }).getByRole('button', { name: 'Confirmer' }).click();
    await page.getByRole('alertdialog', { name: 'Émettre définitivement ?' }).getByRole('button', { name: 'Émettre' }).click();
    // The server's first issue starts a worker thread and loads the e-invoice validator in it: seconds, once (over ten
    // on a loaded CI machine).
    await page
      .getByTestId('snackbar')
      .getByText(/Document émis sous le n°/)
      .waitFor({ timeout: 30_000 });
    expect((await session.rest('GET', `/api/documents/${doc.id}`)).body.stored_status).toBe('unpaid');
  });

  it('warns on a business customer’s default term over 60 days, and takes a non-EU tax id', async () => {
    const { page } = await suite.loggedIn({ height: 1100 });
    await page.goto('/customers');
    await page.getByRole('button', { name: 'Nouveau client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
    await dialog.getByLabel('Nom', { exact: true }).fill('Chocolats Genève SA');
    await dialog.getByLabel('Pays').first().fill('Suisse');
    await dialog.getByLabel('N° de TVA ou identifiant fiscal').fill('CHE-123.456.789 TVA');
    await dialog.getByLabel('Délai de paiement (jours)').fill('90');
    await dialog.getByTestId('customer-term-warning').scrollIntoViewIfNeeded();
    await screenshot(page, 'customer-form-long-term-foreign-tax-id');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    const found = (await suite.session.rest('GET', '/api/customers?search=Genève')).body.data[0];
    expect(found.vat_number).toBe('CHE-123.456.789 TVA');
  });
});

describe('VAT exemption bases in the editor (CGI art. 259-1, 262 I, 262 ter I, 261-4-4°)', () => {
  it('fills the exemption text from the chosen basis, and keeps free text as typed', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, date: iso(new Date()), items: [line('Machine', 1, 900, 0)] });
    const { page } = await suite.loggedIn({ height: 1400 });
    await page.goto(`/invoices/${doc.id}/edit`);
    const basis = 'Base légale de l’exonération';
    await chooseOption(page, basis, 'Exportation de biens hors de l’UE (art. 262 I du CGI)');
    const text = page.getByRole('textbox', { name: 'Exonération de TVA' });
    await expect.poll(() => text.inputValue()).toBe('Exonération de TVA, art. 262 I du CGI (exportation hors de l’Union européenne)');
    await page.getByRole('region', { name: 'Remise, frais et textes' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'vat-exemption-basis');
    await text.fill('Exonération de TVA, art. 261 D du CGI');
    await expect.poll(() => chosenOption(page, basis)).toBe('Autre base (texte libre)');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText('Mis à jour avec succès').waitFor();
    expect((await session.rest('GET', `/api/documents/${doc.id}`)).body.vat_exemption).toBe('Exonération de TVA, art. 261 D du CGI');
  });
});

describe('numbering series that could meet (CGI art. 242 nonies A) in the template designer', () => {
  it('names the two colliding types above the series and refuses to save', async () => {
    const { page } = await suite.loggedIn({ width: 1600, height: 1100 });
    await page.goto('/settings/document');
    await page.getByRole('tab', { name: 'Numérotation' }).click();
    await page.getByRole('region', { name: 'Numérotation : Avoir' }).getByLabel('Préfixe').fill('F{year}-');
    const collisions = page.getByTestId('numbering-collisions');
    await collisions.getByText(/^Numérotation\s:\sles séries « Facture » et « Avoir » peuvent produire le même numéro/).waitFor();
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page
      .getByTestId('snackbar')
      .getByText(/« Facture » et « Avoir »/)
      .waitFor();
    await page.screenshot({ path: 'tests/artifacts/numbering-collision-designer.png' });
    const saved = (await suite.session.rest('GET', '/api/settings?key=document')).body.data;
    expect(saved.numbering.credit.prefix).toBe('AV{year}-');
  });
});

describe('late-penalty rate floor (C. com. L441-10 II) in Paramètres → Système général', () => {
  it('shows the floor beside the field and refuses a lower rate with it', async () => {
    const { page } = await suite.loggedIn({ height: 1100 });
    await page.goto('/settings');
    const rate = page.getByLabel('Taux des pénalités de retard (% par an)');
    await page.getByText(/^Au moins 3 × le taux d’intérêt légal \(C\. com\. L441-10\), soit \d+,\d{2}\s%/).waitFor();
    await rate.fill('5');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page
      .getByText(/^Pénalités de retard\s:\sau moins 3 × le taux d’intérêt légal \(C\. com\. L441-10\), soit \d+,\d{2}\s%/)
      .waitFor();
    await rate.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'tests/artifacts/late-penalty-floor.png' });
    expect((await suite.session.rest('GET', '/api/settings')).body.late_penalty_rate).toBe(12);
  });
});
