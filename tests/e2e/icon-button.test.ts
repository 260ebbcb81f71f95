import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { line } from '../helpers/documents';
import { browserSuite, dialogLayerReady, screenshot } from '../helpers/browser';

/** One round icon button in the theme: the row menu's ⋮ and a dialog's close look and react the same. */
describe('the theme’s icon button', () => {
  const suite = browserSuite();

  const looks = (button: Locator) =>
    button.evaluate((el) => {
      const s = getComputedStyle(el);
      return { width: s.width, height: s.height, radius: s.borderTopLeftRadius, color: s.color, background: s.backgroundColor };
    });

  it('is the same for the row menu and the dialog close, in light and dark', { timeout: 120_000 }, async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await suite.session.rest('POST', '/api/documents', { type: 'invoice', date: today, items: [line('Conseil', 1, 100)] })).status,
    ).toBe(201);
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await suite.loggedIn({ width: 1280, height: 800, colorScheme: theme });
      await context.addInitScript((t) => localStorage.setItem('facturier.display', JSON.stringify({ theme: t, theme_mode: t })), theme);
      try {
        await page.goto('/invoices');
        const menu = page.getByRole('button', { name: /^Actions facture/ }).first();
        await menu.waitFor();
        const menuAtRest = await looks(menu);
        await menu.hover();
        await expect.poll(async () => (await looks(menu)).background).not.toBe(menuAtRest.background);
        const menuHovered = await looks(menu);
        // Round: as high as wide (2rem, whatever the chosen text size), fully rounded.
        expect(menuAtRest.width).toBe(menuAtRest.height);
        expect(Number.parseFloat(menuAtRest.radius)).toBeGreaterThanOrEqual(Number.parseFloat(menuAtRest.width) / 2);
        await screenshot(page, `icon-button-row-menu-${theme}`);

        await page.goto('/items');
        await page.getByRole('button', { name: 'Nouvel article' }).first().click();
        await dialogLayerReady(page);
        const close = page.getByRole('dialog', { name: 'Nouvel article' }).getByRole('button', { name: 'Fermer' });
        await page.mouse.move(0, 0);
        expect(await looks(close)).toEqual(menuAtRest);
        await close.hover();
        await expect.poll(() => looks(close)).toEqual(menuHovered);
        await screenshot(page, `icon-button-dialog-close-${theme}`);
      } finally {
        await context.close();
      }
    }
  });
});
