import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();
const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

/** The POST requests the page sends to one tRPC procedure, with their Idempotency-Key. */
function watchMutations(page: Page, procedure: string): string[] {
  const keys: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes(`/api/trpc/${procedure}`))
      keys.push(request.headers()['idempotency-key'] ?? '(aucune)');
  });
  return keys;
}

describe('a double click records once (nothing doubled)', () => {
  it('double-clicking Enregistrer on a new invoice creates one invoice, sent with an Idempotency-Key', async () => {
    const { session } = suite;
    await readyToInvoice(session);
    const { page } = await suite.loggedIn({ height: 1000 });
    const sent = watchMutations(page, 'documents.create');
    await page.goto('/invoices/new/add');
    await page.getByRole('combobox', { name: 'Client' }).fill('Boul');
    await page.getByRole('option', { name: /Boulangerie Martin/ }).click();
    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByLabel('Désignation').fill('Conseil');
    await page.getByLabel('Quantité').fill('1');
    await page.getByLabel('Prix unitaire').fill('100');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).dblclick();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.waitForURL('**/invoices');
    const list = (await session.rest('GET', '/api/documents?type=invoice')).body;
    expect(list.total).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it('double-clicking Enregistrer on a new devis creates one estimate', async () => {
    const { session } = suite;
    await readyToInvoice(session); // a customer of that name again: the first one offered is taken
    const { page } = await suite.loggedIn({ height: 1000 });
    const sent = watchMutations(page, 'documents.create');
    await page.goto('/estimates/new/add');
    await page.getByRole('combobox', { name: 'Client' }).fill('Boul');
    await page
      .getByRole('option', { name: /Boulangerie Martin/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByLabel('Désignation').fill('Rénovation de la vitrine');
    await page.getByLabel('Quantité').fill('1');
    await page.getByLabel('Prix unitaire').fill('2400');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).dblclick();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.waitForURL('**/estimates');
    const list = (await session.rest('GET', '/api/documents?type=estimate')).body;
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({ type: 'estimate', status: 'draft' });
    expect(sent).toHaveLength(1);
  });

  it('double-clicking Enregistrer on a new catalogue item creates one item', async () => {
    const { session } = suite;
    const before = (await session.rest('GET', '/api/items')).body.total as number;
    const { page } = await suite.loggedIn({ height: 1000 });
    const sent = watchMutations(page, 'items.create');
    await page.goto('/items');
    await page.getByRole('button', { name: 'Nouvel article' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouvel article' });
    await dialog.getByLabel('Désignation').fill('Forfait déplacement');
    await dialog.getByLabel('Prix unitaire HT').fill('45');
    await dialog.getByRole('button', { name: 'Enregistrer' }).dblclick();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const items = (await session.rest('GET', '/api/items?search=déplacement')).body;
    expect(items.data.filter((i: { name: string }) => i.name === 'Forfait déplacement')).toHaveLength(1);
    expect((await session.rest('GET', '/api/items')).body.total).toBe(before + 1);
    expect(sent).toHaveLength(1);
  });

  it('double-clicking the payment form’s Enregistrer records one payment and the balance is right', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const { page } = await suite.loggedIn({ height: 1000 });
    const sent = watchMutations(page, 'documents.recordPayment');
    await page.goto(`/invoices/${invoice.id}/payments`);
    await page.getByLabel('Montant').fill('40');
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).dblclick();
    await page.getByTestId('amount-due').getByText(nbsp('80,00 €')).waitFor();
    await screenshot(page, 'payment-double-click');
    expect((await session.rest('GET', `/api/documents/${invoice.id}/payments`)).body.total).toBe(1);
    expect((await session.rest('GET', `/api/documents/${invoice.id}`)).body).toMatchObject({ paid: 40, amount_due: 80 });
    expect(sent).toHaveLength(1);
  });
});
