import { describe, expect, it } from 'vitest';
import { browserSuite, chosenOption, forEachLook, screenshot, selectNamed } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';

const suite = browserSuite();

/** The settings screens moved onto the kit, by keyboard and as they look. */
describe('settings screens on the field kit', () => {
  it('works by keyboard: a reminder’s Select, its Checkbox, the VAT regime radios and the debits checkbox', {
    timeout: 90_000,
  }, async () => {
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/settings/reminders');
      const first = page.getByRole('group', { name: 'Relance 1' });
      await first.getByLabel('Jours').waitFor();
      // Arrow keys open the list and move through it; Enter picks: « le jour de l’échéance » has no days to type.
      const when = selectNamed(first, 'Quand');
      await when.focus();
      await page.keyboard.press('ArrowDown');
      await page.getByRole('listbox').waitFor();
      await page.getByRole('option', { name: 'le jour de l’échéance' }).hover();
      await page.keyboard.press('Enter');
      await expect.poll(() => chosenOption(first, 'Quand')).toBe('le jour de l’échéance');
      expect(await first.getByLabel('Jours').count()).toBe(0);
      // The step's checkbox is a real one, toggled by Space.
      const active = first.getByRole('checkbox', { name: 'Active' });
      expect(await active.isChecked()).toBe(true);
      await active.focus();
      await page.keyboard.press('Space');
      await expect.poll(() => active.isChecked()).toBe(false);
      await first.getByText('désactivée').waitFor();
      // The body's label names the textarea, and its error is its description.
      await first.getByLabel('Message').fill('');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      const body = first.getByRole('textbox', { name: 'Message' });
      await expect.poll(() => body.getAttribute('aria-invalid')).toBe('true');
      expect(await body.getAttribute('aria-describedby')).toBeTruthy();

      await page.goto('/settings/organization');
      const debits = page.getByRole('checkbox', { name: 'Option pour le paiement de la taxe d’après les débits' });
      await debits.waitFor({ state: 'attached' });
      expect(await debits.isDisabled()).toBe(false);
      const regime = page.getByRole('radiogroup', { name: 'Régime de TVA' });
      await regime.getByRole('radio', { name: 'Assujetti à la TVA' }).focus();
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => regime.getByRole('radio', { name: /Franchise en base de TVA/ }).isChecked()).toBe(true);
      // Under the franchise there is no VAT to pay on debits.
      await expect.poll(() => debits.isDisabled()).toBe(true);
      await page.getByText('Modifications non enregistrées').waitFor();
    } finally {
      await context.close();
    }
  });

  it('shows the moved settings screens in light and dark, wide and on a phone, with no serious axe violation', {
    timeout: 900_000,
  }, async () => {
    const screens: [string, string, RegExp | string][] = [
      ['organization', '/settings/organization', 'Régime de TVA'],
      ['reminders', '/settings/reminders', 'Relances de paiement'],
      ['email', '/settings/email', 'Modèle'],
      ['members', '/settings/members', 'Envoyer l’invitation'],
      ['taxes', '/settings/taxes', 'Autoriser plusieurs taxes par ligne'],
      ['tags', '/settings/tags', 'S’applique aux'],
      ['accounting', '/settings/accounting', 'Exercice comptable'],
      ['api', '/settings/api', 'Événements'],
    ];
    await forEachLook(suite, async (page, { theme, size }) => {
      for (const [name, url, landmark] of screens) {
        await page.goto(url);
        await page.getByText(landmark, { exact: true }).first().waitFor();
        await screenshot(page, `settings-kit-${name}-${theme}-${size}`);
        await expectNoSeriousViolations(page, `${name} ${theme} ${size}`);
      }
      await page.goto('/settings/reminders');
      await selectNamed(page.getByRole('group', { name: 'Relance 1' }), 'Envoi').click();
      await page.getByRole('listbox').waitFor();
      await screenshot(page, `settings-kit-reminders-select-open-${theme}-${size}`);
      await page.keyboard.press('Escape');
    });
  });
});
