import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, chooseOption, chosenOption, dialogLayerReady, forEachLook, screenshot, selectNamed } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { parisToday } from '../../src/shared/paris-date';

/** The dialogs, the recurring editor and the reports' period picker on the field kit. */
describe('the field kit in the dialogs and pickers', () => {
  const suite = browserSuite();
  let estimate = { id: 0, uuid: '' };
  let invoiceId = 0;
  beforeAll(async () => {
    const { customerId } = await readyToInvoice(suite.session);
    // Valid for two months from today, so the share page offers to accept it.
    const validUntil = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    estimate = await issued(suite.session, {
      type: 'estimate',
      customer_id: customerId,
      maturity: validUntil,
      items: [line('Rénovation', 1, 2400)],
    });
    invoiceId = (await issued(suite.session, { customer_id: customerId, items: [line('Formation', 2, 600)] })).id;
  });

  /** The error text named by the control's aria-describedby (the kit's Field puts it there). */
  const descriptionOf = async (page: Page, control: ReturnType<Page['getByLabel']>) => {
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
    return texts.join(' ');
  };

  it('deposit: a percent refused beside its field, then an amount tidied on blur and the draft made', { timeout: 60_000 }, async () => {
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto(`/estimates/${estimate.id}/view`);
      await page.getByRole('button', { name: 'Plus' }).click();
      await page.getByRole('menuitem', { name: 'Facturer un acompte' }).click();
      const dialog = page.getByRole('dialog', { name: /^Facture d’acompte sur / });
      await dialogLayerReady(page);
      const percent = dialog.getByLabel('Pourcentage (%)');
      await percent.fill('trente');
      await dialog.getByRole('button', { name: 'Créer la facture d’acompte' }).click();
      await expect.poll(() => percent.getAttribute('aria-invalid')).toBe('true');
      expect(await descriptionOf(page, percent)).toBe('Un pourcentage positif est attendu (ex. 30)');
      await percent.fill('150');
      await dialog.getByRole('button', { name: 'Créer la facture d’acompte' }).click();
      await dialog.getByText('100 % au plus').waitFor();

      // The mode is a radio group: arrow keys move the choice.
      const byPercent = dialog.getByRole('radio', { name: 'En pourcentage du total' });
      expect(await byPercent.isChecked()).toBe(true);
      await byPercent.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => dialog.getByRole('radio', { name: 'Montant TTC' }).isChecked()).toBe(true);
      const amount = dialog.getByRole('textbox', { name: 'Montant TTC' });
      await amount.fill('1200.5');
      await amount.blur();
      expect(await amount.inputValue()).toBe('1\u202f200,50');
      expect(await amount.getAttribute('aria-invalid')).toBeNull();
      await screenshot(page, 'field-kit-deposit');
      await expectNoSeriousViolations(page, 'deposit dialog');
      await dialog.getByRole('button', { name: 'Créer la facture d’acompte' }).click();
      await page.waitForURL(/\/invoices\/\d+\/edit/);
    } finally {
      await context.close();
    }
  });

  it('appointment: the time error describes its field; status and reminder are kit selects', { timeout: 60_000 }, async () => {
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/appointments?view=list');
      await page.getByRole('button', { name: 'Nouveau rendez-vous' }).click();
      const form = page.getByRole('dialog', { name: 'Nouveau rendez-vous' });
      await dialogLayerReady(page);
      await form.getByLabel('Titre').fill('Essai du kit');
      const start = form.getByRole('textbox', { name: 'Début' });
      await start.fill('25:00');
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      await expect.poll(() => start.getAttribute('aria-invalid')).toBe('true');
      expect(await descriptionOf(page, start)).toBe('Début\u00a0: « 25:00 » n’est pas une heure (ex. 09:30, 9h30, 9:30 pm)');
      expect(await chosenOption(form, 'Statut')).toBe('Prévu');
      expect(await chosenOption(form, 'Rappel par e-mail')).toBe('Aucun rappel');
      await chooseOption(form, 'Rappel par e-mail', '15 minutes avant');
      // « Toute la journée » is a kit checkbox: its label toggles it, and the hours go.
      await form.getByText('Toute la journée', { exact: true }).click();
      await expect.poll(() => form.getByRole('checkbox', { name: 'Toute la journée' }).isChecked()).toBe(true);
      await start.waitFor({ state: 'detached' });
      await form.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
      const today = parisToday();
      const saved = (await suite.session.rest('GET', `/api/appointments?from=${today}&to=${today}`)).body.data.find(
        (a: { title: string }) => a.title === 'Essai du kit',
      );
      expect(saved).toMatchObject({ all_day: true, reminder_minutes: 15 });
    } finally {
      await context.close();
    }
  });

  it('recurring editor: an empty interval is refused in French beside its field', { timeout: 60_000 }, async () => {
    const { context, page } = await suite.loggedIn({ height: 1000 });
    try {
      await page.goto('/recurring/new/add');
      const interval = page.getByRole('spinbutton', { name: 'Tous les… (intervalle)' });
      // The editor waits for the settings, taxes and VAT rules: slow on a loaded machine.
      await interval.waitFor({ timeout: 30_000 });
      await interval.fill('');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect.poll(() => interval.getAttribute('aria-invalid')).toBe('true');
      expect(await descriptionOf(page, interval)).not.toBe('');
      await chooseOption(page, 'Fin', 'Après un nombre de factures');
      await page.getByRole('spinbutton', { name: 'Nombre de factures' }).waitFor();
      await chooseOption(page, 'À chaque échéance', 'Émettre et envoyer par e-mail');
      const mode = selectNamed(page, 'À chaque échéance');
      expect(await descriptionOf(page, mode)).toContain('Envoyée à l’adresse e-mail du client');
    } finally {
      await context.close();
    }
  });

  it('shows the moved screens in light and dark, wide and on a phone, with no serious axe violation', { timeout: 480_000 }, async () => {
    await forEachLook(suite, async (page, { theme, size }) => {
      const shot = async (name: string) => {
        await screenshot(page, `field-kit-${name}-${theme}-${size}`);
        await expectNoSeriousViolations(page, `${name} ${theme} ${size}`);
      };
      await page.goto('/reports');
      await chooseOption(page, 'Période', 'Personnalisée');
      await page.getByLabel('Du', { exact: true }).waitFor();
      await shot('reports-period');

      await page.goto('/appointments?view=list');
      await page.getByRole('button', { name: 'Nouveau rendez-vous' }).click();
      await dialogLayerReady(page);
      await shot('appointment-form');

      await page.goto('/recurring/new/add');
      await chooseOption(page, 'Fin', 'Après un nombre de factures');
      await shot('recurring-editor');

      await page.goto(`/estimates/${estimate.id}/view`);
      await page.getByRole('button', { name: 'Plus' }).click();
      await page.getByRole('menuitem', { name: 'Facturer un acompte' }).click();
      await dialogLayerReady(page);
      await shot('deposit');

      await page.goto(`/invoices/${invoiceId}/view`);
      await page.getByRole('button', { name: 'Plus' }).click();
      await page.getByRole('menuitem', { name: 'Établir un avoir partiel' }).click();
      await dialogLayerReady(page);
      await page.getByLabel('Quantité à créditer : Formation').fill('3');
      await page.getByRole('button', { name: 'Créer l’avoir' }).click();
      const quantity = page.getByLabel('Quantité à créditer : Formation');
      await expect.poll(() => quantity.getAttribute('aria-invalid')).toBe('true');
      expect(await descriptionOf(page, quantity)).toBe('« Formation »\u00a0: une quantité entre 0 et 2 est attendue');
      await shot('credit-note');

      await page.goto(`/share/${estimate.uuid}`);
      await page.getByRole('button', { name: 'Accepter', exact: true }).click();
      await page.getByText('Bon pour accord', { exact: true }).click();
      await shot('quote-accept');

      await page.goto('/items');
      await page.getByRole('button', { name: 'Paramètre Application' }).click();
      await page.getByRole('button', { name: 'Signaler ou suggérer' }).click();
      const feedback = page.getByRole('dialog', { name: 'Donner votre avis' });
      await dialogLayerReady(page);
      await feedback.getByRole('button', { name: 'Envoyer' }).click();
      await expect.poll(() => feedback.getByLabel('Message', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await shot('feedback');

      await page.goto('/expenses?period=custom');
      if (size === 'phone') await page.getByRole('button', { name: 'Filtres', exact: true }).click();
      await selectNamed(page, 'Période').waitFor();
      await shot('expenses-period');
    });
  });
});
