import { describe, expect, it } from 'vitest';
import { browserSuite, chosenOption, dialogLayerReady, forEachLook, screenshot, selectNamed } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';

/** The one field kit: labels, errors and keyboard the same on every form, in light and dark, wide and narrow. */
describe('the field kit', () => {
  const suite = browserSuite();

  it('wires the error to its control, formats amounts on blur, and picks options by keyboard', { timeout: 90_000 }, async () => {
    const { context, page } = await suite.loggedIn({ width: 1280, height: 900 });
    try {
      await page.goto('/items');
      await page.getByRole('button', { name: 'Nouvel article' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Nouvel article' });
      await dialogLayerReady(page);

      // An amount typed the English way reads French once the field is left.
      const price = dialog.getByLabel('Prix unitaire HT');
      await price.fill('1200.5');
      await price.blur();
      expect(await price.inputValue()).toBe('1\u202f200,50');

      // A refused save: the message is the control's description, and the control is marked invalid.
      await dialog.getByLabel('Désignation').fill('Journée de conseil');
      await price.fill('six cents');
      await dialog.getByRole('button', { name: 'Enregistrer' }).click();
      await expect.poll(() => price.getAttribute('aria-invalid')).toBe('true');
      const describedBy = await price.getAttribute('aria-describedby');
      expect(describedBy).toBeTruthy();
      const message = page.locator(`[id="${(describedBy ?? '').split(' ').at(-1)}"]`);
      expect((await message.textContent())?.length).toBeGreaterThan(0);
      expect(await price.getAttribute('aria-invalid')).toBe('true');

      // The kit's select by keyboard alone: focus, open with ArrowDown, move, Enter; the label names the button.
      const unit = selectNamed(dialog, 'Unité');
      const before = await chosenOption(dialog, 'Unité');
      await unit.focus();
      await page.keyboard.press('ArrowDown');
      await page.getByRole('listbox').waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => unit.getAttribute('aria-expanded')).toBe('false');
      expect(await chosenOption(dialog, 'Unité')).not.toBe(before);

      // The checkbox is a real checkbox for assistive technology, toggled by Space.
      const active = dialog.getByRole('checkbox', { name: 'Proposé dans les documents (actif)' });
      expect(await active.isChecked()).toBe(true);
      await active.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => active.isChecked()).toBe(false);
      await expectNoSeriousViolations(page, 'item form');
    } finally {
      await context.close();
    }
  });

  it('shows the moved forms in light and dark, wide and on a phone', { timeout: 180_000 }, async () => {
    await forEachLook(suite, async (page, { theme, size }) => {
      await page.goto('/items');
      await page.getByRole('button', { name: 'Nouvel article' }).first().click();
      const item = page.getByRole('dialog', { name: 'Nouvel article' });
      await dialogLayerReady(page);
      await item.getByLabel('Désignation').fill('Journée de conseil');
      await item.getByRole('button', { name: 'Enregistrer' }).click();
      await item.getByLabel('Prix unitaire HT').fill('x');
      await screenshot(page, `field-kit-item-${theme}-${size}`);
      await selectNamed(item, 'Unité').click();
      await page.getByRole('listbox').waitFor();
      await screenshot(page, `field-kit-select-open-${theme}-${size}`);
      await page.keyboard.press('Escape');
      await item.getByRole('button', { name: 'Annuler' }).click();

      await page.goto('/expenses');
      await page.getByRole('button', { name: 'Nouvelle dépense' }).first().click();
      await dialogLayerReady(page);
      await screenshot(page, `field-kit-expense-${theme}-${size}`);
      await expectNoSeriousViolations(page, `expense form ${theme} ${size}`);

      await page.goto('/settings/general');
      await page.getByTestId('currency-sample').waitFor();
      await screenshot(page, `field-kit-settings-${theme}-${size}`);
    });
  });
});
