import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoSeriousViolations } from '../helpers/axe';
import { browserSuite, chooseOption, chosenOption, dialogLayerReady, optionsOf, screenshot, selectNamed } from '../helpers/browser';

/**
 * The kit Select's search field: a long list (here the currency catalogue of Paramètres → Système
 * général, ~150 entries) opens with a search field, filtered by keyboard alone; a short one stays a plain list.
 */
describe('the kit Select with a search field', () => {
  const suite = browserSuite();

  const focusedName = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
    });

  it('filters as you type, ignoring case and accents, and picks with the arrows and Enter', { timeout: 90_000 }, async () => {
    const { context, page } = await suite.loggedIn({ width: 1280, height: 900 });
    try {
      await page.goto('/settings/general');
      const currency = selectNamed(page, 'Devise');
      await currency.waitFor();
      expect(await chosenOption(page, 'Devise')).toBe('EUR — Euro');

      // Opening by keyboard puts focus in the labelled search field, which controls the listbox.
      await currency.focus();
      await page.keyboard.press('Enter');
      const search = page.getByRole('combobox', { name: 'Rechercher dans la liste' });
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      const listbox = page.getByRole('listbox');
      expect(await search.getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
      const all = await listbox.getByRole('option').count();
      expect(all).toBeGreaterThan(100);

      // 'franc su' (a space inside: it types, it does not pick) → the Swiss franc alone; ArrowDown, Enter picks it.
      await page.keyboard.type('franc su');
      await expect.poll(() => listbox.getByRole('option').allInnerTexts()).toEqual(['CHF — Franc suisse']);
      await page.keyboard.press('ArrowDown');
      // The highlight follows a render: read it once it is there.
      await expect
        .poll(async () => {
          const highlighted = await search.getAttribute('aria-activedescendant');
          return highlighted ? page.locator(`[id="${highlighted}"]`).innerText() : null;
        })
        .toBe('CHF — Franc suisse');
      await page.keyboard.press('Enter');
      await expect.poll(() => currency.getAttribute('aria-expanded')).toBe('false');
      expect(await chosenOption(page, 'Devise')).toBe('CHF — Franc suisse');
      await expect.poll(() => currency.evaluate((el) => el === document.activeElement)).toBe(true);

      // Accents and case do not matter: 'FRANC GUINEEN' finds 'Franc guinéen'; ArrowUp comes back round through the matches.
      await page.keyboard.press('Enter');
      await search.waitFor();
      // The search field takes the focus a frame after the list shows: typed before, the letters would go elsewhere.
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type('fra');
      await expect
        .poll(async () => {
          const francs = await listbox.getByRole('option').allInnerTexts();
          return francs.length > 5 && francs.every((t) => /fra/i.test(t));
        })
        .toBe(true);
      await search.fill('FRANC GUINEEN');
      await expect.poll(() => listbox.getByRole('option').allInnerTexts()).toEqual(['GNF — Franc guinéen']);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => chosenOption(page, 'Devise')).toBe('GNF — Franc guinéen');
      // The list closes and gives the focus back to the button before a key can open it again.
      await expect.poll(() => currency.getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => currency.evaluate((el) => el === document.activeElement)).toBe(true);

      // Nothing matches: « Aucun résultat », Enter picks nothing and keeps the list open; Escape closes it, focus back
      // on the button, the choice unchanged.
      await page.keyboard.press('ArrowDown');
      await search.waitFor();
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type('zzz');
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Aucun résultat' }).count()).toBe(1);
      expect(await listbox.getByRole('option').count()).toBe(0);
      await page.keyboard.press('Enter');
      expect(await currency.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      await expect.poll(() => currency.getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => currency.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await chosenOption(page, 'Devise')).toBe('GNF — Franc guinéen');

      // The search starts afresh at each opening; Tab leaves the select for the next field, closing the list.
      await page.keyboard.press('Enter');
      await search.waitFor();
      expect(await search.inputValue()).toBe('');
      expect(await listbox.getByRole('option').count()).toBe(all);
      await page.keyboard.press('Tab');
      await expect.poll(() => currency.getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => focusedName(page)).toBe(await chosenOption(page, 'Position du symbole'));

      // The mouse helpers work on a searchable select as on a short one.
      await chooseOption(page, 'Devise', 'USD — Dollar des États-Unis');
      expect(await chosenOption(page, 'Devise')).toBe('USD — Dollar des États-Unis');
      expect((await optionsOf(page, 'Devise')).length).toBe(all);

      // A short list (2 options) stays a plain listbox: no search field.
      await selectNamed(page, 'Position du symbole').click();
      await page.getByRole('listbox').getByRole('option').first().waitFor();
      expect(await search.count()).toBe(0);
      await page.keyboard.press('Escape');
    } finally {
      await context.close();
    }
  });

  it('searches inside a dialog too: the expense categories, by keyboard, the dialog kept open', { timeout: 60_000 }, async () => {
    const { context, page } = await suite.loggedIn({ width: 1280, height: 900 });
    try {
      await page.goto('/expenses');
      await page.getByRole('button', { name: 'Nouvelle dépense' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Nouvelle dépense' });
      await dialogLayerReady(page);
      const category = selectNamed(dialog, 'Catégorie');
      await category.focus();
      await page.keyboard.press('ArrowDown');
      const search = page.getByRole('combobox', { name: 'Rechercher dans la liste' });
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type('RECEPTION');
      await expect.poll(() => page.getByRole('listbox').getByRole('option').allInnerTexts()).toEqual(['Repas et réceptions (625700)']);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => chosenOption(dialog, 'Catégorie')).toBe('Repas et réceptions (625700)');
      await expect.poll(() => category.evaluate((el) => el === document.activeElement)).toBe(true);
      // Escape from the search closes the list only; the dialog stays.
      await page.keyboard.press('Enter');
      await search.waitFor();
      // Escape once the search field has the focus (a frame after the list shows): pressed on the button before, it
      // would be the dialog's.
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => category.getAttribute('aria-expanded')).toBe('false');
      expect(await dialog.isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('looks right open, in light and dark, wide and on a phone, with no serious axe violation', { timeout: 120_000 }, async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const [size, viewport] of [
        ['wide', { width: 1280, height: 900 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        const { context, page } = await suite.loggedIn({ ...viewport, colorScheme: theme });
        await context.addInitScript((t) => localStorage.setItem('facturier.display', JSON.stringify({ theme: t, theme_mode: t })), theme);
        try {
          await page.goto('/settings/general');
          const currency = selectNamed(page, 'Devise');
          await currency.click();
          await page.keyboard.type('dollar');
          await page.keyboard.press('ArrowDown');
          await page.keyboard.press('ArrowDown');
          await page.getByRole('listbox').getByRole('option').first().waitFor();
          await screenshot(page, `select-search-${theme}-${size}`);
          await expectNoSeriousViolations(page, `select search ${theme} ${size}`);
          await page.getByRole('combobox', { name: 'Rechercher dans la liste' }).fill('zzz');
          await page.getByText('Aucun résultat').waitFor();
          await screenshot(page, `select-search-empty-${theme}-${size}`);
          await page.keyboard.press('Escape');
        } finally {
          await context.close();
        }
      }
    }
  });
});
