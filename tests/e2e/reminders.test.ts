import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { startSmtpServer } from '../helpers/smtp';
import { copyDocument } from '../helpers/database';
import { registered } from '../helpers/clients';
import { defaultEmailSettings } from '../../src/shared/schemas/email-settings';
import { withFrenchSpaces } from '../../src/shared/typography';

const suite = browserSuite();
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

/** A date `days` from today in Paris (the server's calendar), as YYYY-MM-DD. */
const dayFromToday = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(Date.now() + days * 86_400_000));

describe('payment reminders in the browser', () => {
  it('Paramètres → Relances edits the steps (a bad delay refused in French), then Factures → Relances sends in one click', {
    timeout: 120_000,
  }, async () => {
    await readyToInvoice(suite.session);
    expect(
      (await suite.session.rest('PUT', '/api/settings/email', { ...defaultEmailSettings(), smtp_url: `smtp://127.0.0.1:${smtp.port}` }))
        .status,
    ).toBe(200);
    const customer = await suite.session.rest('POST', '/api/customers', {
      name: 'Boulangerie Martin',
      business_id: '732 829 320',
      email: 'compta@boulangerie-martin.fr',
      address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
    });
    const customerId = customer.body.data.id;
    // Ten days late (the 7-day step is due), and due in three days (the reminder before the due date).
    const late = await issued(suite.session, {
      customer_id: customerId,
      date: dayFromToday(-40),
      maturity: dayFromToday(-10),
      items: [line('Conseil', 2, 450)],
    });
    const soon = await issued(suite.session, {
      customer_id: customerId,
      date: dayFromToday(-27),
      maturity: dayFromToday(3),
      items: [line('Audit', 1, 300)],
    });

    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/settings/reminders');
      await page.getByRole('heading', { level: 1, name: 'Relances' }).waitFor();
      const steps = page.getByRole('group', { name: /^Relance \d$/ });
      await expect.poll(() => steps.count()).toBe(4);
      await page.getByRole('button', { name: 'Ajouter une relance' }).click();
      const added = page.getByRole('group', { name: 'Relance 5' });
      await added.getByLabel('Jours').fill('400');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByText('Délai de la relance : 365 jours après l’échéance au plus').first().waitFor();
      await screenshot(page, 'reminders-settings-error');
      await added.getByLabel('Jours').fill('45');
      await chooseOption(added, 'Envoi', 'Envoi automatique');
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByTestId('snackbar').getByText('Mise à jour avec succès').waitFor();
      const saved = await suite.session.rest('GET', '/api/settings/reminders');
      expect(saved.body.steps.map((s: { offset_days: number; mode: string }) => `${s.offset_days}:${s.mode}`)).toEqual([
        '-3:proposed',
        '7:proposed',
        '15:proposed',
        '30:proposed',
        '45:automatic',
      ]);
      await page.getByRole('group', { name: 'Relance 1' }).scrollIntoViewIfNeeded();
      await screenshot(page, 'reminders-settings');

      await page.goto('/invoices');
      await page.getByRole('link', { name: 'Relances', exact: true }).click();
      const panel = page.getByRole('region', { name: 'Relances' });
      const lateRow = panel.getByRole('row').filter({ hasText: late.number });
      await lateRow.getByText('10 jours de retard').waitFor();
      await panel.getByRole('row').filter({ hasText: soon.number }).getByText('Échéance dans 3 jours').waitFor();
      await screenshot(page, 'reminders-list');

      await lateRow.getByRole('button', { name: 'Envoyer la relance' }).click();
      await page
        .getByTestId('snackbar')
        .getByText(`Relance de la facture ${late.number} envoyée à compta@boulangerie-martin.fr`)
        .waitFor({ timeout: 30_000 });
      await lateRow.getByText('Rien à envoyer').waitFor();
      await panel.getByRole('button', { name: 'Envoyer la relance proposée' }).click();
      await page.getByTestId('snackbar').getByText('1 relance envoyée sur 1').waitFor({ timeout: 30_000 });
      const first = await smtp.waitFor(
        (m) => m.mail.subject === withFrenchSpaces(`Rappel : facture ${late.number} en attente de règlement`),
      );
      expect(first.mail.attachments[0]?.filename).toBe(`Facture-${late.number}.pdf`);
      expect(first.mail.attachments[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
      await smtp.waitFor(
        (m) => m.mail.subject === withFrenchSpaces(`Facture ${soon.number} : échéance le ${soon.maturity.split('-').reverse().join('/')}`),
      );
      await expect.poll(() => panel.getByRole('button', { name: 'Envoyer la relance' }).count()).toBe(0);
      await screenshot(page, 'reminders-list-sent');

      await page.goto(`/invoices/${late.id}/view`);
      const card = page.getByTestId('reminders-card');
      await card.getByText(/7 jours après l’échéance — Envoyée le/).waitFor();
      await screenshot(page, 'reminders-invoice-card');

      // The scheduler is off under NODE_ENV=test: one run, as the server does at its start.
      await suite.server.app.scheduler.runDue();
      await page.goto('/settings/jobs');
      await page.getByRole('heading', { level: 1, name: 'Tâches planifiées' }).waitFor();
      for (const label of ['Dépenses répétitives', 'Relances de paiement', 'Statuts des factures électroniques'])
        await page
          .getByRole('row')
          .filter({ hasText: label })
          .getByText(/^Réussie/)
          .waitFor();
      await screenshot(page, 'scheduled-jobs');
    } finally {
      await context.close();
    }
  });

  it('pages a long list: its head counts every invoice, the bulk send offers them all, the next page shows the rest', async () => {
    const { session } = await registered(suite.server.url);
    await readyToInvoice(session);
    const customer = await session.rest('POST', '/api/customers', {
      name: 'Quincaillerie Roux',
      business_id: '732 829 320',
      email: 'compta@roux.fr',
      address: { line1: '8 rue Neuve', postal_code: '69002', city: 'Lyon' },
    });
    const late = await issued(session, {
      customer_id: customer.body.data.id,
      date: dayFromToday(-40),
      maturity: dayFromToday(-10),
      items: [line('Conseil', 1, 100)],
    });
    await copyDocument(suite.server, late.id, 29);
    const { context, page } = await suite.loggedInAs(session);
    try {
      await page.goto('/invoices');
      await page.getByRole('link', { name: 'Relances', exact: true }).click();
      const panel = page.getByRole('region', { name: 'Relances' });
      await panel.getByText('30 factures en retard, 30 relances à envoyer aujourd’hui').waitFor();
      await panel.getByRole('button', { name: 'Envoyer les 30 relances proposées' }).waitFor();
      const rows = panel.locator('tbody tr');
      expect(await rows.count()).toBe(25);
      await panel.getByText('1–25 sur 30').waitFor();
      await panel.getByRole('button', { name: 'Page suivante' }).click();
      await panel.getByText('26–30 sur 30').waitFor();
      await expect.poll(() => rows.count()).toBe(5);
      await panel
        .getByRole('row')
        .filter({ hasText: `${late.number}-29` })
        .waitFor();
      await screenshot(page, 'reminders-list-page-2');
    } finally {
      await context.close();
    }
  });
});
