import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ARTIFACTS, browserSuite, chooseOption, screenshot } from '../helpers/browser';
import { registered } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { seedVatYear } from '../helpers/vat-year';
import { seedDirectly } from '../../scripts/bench/reports';

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

  it('April of the hand-computed year as Statistiques shows it: the lines the integration test checks to the cent', async () => {
    const { session } = await registered(suite.server.url);
    await seedVatYear(session);
    const { context, page } = await suite.loggedInAs(session);
    await page.goto('/reports');
    await chooseOption(page, 'Période', 'Mois');
    await page.getByLabel('Mois', { exact: true }).fill('2025-04');
    const card = page.getByTestId('report-tva-ca3');
    await card.getByRole('button', { name: 'Ligne 09 : voir les 1 opérations' }).waitFor();
    // Spaces as read here; a thousands separator, where the number format puts one, left out.
    const rows = (await card.locator('tbody tr').allInnerTexts()).map((r) =>
      r
        .replace(/\s+/g, ' ')
        .replace(/(\d) (?=\d{3},)/g, '$1')
        .trim(),
    );
    // The final invoice less its deposit (700 / 140), the book at 5,5 %, the paid work at 10 %; nothing to deduct (23).
    expect(rows).toEqual([
      'A1 Ventes, prestations de services 1000,00 €',
      '08 Taux normal 20 % 700,00 € 140,00 €',
      '9B Taux réduit 10 % 200,00 € 20,00 €',
      '09 Taux réduit 5,5 % 100,00 € 5,50 €',
      '16 Total de la TVA brute due 165,50 €',
      '23 Total TVA déductible 0,00 €',
      '28 TVA nette due 165,50 €',
    ]);
    await screenshot(page, 'vat-return-april-2025');
    // The card alone, as the month's return reads.
    await card.screenshot({ path: path.join(ARTIFACTS, 'vat-return-april-2025-card.png') });
    await context.close();
  });

  it('a period too large to list its operations: « Voir les opérations » pages a line’s from the server, by keyboard', async () => {
    const { session } = await registered(suite.server.url);
    const organizationId = (await session.trpc().auth.me.query()).organization.id;
    // Three years of documents written straight into the database: more movements than the return lists (5 000).
    await seedDirectly(suite.server.dbPath, organizationId, 10_000);
    const from = `${Number(today.slice(0, 4)) - 2}-01-01`;
    const period = `from=${from}&to=${today}`;
    const report = await session.rest('GET', `/api/reports/vat?${period}`);
    expect(report.status).toBe(200);
    expect(report.body.items_omitted).toBe(true);
    const first = (await session.rest('GET', `/api/reports/vat/operations?${period}&line=08`)).body;
    expect(first.data).toHaveLength(50);

    const { context, page } = await suite.loggedInAs(session);
    await page.goto('/reports');
    await chooseOption(page, 'Période', 'Personnalisée');
    await page.getByLabel('Du', { exact: true }).fill(from);
    await page.getByLabel('Au', { exact: true }).fill(today);
    const card = page.getByTestId('report-tva-ca3');
    const open = card.getByRole('button', { name: /^Ligne 08\s:\svoir les opérations$/ });
    await open.waitFor();
    expect(await open.innerText()).toBe('Voir les opérations');
    // Lines that are totals (16) page nothing of their own.
    expect(await card.getByRole('button', { name: /^Ligne 16\s:\svoir les opérations$/ }).count()).toBe(0);
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^Ligne 08 — Taux normal 20/ });
    const rows = dialog.getByTestId('vat-operations').locator('tbody tr');
    await dialog.getByText('Opérations 1 à 50', { exact: true }).waitFor();
    expect(await rows.count()).toBe(50);
    expect(await rows.first().innerText()).toContain(first.data[0].reference);
    expect(await dialog.locator('tfoot').innerText()).toContain('Total de la ligne 08 sur la période');
    await screenshot(page, 'vat-return-operations-08', { fullPage: false });

    await dialog.getByRole('button', { name: 'Suivantes' }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByText('Opérations 51 à 100', { exact: true }).waitFor();
    // The reader lands on the page read.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('vat-operations');
    const second = (await session.rest('GET', `/api/reports/vat/operations?${period}&line=08&after=${encodeURIComponent(first.next)}`))
      .body;
    expect(await rows.first().innerText()).toContain(second.data[0].reference);
    await screenshot(page, 'vat-return-operations-08-page-2', { fullPage: false });
    await dialog.getByRole('button', { name: 'Précédentes' }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByText('Opérations 1 à 50', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // Closed, the focus is back where the reader opened it.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Voir les opérations');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Ligne 08\s:\svoir les opérations$/);
    await card.screenshot({ path: path.join(ARTIFACTS, 'vat-return-operations-omitted-card.png') });
    await context.close();
  }, 180_000);
});
