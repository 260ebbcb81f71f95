import { describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, forEachLook, look, PHONE, PHONE_LOOKS, screenshot, WIDE } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { draft, issued, line, owedLabel, readyToInvoice } from '../helpers/documents';

/** Phones get cards instead of tables, the editor's buttons at the bottom, and errors beside their fields. */
const suite = browserSuite();

describe('phones', () => {
  it('lists are cards on a phone (number, customer, total, status, menu), tables on wide screens', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, date: '2026-11-02', items: [line('Création du logo', 1, 1000)] });
    expect(
      (await session.rest('POST', '/api/expenses', { date: '2026-11-03', supplier: 'EDF', category: 'energy', amount: 120 })).status,
    ).toBe(201);
    expect((await session.rest('POST', '/api/items', { name: 'Audit de marque', unit_price: 450 })).status).toBe(201);
    await forEachLook(suite, async (page, { theme, size }) => {
      if (size === 'wide') {
        await page.goto('/invoices');
        await page.getByRole('table', { name: 'Factures' }).getByRole('row').filter({ hasText: invoice.number }).waitFor();
        expect(await page.locator('main [data-shape=cards]').count()).toBe(0);
        await screenshot(page, `wide-invoices-${theme}`);
        return;
      }
      await page.goto('/invoices');
      const cards = page.getByRole('list', { name: 'Factures' });
      const card = cards.getByRole('listitem').filter({ hasText: invoice.number });
      await card.waitFor();
      expect(await page.locator('main table').count()).toBe(0);
      // The same data as the table's row, all on screen.
      for (const text of ['Boulangerie Martin', /1[\s.]?200,00/, owedLabel(invoice), 'Date'])
        await card.getByText(text, { exact: false }).first().waitFor();
      const status = await card.getByText(owedLabel(invoice)).boundingBox();
      expect((status?.x ?? 999) + (status?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      // The row menu, from the keyboard.
      const menu = card.getByRole('button', { name: `Actions facture ${invoice.number}` });
      await menu.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Dupliquer' }).waitFor();
      await page.keyboard.press('Escape');
      // The sort the headers gave, as a select.
      await chooseOption(page, 'Trier par', 'Total TTC (croissant)');
      await page.waitForURL(/sort_by=total&sort_order=asc|sort_order=asc.*sort_by=total/);
      await screenshot(page, `phone-invoices-${theme}`);
      await expectNoSeriousViolations(page, `invoices cards ${theme}`);
      // The title link opens the document.
      await card.getByRole('link', { name: invoice.number }).click();
      await page.waitForURL(new RegExp(`/invoices/${invoice.id}/view$`));

      for (const [path, name] of [
        ['/customers', 'Clients'],
        ['/items', 'Articles'],
        ['/expenses', 'Dépenses'],
      ] as const) {
        await page.goto(path);
        await page.locator('main [data-shape=cards]').first().waitFor();
        expect(await page.locator('main table').count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
        await page.getByRole('list', { name }).getByRole('listitem').first().waitFor();
        await screenshot(page, `phone-${path.slice(1)}-${theme}`);
        await expectNoSeriousViolations(page, `${path} cards ${theme}`);
      }
    });
  }, 150_000);

  it('the editor keeps save and issue in a bar at the bottom; the totals fold to the total', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Audit', 2, 500)] });
    await forEachLook(
      suite,
      async (page, { theme }) => {
        await page.goto(`/invoices/${doc.id}/edit`);
        const bar = page.getByTestId('editor-sticky-bar');
        await bar.getByRole('button', { name: 'Enregistrer', exact: true }).waitFor();
        await bar.getByRole('button', { name: 'Enregistrer & émettre' }).waitFor();
        // Not at the top any more (only « Fermer » stays there), and on screen at the bottom whatever the scroll.
        expect(await page.getByRole('button', { name: 'Enregistrer', exact: true }).count()).toBe(1);
        for (const y of [0, 100_000]) {
          await page.evaluate((top) => window.scrollTo(0, top), y);
          await page.waitForTimeout(50);
          const box = await bar.boundingBox();
          expect(box).not.toBeNull();
          expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBeLessThanOrEqual(PHONE.height);
          expect(box?.y ?? 0).toBeGreaterThan(PHONE.height - 120);
        }
        const totals = page.getByRole('region', { name: 'Totaux' });
        const toggle = totals.getByRole('button', { name: /Total TTC/ });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        await totals.getByText(/1[\s.]?200,00/).waitFor();
        expect(await totals.getByText('Sous-total HT').count()).toBe(0);
        await screenshot(page, `phone-editor-folded-${theme}`);
        await toggle.click();
        const fold = totals.getByRole('button', { name: /Détail des totaux/ });
        expect(await fold.getAttribute('aria-expanded')).toBe('true');
        await totals.getByText('Sous-total HT').waitFor();
        await totals.locator('[data-total=tax]').waitFor();
        await screenshot(page, `phone-editor-open-${theme}`);
        await expectNoSeriousViolations(page, `editor on a phone ${theme}`);
        await page.keyboard.press('Enter'); // the focused toggle folds it again
        await totals.getByRole('button', { name: /Total TTC/ }).waitFor();
      },
      { looks: PHONE_LOOKS },
    );
    // Wide: the buttons stay at the top, the totals unfolded, no bar.
    const { page, context } = await suite.loggedIn(WIDE);
    await page.goto(`/invoices/${doc.id}/edit`);
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).waitFor();
    expect(await page.getByTestId('editor-sticky-bar').count()).toBe(0);
    await page.getByRole('region', { name: 'Totaux' }).getByText('Sous-total HT').waitFor();
    await screenshot(page, 'wide-editor');
    await context.close();
  }, 150_000);

  it('a refusal about a field shows beside that field, not only in the snackbar', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Audit', 1, 500)] });
    // Archived in another tab after the draft was written: the server refuses the save, naming the customer field.
    expect((await session.rest('DELETE', `/api/customers/${customerId}`)).status).toBe(200);
    await forEachLook(
      suite,
      async (page, { theme, size, viewport }) => {
        await page.goto(`/invoices/${doc.id}/edit`);
        await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
        const beside = page
          .getByRole('region', { name: 'Client et dates' })
          .getByText('Ce client est archivé, restaurez-le pour lui établir un document');
        await beside.waitFor();
        await page.getByTestId('snackbar').getByText('Client : ce client est archivé', { exact: false }).waitFor();
        if (size === 'phone') {
          // The message sits above the buttons stuck to the bottom, never over them.
          const message = await page.getByTestId('snackbar').boundingBox();
          const bar = await page.getByTestId('editor-sticky-bar').boundingBox();
          expect(message && bar && message.y + message.height <= bar.y).toBe(true);
        }
        await screenshot(page, `field-error-editor-${theme}-${viewport.width}`);
        await expectNoSeriousViolations(page, `editor field error ${theme} ${viewport.width}`);
      },
      { looks: [look('light', 'wide'), look('dark', 'phone')] },
    );
  }, 150_000);
});
