import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserSuite, screenshot } from '../helpers/browser';
import { Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { addDays, longDay, startOfWeek } from '../../src/shared/calendar-dates';
import { parisToday } from '../../src/shared/paris-date';
import { defined } from '../../src/shared/defined';
import { NARROW_NBSP } from '../../src/shared/french';
import { PLAN_IDS, PLANS } from '../../src/shared/plans';

const suite = browserSuite();

/** What a new user ran into on their first days: each screen as it should have been. */
describe('the rough edges a new user hit', () => {
  it('the agenda list starts from the week just seen and shows its appointment', async () => {
    const today = parisToday();
    // Next week's Monday: before the date the « › » button carries (today + 7) on every day but a Monday.
    const monday = startOfWeek(addDays(today, 7));
    const made = await suite.session.rest('POST', '/api/appointments', {
      title: 'Visite chantier',
      date: monday,
      start: '10:00',
      end: '11:00',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/appointments?view=week');
      await page.getByRole('button', { name: 'Période suivante' }).click();
      await page.locator('[data-appointment]', { hasText: 'Visite chantier' }).waitFor();
      await page.getByRole('button', { name: 'Liste' }).click();
      await page.getByRole('heading', { level: 2, name: /^Du / }).waitFor();
      await page
        .getByRole('region', { name: longDay(monday) })
        .getByText('Visite chantier')
        .waitFor();
      expect(await page.getByText('Aucun rendez-vous sur cette période').count()).toBe(0);
      await screenshot(page, 'rough-agenda-list');
    } finally {
      await context.close();
    }
  });

  it('the estimate editor names its two texts apart, shows a line’s discount folded, and the invoice drops the quote’s conditions', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/estimates/new/add');
      await page.getByLabel('Conditions du devis').waitFor({ timeout: 30_000 });
      await page.getByLabel('Mentions et références').waitFor();
      expect(await page.getByLabel('Conditions', { exact: true }).count()).toBe(0);
      await screenshot(page, 'rough-estimate-editor');
    } finally {
      await context.close();
    }
    const estimate = await issued(suite.session, {
      type: 'estimate',
      customer_id: customerId,
      date: parisToday(),
      condition: 'Devis valable 30 jours',
      items: [line('Cuisine', 1, 1000, 20, { discount_type: 'percent', discount_value: 10 })],
    });
    const invoice = await suite.session.rest('POST', `/api/documents/${estimate.id}/convert`, { type: 'invoice' });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    expect(invoice.body.data.condition).toBe('');
    expect(invoice.body.data.terms).toContain(`Référence : Devis n° ${estimate.number}`);

    const edit = await suite.loggedIn();
    try {
      await edit.page.goto(`/invoices/${invoice.body.data.id}/edit`);
      const summary = edit.page.locator('[data-line="0"]');
      await summary.getByText(`remise 10${NARROW_NBSP}%`).waitFor();
      expect(await edit.page.getByLabel('Conditions de paiement').inputValue()).toBe('');
      await screenshot(edit.page, 'rough-invoice-from-estimate');
    } finally {
      await edit.context.close();
    }
  });

  it('receivables: the bar stays under the axis top, not yet due is not red, no DSO on one day of sales; Relances proposes no before-due step on the due day', {
    timeout: 240_000,
  }, async () => {
    const today = parisToday();
    const { customerId } = await readyToInvoice(suite.session);
    // 1 889,17 HT → 2 267,00 TTC, due today: not yet due, and today is its due date.
    const invoice = await issued(suite.session, {
      customer_id: customerId,
      date: today,
      maturity: today,
      items: [line('Rénovation', 1, 1889.17)],
    });
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/reports');
      const card = page.getByTestId('report-creances');
      await card.getByText(/Délai moyen de paiement \(DSO\)\s:\s—/).waitFor({ timeout: 30_000 });
      const chart = card.locator('svg').first();
      const shapes = await chart.evaluate((svg) => {
        const bars = [...svg.querySelectorAll('rect')].map((r) => ({ y: Number(r.getAttribute('y')), fill: getComputedStyle(r).fill }));
        const lines = [...svg.querySelectorAll('line')].map((l) => Number(l.getAttribute('y1')));
        const danger = getComputedStyle(document.documentElement).getPropertyValue('--colors-danger').trim();
        return { bars, top: Math.min(...lines), danger };
      });
      const notDue = defined(shapes.bars[0], 'the « Non échu » bar');
      expect(notDue.y).toBeGreaterThanOrEqual(shapes.top);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'rough-receivables');
      const red = await page.evaluate(() => {
        const probe = document.createElement('div');
        probe.style.color = 'var(--colors-danger)';
        document.body.append(probe);
        const color = getComputedStyle(probe).color;
        probe.remove();
        return color;
      });
      expect(notDue.fill).not.toBe(red);

      await page.goto('/invoices');
      await page.getByRole('link', { name: 'Relances', exact: true }).click();
      const row = page.getByRole('region', { name: 'Relances' }).getByRole('row').filter({ hasText: invoice.number });
      await row.getByText('Échéance aujourd’hui').waitFor();
      expect(await row.getByText(/proposée/).count()).toBe(0);
      await row.getByText(/Prochaine relance le .* \(7 jours après l’échéance\)/).waitFor();
      await screenshot(page, 'rough-reminders');
    } finally {
      await context.close();
    }
  });

  it('a recurring expense is generated now, once for its date, never a second ahead', async () => {
    const start = addDays(parisToday(), -3);
    const made = await suite.session.rest('POST', '/api/recurring-expenses', {
      supplier: 'Assurance Atlas',
      category: 'assurances',
      amount: 120,
      vat: [],
      payment_method: 'transfer',
      frequency: 'monthly',
      start_date: start,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const expensesOf = async () =>
      ((await suite.session.rest('GET', '/api/expenses?per_page=100')).body.data as { supplier: string; date: string }[])
        .filter((e) => e.supplier === 'Assurance Atlas')
        .map((e) => e.date)
        .sort();
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/expenses/recurring');
      const row = page.getByRole('row').filter({ hasText: 'Assurance Atlas' });
      await row.getByRole('button', { name: 'Générer maintenant' }).click();
      await page
        .getByTestId('snackbar')
        .getByText(/^Dépense du .* créée$/)
        .waitFor();
      expect(await expensesOf()).toEqual([start]);
      await row.getByRole('button', { name: 'Générer maintenant' }).click();
      await expect.poll(expensesOf).toHaveLength(2);
      await row.getByRole('button', { name: 'Générer maintenant' }).click();
      await page
        .getByTestId('snackbar')
        .getByText(/est déjà créée/)
        .waitFor();
      expect(await expensesOf()).toHaveLength(2);
      await screenshot(page, 'rough-recurring-expenses');
    } finally {
      await context.close();
    }
  });

  it('an accountant: no « Bien démarrer » to settings it cannot open, no agenda chip to drag; disabled fields look off', async () => {
    const email = 'compta@cabinet-roux.fr';
    expect((await suite.session.rest('POST', '/api/members', { email, role: 'accountant' })).status).toBe(201);
    const outbox = path.join(suite.server.dataDir, 'outbox');
    const mail = defined(
      fs
        .readdirSync(outbox)
        .map((f) =>
          fs
            .readFileSync(path.join(outbox, f), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '='),
        )
        .find((m) => m.includes(email) && m.includes('/invitation?token=')),
      'the invitation mail',
    );
    const token = defined(/\/invitation\?token=([a-z2-7]+)/.exec(mail)?.[1], 'token');
    const accountant = new Session(suite.server.url);
    const accepted = await accountant.rest('POST', '/api/auth/invitation/accept', {
      token,
      first_name: 'Léa',
      last_name: 'Roux',
      password: 'motdepasse-solide',
    });
    expect(accepted.body.role).toBe('accountant');
    const today = parisToday();
    await suite.session.rest('POST', '/api/appointments', { title: 'Bilan annuel', date: today, start: '09:00', end: '10:00' });

    // The owner still has steps to do: the checklist shows for them.
    const owner = await suite.loggedIn();
    try {
      await owner.page.goto('/');
      await owner.page.getByTestId('onboarding-checklist').waitFor();
    } finally {
      await owner.context.close();
    }
    const { context, page } = await suite.loggedInAs(accountant);
    try {
      await page.goto('/');
      await page.getByRole('navigation').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByTestId('onboarding-checklist').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Commencer' }).count()).toBe(0);
      await screenshot(page, 'rough-accountant-home');

      await page.goto('/appointments?view=week');
      const chip = page.locator('[data-appointment]', { hasText: 'Bilan annuel' });
      await chip.waitFor();
      expect(await chip.getAttribute('draggable')).toBe('false');

      // A read-only editor: its disabled selects are sunken and muted, not live-looking.
      const invoices = (await accountant.rest('GET', '/api/documents?type=invoice')).body.data as { id: number }[];
      await page.goto(`/invoices/${defined(invoices[0], 'an invoice').id}/edit`);
      const disabled = page.locator('button[data-disabled], input:disabled, select:disabled').first();
      await disabled.waitFor();
      const look = await disabled.evaluate((el) => ({ style: getComputedStyle(el).borderStyle, opacity: getComputedStyle(el).opacity }));
      expect(look.style).toBe('dashed');
      expect(Number(look.opacity)).toBeLessThan(1);
      await screenshot(page, 'rough-accountant-editor');
    } finally {
      await context.close();
    }
  });

  it('the plan summary says « Documents illimités / mois »', async () => {
    const { context, page } = await suite.loggedIn();
    try {
      const unlimited = defined(
        PLAN_IDS.find((id) => PLANS[id].limits.documents === null),
        'a plan without a documents limit',
      );
      await page.goto(`/buy?plan=${unlimited}`);
      await page.getByText('Documents illimités / mois').waitFor();
      expect(await page.getByText('Illimité documents').count()).toBe(0);
      await screenshot(page, 'rough-buy-summary');
    } finally {
      await context.close();
    }
  });
});
