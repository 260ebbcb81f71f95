import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserSuite, chooseOption, look, openLook, screenshot } from '../helpers/browser';
import { addDays, longDay, startOfWeek } from '../../src/shared/calendar-dates';
import { parisToday } from '../../src/shared/paris-date';

const suite = browserSuite();

/** The day of this week that is not today (tomorrow, or yesterday on a Sunday), so a drag stays in the week shown. */
function otherDayOfWeek(today: string): string {
  return addDays(today, 1) > addDays(startOfWeek(today), 6) ? addDays(today, -1) : addDays(today, 1);
}

async function appointmentsOn(date: string) {
  const answer = await suite.session.rest('GET', `/api/appointments?from=${date}&to=${date}`);
  expect(answer.status).toBe(200);
  return answer.body.data as Array<Record<string, unknown>>;
}

async function pickCustomer(page: Page, scope: Locator, name: string) {
  await scope.getByRole('combobox', { name: 'Client' }).fill(name.slice(0, 5));
  await page.getByRole('option', { name: new RegExp(name) }).click();
}

/** Presses Tab until `target` has the focus, as a keyboard user would; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60) {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Not reached with ${max} Tab presses`);
}

describe('the agenda in the browser', () => {
  it('creates, shows, moves, edits, completes and bills an appointment', async () => {
    const today = parisToday();
    const other = otherDayOfWeek(today);
    const customer = (
      await suite.session.rest('POST', '/api/customers', {
        name: 'Boulangerie Martin',
        address: { line1: '3 rue du Pain', postal_code: '75011', city: 'Paris' },
      })
    ).body.data;
    await suite.session.rest('POST', '/api/items', { name: 'Conseil horaire', unit: 'h', unit_price: 60, kind: 'service' });

    const { context, page } = await suite.loggedIn();
    await page.goto('/appointments');
    // Week view by default: Monday first, French day names, 24 h hours.
    await page.getByRole('button', { name: 'Semaine', pressed: true }).waitFor();
    const heads = await page.locator('[data-weekday]').allTextContents();
    expect(heads[0]).toMatch(/^lun\./);
    expect(heads[6]).toMatch(/^dim\./);
    await page.getByText('14:00', { exact: true }).first().waitFor();

    // 1. A click on a slot opens the form on that day and hour.
    await page.getByRole('button', { name: `${longDay(today)} à 14:00`, exact: true }).click();
    let form = page.getByRole('dialog', { name: 'Nouveau rendez-vous' });
    expect(await form.getByLabel('Date').inputValue()).toBe(today);
    expect(await form.getByRole('textbox', { name: 'Début' }).inputValue()).toBe('14:00');
    expect(await form.getByRole('textbox', { name: 'Fin' }).inputValue()).toBe('15:00');
    await form.getByLabel('Titre').fill('Point chantier');
    await form.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await page.locator('[data-appointment]', { hasText: 'Point chantier' }).waitFor();

    // 2. The button, with a customer and times typed as people do.
    await page.getByRole('button', { name: 'Nouveau rendez-vous' }).click();
    form = page.getByRole('dialog', { name: 'Nouveau rendez-vous' });
    await form.getByLabel('Titre').fill('Conseil stratégie');
    await form.getByRole('textbox', { name: 'Début' }).fill('9h30');
    await form.getByRole('textbox', { name: 'Fin' }).fill('10:45');
    await form.getByLabel('Lieu').click();
    expect(await form.getByRole('textbox', { name: 'Début' }).inputValue()).toBe('09:30');
    await pickCustomer(page, form, 'Boulangerie Martin');
    await screenshot(page, 'appointments-form');
    await form.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    const chip = page.locator('[data-appointment]', { hasText: 'Conseil stratégie' });
    await chip.waitFor();
    expect(await chip.textContent()).toContain('09:30');
    expect(await chip.textContent()).toContain('Boulangerie Martin');
    const [made] = (await appointmentsOn(today)).filter((a) => a.title === 'Conseil stratégie');
    expect(made).toMatchObject({ start: '09:30', end: '10:45', customer_id: customer.id, status: 'planned' });
    await screenshot(page, 'appointments-week');

    // 3. Dragged to another day at 11:00: the server keeps its length.
    await chip.dragTo(page.getByRole('button', { name: `${longDay(other)} à 11:00`, exact: true }));
    await page
      .getByTestId('snackbar')
      .getByText(/Rendez-vous déplacé au/)
      .waitFor();
    await expect
      .poll(async () => (await appointmentsOn(other)).find((a) => a.title === 'Conseil stratégie'))
      .toMatchObject({
        date: other,
        start: '11:00',
        end: '12:15',
      });
    expect((await appointmentsOn(today)).map((a) => a.title)).toEqual(['Point chantier']);
    await page.locator(`[data-day="${other}"] [data-appointment]`, { hasText: 'Conseil stratégie' }).waitFor();

    // Day, month and list views show it.
    await page.goto(`/appointments?view=day&date=${other}`);
    await page.getByRole('heading', { name: longDay(other) }).waitFor();
    await page.locator('[data-appointment]', { hasText: 'Conseil stratégie' }).waitFor();
    await screenshot(page, 'appointments-day');
    await page.getByRole('button', { name: 'Mois' }).click();
    await page.locator('[data-appointment]', { hasText: 'Conseil stratégie' }).waitFor();
    await page.locator('[data-appointment]', { hasText: 'Point chantier' }).waitFor();
    await screenshot(page, 'appointments-month');
    await page.getByRole('button', { name: 'Liste' }).click();
    await page
      .getByRole('region', { name: longDay(other) })
      .getByText('Conseil stratégie')
      .waitFor();
    await screenshot(page, 'appointments-list');

    // 4. Edited by the form, then marked done.
    await page.getByRole('button', { name: /Conseil stratégie/ }).click();
    form = page.getByRole('dialog', { name: 'Modifier le rendez-vous' });
    await form.getByLabel('Lieu').fill('12 rue de la Paix, Paris');
    await chooseOption(form, 'Statut', 'Effectué');
    await form.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Mis à jour avec succès').waitFor();
    await expect
      .poll(async () => (await appointmentsOn(other)).find((a) => a.title === 'Conseil stratégie'))
      .toMatchObject({
        status: 'done',
        location: '12 rue de la Paix, Paris',
        start: '11:00',
      });

    // 5. « Facturer »: 1 h 15 at 60 € an hour on a draft invoice.
    await page.getByRole('button', { name: 'Facturer' }).click();
    const bill = page.getByRole('dialog', { name: 'Facturer des rendez-vous' });
    await pickCustomer(page, bill, 'Boulangerie Martin');
    await chooseOption(bill, 'Article (son prix est le taux horaire)', 'Conseil horaire — 60,00 € / h');
    await bill.getByText('1,25 h — 75,00 € HT').waitFor();
    await screenshot(page, 'appointments-bill');
    await bill.getByRole('button', { name: 'Créer la facture brouillon' }).click();
    await page.waitForURL(/\/invoices\/\d+/);
    const invoiceId = Number(/\/invoices\/(\d+)/.exec(page.url())?.[1]);
    const invoice = (await suite.session.rest('GET', `/api/documents/${invoiceId}`)).body;
    expect(invoice.status).toBe('draft');
    expect(invoice.items).toHaveLength(1);
    expect(Number(invoice.items[0].quantity)).toBe(1.25);
    expect(Number(invoice.items[0].unit_price)).toBe(60);
    expect(invoice.items[0].description).toContain('11:00 – 12:15 (1 h 15 min) : Conseil stratégie');
    await page.getByText('Conseil horaire · 1,25 h × 60,00 €').waitFor();
    await screenshot(page, 'appointments-invoice');

    // 6. The customer page lists it; the dashboard shows today's.
    await page.goto(`/customers/${customer.id}`);
    const section = page.getByRole('region', { name: 'Rendez-vous' });
    await section.getByText('Conseil stratégie').waitFor();
    await section.getByText('Effectué · facturé').waitFor();
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: 'tests/artifacts/appointments-customer.png' });
    await section.getByRole('link', { name: /Conseil stratégie/ }).click();
    await page.getByRole('heading', { name: longDay(other) }).waitFor();
    await page.locator('[data-appointment]', { hasText: 'Conseil stratégie' }).waitFor();
    await page.goto('/');
    const card = page.getByRole('region', { name: 'Prochains rendez-vous' });
    await card.getByText('Point chantier').waitFor();
    await card.getByText('Aujourd’hui · 14:00').waitFor();
    await card.screenshot({ path: 'tests/artifacts/appointments-dashboard.png' });
    await context.close();
  });

  it('moves an appointment with the keyboard alone, through its form', async () => {
    const today = parisToday();
    const { context, page } = await suite.loggedIn();
    await page.goto('/appointments');
    await page.locator('[data-appointment]', { hasText: 'Point chantier' }).waitFor();
    await tabTo(page, page.locator('[data-appointment]', { hasText: 'Point chantier' }));
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Modifier le rendez-vous' });
    await form.waitFor();
    await tabTo(page, form.getByRole('textbox', { name: 'Début' }));
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('16h');
    await page.keyboard.press('Tab'); // leaving the field writes it back in 24 h
    expect(await form.getByRole('textbox', { name: 'Début' }).inputValue()).toBe('16:00');
    await tabTo(page, form.getByRole('textbox', { name: 'Fin' }));
    await page.keyboard.press('ArrowUp'); // the picker: the hour part under the caret at the start
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp'); // minutes by 5
    expect(await form.getByRole('textbox', { name: 'Fin' }).inputValue()).toBe('16:05');
    await tabTo(page, form.getByRole('button', { name: 'Enregistrer' }));
    await page.keyboard.press('Enter');
    await page.getByTestId('snackbar').getByText('Mis à jour avec succès').waitFor();
    expect((await appointmentsOn(today)).find((a) => a.title === 'Point chantier')).toMatchObject({ start: '16:00', end: '16:05' });
    await context.close();
  });

  it('shows overlapping appointments side by side and an all-day one above the hours; a month drag keeps the hours', async () => {
    const monday = startOfWeek(addDays(parisToday(), 21));
    for (const body of [
      { title: 'Audit cuisine', date: monday, start: '10:00', end: '12:00' },
      { title: 'Appel fournisseur', date: monday, start: '11:00', end: '11:30' },
      { title: 'Salon de l’artisanat', date: monday, all_day: true },
    ])
      expect((await suite.session.rest('POST', '/api/appointments', { location: '', note: '', ...body })).status).toBe(201);
    const { context, page } = await suite.loggedIn();
    await page.goto(`/appointments?view=week&date=${monday}`);
    const audit = page.locator('[data-appointment]', { hasText: 'Audit cuisine' });
    const call = page.locator('[data-appointment]', { hasText: 'Appel fournisseur' });
    await audit.getByText('Chevauchement').waitFor();
    const [a, b] = [await audit.boundingBox(), await call.boundingBox()];
    expect(a && b && a.x + a.width <= b.x + 1).toBe(true); // side by side, not on top of each other
    const fair = page.locator('[data-appointment]', { hasText: 'Salon de l’artisanat' });
    expect(await fair.textContent()).not.toMatch(/\d\d:\d\d/);
    expect(((await fair.boundingBox())?.y ?? 0) < ((await audit.boundingBox())?.y ?? 0)).toBe(true);
    await screenshot(page, 'appointments-week-overlaps');

    await page.getByRole('button', { name: 'Mois' }).click();
    await audit.dragTo(page.locator(`[data-day="${addDays(monday, 2)}"]`));
    await page
      .getByTestId('snackbar')
      .getByText(/Rendez-vous déplacé au/)
      .waitFor();
    await expect
      .poll(async () => (await appointmentsOn(addDays(monday, 2))).find((x) => x.title === 'Audit cuisine'))
      .toMatchObject({ start: '10:00', end: '12:00' });
    await context.close();
  });

  it('answers in French for 25:00 and an end before the start', async () => {
    const { context, page } = await suite.loggedIn();
    await page.goto('/appointments?view=list');
    await page.getByRole('button', { name: 'Nouveau rendez-vous' }).click();
    const form = page.getByRole('dialog', { name: 'Nouveau rendez-vous' });
    await form.getByLabel('Titre').fill('Essai');
    await form.getByRole('textbox', { name: 'Début' }).fill('25:00');
    await form.getByRole('button', { name: 'Enregistrer' }).click();
    await form.getByText('Début : « 25:00 » n’est pas une heure (ex. 09:30, 9h30, 9:30 pm)').waitFor();
    await form.getByRole('textbox', { name: 'Début' }).fill('11:00');
    await form.getByRole('textbox', { name: 'Fin' }).fill('10:00');
    await form.getByRole('button', { name: 'Enregistrer' }).click();
    await form.getByText('La fin doit être après le début').waitFor();
    await screenshot(page, 'appointments-form-errors');
    await context.close();
  });

  it('shows the subscription address', async () => {
    const { context, page } = await suite.loggedIn();
    await page.goto('/appointments');
    await page.getByRole('button', { name: 'S’abonner' }).click();
    const dialog = page.getByRole('dialog', { name: 'S’abonner depuis un agenda' });
    await dialog.getByRole('button', { name: 'Créer l’adresse' }).click();
    const url = await dialog.getByLabel(/Adresse d’abonnement/).inputValue();
    await screenshot(page, 'appointments-subscribe');
    expect(url).toMatch(/^https?:\/\/.+\.ics$/);
    const feed = await fetch(url.replace(/^https?:\/\/[^/]+/, suite.server.url));
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('BEGIN:VCALENDAR');
    await context.close();
  });

  it('on a phone: day and list views, in the dark theme too', async () => {
    const { context, page } = await openLook(suite, look('dark', 'phone'));
    await page.goto('/appointments');
    await page.getByRole('button', { name: 'Jour', pressed: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Semaine' }).count()).toBe(0);
    await page.locator('[data-appointment]', { hasText: 'Point chantier' }).waitFor();
    await screenshot(page, 'appointments-phone-day');
    await page.getByRole('button', { name: 'Liste' }).click();
    await page.getByText('Point chantier').waitFor();
    await screenshot(page, 'appointments-phone-list');
    await context.close();
  });
});
