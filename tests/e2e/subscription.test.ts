import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, forEachLook, launchBrowser, newPage, screenshot, WIDE_LOOKS } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, Session } from '../helpers/clients';
import { line } from '../helpers/documents';
import { defined } from '../../src/shared/defined';
import { toStoredUnits } from '../../src/shared/money';

let server: TestServer;
let browser: Browser;
let owner: Session;

beforeAll(async () => {
  // Limits as a deployment has them by default (the test helper lifts them for the other suites).
  server = await startTestServer({ env: { PLAN_LIMITS: 'on' } });
  browser = await launchBrowser();
  owner = new Session(server.url);
  expect((await owner.rest('POST', '/api/auth/register', newUser({ organization: 'Atelier Fontaine' }))).status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  expect(cspViolations).toEqual([]);
});

/** Opens pages logged in as `who` (the owner unless told): as they are, or in a look (forEachLook). */
const pagesOf =
  (who: Session = owner) =>
  async (opts: Parameters<typeof newPage>[2] = {}) => {
    const { context, page } = await newPage(browser, server.url, opts);
    await context.addCookies([{ name: 'session', value: defined(who.cookie?.split('=')[1], 'cookie'), url: server.url }]);
    return { context, page };
  };

describe('Votre abonnement, Paiement, Gérer mon abonnement', () => {
  it('shows the counters near the free limit, compares the plans, applies Solo, and names it in the top bar', {
    timeout: 120_000,
  }, async () => {
    const today = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 17; i += 1) {
      const created = await owner.rest('POST', '/api/documents', { type: 'invoice', date: today, items: [line('Conseil', 1, 100)] });
      expect(created.status).toBe(201);
    }

    await forEachLook(
      pagesOf(),
      async (page, { theme }) => {
        await page.goto('/pricing');
        const banner = page.getByTestId('limit-banner');
        await banner.getByText('Bientôt la limite : 17 sur 20 documents créés ce mois-ci avec la formule Gratuit.').waitFor();
        await banner.getByRole('link', { name: 'Passer à Solo' }).waitFor();
        await page.locator('th[data-plan=free]').getByText('Votre formule').waitFor();
        await page.getByRole('link', { name: "S'abonner Maintenant" }).waitFor();
        await page
          .getByRole('row', { name: /Documents créés par mois/ })
          .getByText('Illimité')
          .waitFor();
        await screenshot(page, `pricing-${theme}`);
        await expectNoSeriousViolations(page, `pricing ${theme}`);
        await page.getByRole('button', { name: 'Annuel · 2 mois offerts' }).click();
        await page.locator('th[data-plan=solo]').getByText('108,00 € TTC / an · 18,00 € d’économie').waitFor();
        await page.getByRole('button', { name: 'Mensuel' }).click();

        await page.getByRole('link', { name: 'Choisir Solo' }).click();
        await page.waitForURL('**/buy?plan=solo&period=month');
        await page.getByText('Total TTC par mois').waitFor();
        await page.getByText('10,80 €', { exact: true }).waitFor();
        await screenshot(page, `buy-${theme}`);
        await expectNoSeriousViolations(page, `buy ${theme}`);
      },
      { looks: WIDE_LOOKS },
    );

    const { context, page } = await pagesOf()();
    try {
      await page.goto('/buy?plan=solo&period=month');
      await page.getByRole('button', { name: 'Activer la formule Solo' }).click();
      await page.getByTestId('snackbar').getByText('Formule Solo activée').waitFor();
      await page.waitForURL('**/settings/subscription');
      await page.getByRole('link', { name: 'Formule Solo' }).waitFor();
      // Far from Solo's limits: no banner any more.
      await page.getByTestId('usage-documents').getByText('17 sur 500 documents créés ce mois-ci').waitFor();
      expect(await page.getByTestId('limit-banner').count()).toBe(0);
    } finally {
      await context.close();
    }

    // A paid invoice as Stripe's webhook would have recorded it, to see the list.
    const org = (await owner.rest('GET', '/api/auth')).body.organization.id as number;
    await server.app.deps.db
      .insertInto('subscription_invoices')
      .values({
        organization_id: org,
        external_id: 'in_e2e',
        number: 'FAC-2026-0042',
        date: today,
        plan: 'solo',
        period: 'month',
        amount_net: toStoredUnits(9),
        amount_vat: toStoredUnits(1.8),
        amount_total: toStoredUnits(10.8),
        currency: 'EUR',
        status: 'paid',
        pdf_url: 'https://pay.stripe.com/invoice/in_e2e/pdf',
        created_at: new Date().toISOString(),
      })
      .execute();

    await forEachLook(
      pagesOf(),
      async (page, { theme }) => {
        await page.goto('/settings/subscription');
        await page.getByText(/Abonnement mensuel\s:\sprochain renouvellement le/).waitFor();
        await page.getByRole('link', { name: 'Télécharger' }).waitFor();
        await screenshot(page, `subscription-settings-${theme}`);
        await expectNoSeriousViolations(page, `subscription settings ${theme}`);
      },
      { looks: WIDE_LOOKS },
    );

    // Cancelling: effective at the period's end, and it can be taken back.
    const { context: c2, page: p2 } = await pagesOf()();
    try {
      await p2.goto('/settings/subscription');
      await p2.getByRole('button', { name: 'Résilier' }).click();
      await p2.getByRole('button', { name: 'Oui' }).click();
      await p2
        .getByTestId('snackbar')
        .getByText(/Abonnement résilié\s:\sla formule Solo reste active jusqu’au/)
        .waitFor();
      await p2.getByText(/Abonnement mensuel résilié\s:\sse termine le/).waitFor();
      await p2.getByRole('button', { name: 'Reprendre l’abonnement' }).waitFor();
      await screenshot(p2, 'subscription-settings-cancelled');
    } finally {
      await c2.close();
    }
  });

  it('explains a smaller plan in waiting (what exceeds it, what it leaves unused) and lets the owner keep the current plan', {
    timeout: 120_000,
  }, async () => {
    const team = new Session(server.url);
    expect((await team.rest('POST', '/api/auth/register', newUser({ organization: 'Studio Garnier' }))).status).toBe(201);
    expect((await team.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' })).status).toBe(200);
    expect((await team.rest('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['document.issued'] })).status).toBe(201);
    for (let i = 0; i < 2; i += 1)
      expect((await team.rest('POST', '/api/members', { email: newUser().email, role: 'member' })).status).toBe(201);
    const down = await team.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' });
    expect(down.body.data).toMatchObject({ plan: 'team', pending_plan: 'solo' });

    await forEachLook(pagesOf(team), async (page, { theme, size, viewport }) => {
      await page.goto('/settings/subscription');
      const pending = page.getByTestId('pending-plan-change');
      await pending.getByText('Passage à la formule Solo en attente').waitFor();
      await pending.getByText(/si votre usage tient alors dans ses limites, sinon dès qu’il y tiendra\.$/).waitFor();
      await pending.getByText(/^La formule Solo permet 2 membres\s;\svous en êtes à 3/).waitFor();
      await pending.getByText(/^1 webhook\s:\shors de la formule Solo, plus aucun événement n’est envoyé/).waitFor();
      await pending.getByRole('button', { name: 'Garder la formule Équipe' }).waitFor();
      await screenshot(page, `subscription-pending-${theme}-${viewport.width}`);
      if (size === 'wide') await expectNoSeriousViolations(page, `pending downgrade ${theme}`);
    });

    const { context, page } = await pagesOf(team)();
    try {
      await page.goto('/settings/subscription');
      await page.getByRole('button', { name: 'Garder la formule Équipe' }).click();
      await page.getByTestId('snackbar').getByText('Changement annulé : vous gardez la formule Équipe').waitFor();
      await page.getByTestId('pending-plan-change').waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});
