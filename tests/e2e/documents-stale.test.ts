import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, screenshot } from '../helpers/browser';
import { draft, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();
const MODIFIED = 'Ce document a été modifié entre-temps : rechargez-le';
const iso = (d: Date) => d.toISOString().slice(0, 10);
const dateField = (page: Page) => page.getByLabel('Date', { exact: true });

describe('the lost edit: the editor loads what the server holds, and a stale form never overwrites', () => {
  it('shows the saved date after a refused issue, and refuses the save of a page loaded before it', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const today = iso(new Date());
    const future = iso(new Date(Date.now() + 10 * 86_400_000));
    const doc = await draft(session, { customer_id: customerId, date: today, items: [line('Audit', 2, 100)] });

    // A second page opened on the same draft before anything changes: the old version.
    const { page: old } = await suite.loggedIn({ height: 1000 });
    await old.goto(`/invoices/${doc.id}/edit`);
    await expect.poll(() => dateField(old).inputValue()).toBe(today);

    const { page } = await suite.loggedIn({ height: 1000 });
    // Seen once first (Aperçu then Modifier), as a person browses: the cached answer must not come back later.
    await page.goto(`/invoices/${doc.id}/view`);
    await page.getByRole('link', { name: 'Modifier' }).click();
    await expect.poll(() => dateField(page).inputValue()).toBe(today);
    await dateField(page).fill(future);
    await page.getByRole('button', { name: 'Enregistrer & émettre' }).click();
    // Validated before any question: the reason stays in the banner beside the document.
    await page
      .getByRole('alert')
      .getByText(/date future/)
      .waitFor();
    expect((await session.rest('GET', `/api/documents/${doc.id}`)).body.stored_status).toBe('draft');

    // Modifier again: the saved (new) date, not the one first loaded.
    await page.getByRole('link', { name: 'Modifier' }).click();
    await expect.poll(() => dateField(page).inputValue()).toBe(future);
    await screenshot(page, 'stale-editor-after-refused-issue');

    // The old page, edited from its old version, saves: refused with the message and an offer to reload; its typing stays.
    await old.getByLabel('Note', { exact: true }).fill('Saisie sur l’ancienne version');
    await old.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    const offer = old.getByRole('alertdialog');
    await offer.getByText(MODIFIED).waitFor();
    await screenshot(old, 'stale-editor-conflict');
    expect(await dateField(old).inputValue()).toBe(today);
    const kept = (await session.rest('GET', `/api/documents/${doc.id}`)).body;
    expect(kept.date).toBe(future);
    expect(kept.note).toBe('');
    expect(kept.customer_id).toBe(customerId);
    expect(kept.items.map((i: { item: string; quantity: number }) => [i.item, i.quantity])).toEqual([['Audit', 2]]);

    // Reloading shows the server's version, and saving it then goes through.
    await offer.getByRole('button', { name: 'Recharger' }).click();
    await expect.poll(() => dateField(old).inputValue()).toBe(future);
    expect(await old.getByLabel('Note', { exact: true }).inputValue()).toBe('');
    await old.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await old.getByTestId('snackbar').getByText('Mis à jour avec succès').waitFor();
    const after = (await session.rest('GET', `/api/documents/${doc.id}`)).body;
    expect(after.date).toBe(future);
    expect(after.items).toHaveLength(1);
  });
});
