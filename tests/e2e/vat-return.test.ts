import { describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

describe('the VAT return on screen', () => {
  it('a month’s CA3, each line opening the documents and expenses behind it', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    // Goods 1 000 + a service 100 at 20 %, half paid: 200 of VAT on the goods, 10 on the half-paid service.
    const invoice = await issued(suite.session, {
      customer_id: customerId,
      date: today,
      items: [line('Vélo', 10, 100, 20, { kind: 'goods' }), line('Réglage', 1, 100)],
    });
    await suite.session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: today, amount: 660 });
    await suite.session.rest('POST', '/api/expenses', {
      date: today,
      supplier: 'Grossiste',
      category: 'achats',
      label: 'Pièces',
      amount: 120,
      vat: [{ rate: 20, amount: 20 }],
    });
    const { context, page } = await suite.loggedIn();
    await page.goto('/reports');
    await chooseOption(page, 'Période', 'Mois');
    const card = page.getByTestId('report-tva-ca3');
    await card.getByRole('heading', { name: 'TVA (déclaration CA3)' }).waitFor();
    await card.getByRole('button', { name: 'Ligne 08 : voir les 2 opérations' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ligne 08 — Taux normal 20 %' });
    await dialog.getByText('À l’encaissement : 50 % payés').waitFor();
    const rows = await dialog.locator('tbody tr').allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Biens');
    expect(rows[1]).toContain('Services');
    expect(await dialog.locator('tfoot').innerText()).toMatch(/Total de la ligne 08\s+1\s?050,00\s€\s+210,00\s€/);
    await screenshot(page, 'vat-return-line-08');
    await page.keyboard.press('Escape');
    await screenshot(page, 'vat-return-month');
    await context.close();
  });
});
