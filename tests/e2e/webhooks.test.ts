import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, dialogLayerReady, forEachLook, screenshot, WIDE_LOOKS } from '../helpers/browser';

const suite = browserSuite();

// A real receiver on loopback: /hook answers 200, /down always 500.
const received: { path: string; body: string }[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    received.push({ path: req.url ?? '', body });
    res.writeHead(req.url === '/down' ? 500 : 200, { 'content-type': 'application/json' });
    res.end(req.url === '/down' ? '{"error":"maintenance"}' : '{"received":true}');
  });
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe('Paramètres → API, Webhooks', () => {
  it('adds a webhook, shows its secret once, tests it and shows the delivery log', { timeout: 90_000 }, async () => {
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/settings/api');
      await page.getByText(/\d+ chemins · version/).waitFor({ timeout: 60_000 });
      const section = page.getByRole('region', { name: 'Webhooks' });
      await section.getByRole('button', { name: 'Ajouter le webhook' }).click();
      await section.getByRole('alert').getByText('L’adresse est obligatoire').waitFor();

      await section.getByLabel('URL').fill(`${base}/hook`);
      await section
        .getByLabel(/Dépense créée/)
        .locator('xpath=..')
        .click(); // a kit checkbox: its hidden input is toggled through its label
      await section
        .getByLabel(/Document émis/)
        .locator('xpath=..')
        .click(); // a kit checkbox: its hidden input is toggled through its label
      await section.getByRole('button', { name: 'Ajouter le webhook' }).click();
      const secret = await page.getByTestId('webhook-secret').textContent();
      expect(secret).toMatch(/^whsec_/);
      await screenshot(page, 'webhooks-secret-light');
      await page.getByRole('button', { name: 'J’ai noté le secret' }).click();
      await section.getByTestId('webhook-row').getByText(`${base}/hook`).waitFor();

      await suite.session.rest('POST', '/api/expenses', {
        date: '2026-11-02',
        supplier: 'Bureau Vallée',
        category: 'fournitures',
        label: 'Ramettes',
        amount: 36,
        vat: [{ rate: 20, amount: 6 }],
        status: 'paid',
      });
      await expect.poll(() => received.filter((r) => r.path === '/hook').length).toBe(1);
      await section.getByRole('button', { name: 'Tester' }).click();
      await page
        .getByTestId('snackbar')
        .getByText(/Test envoyé\s:\sréponse 200 en \d+ ms/)
        .waitFor();
      await section.getByRole('button', { name: 'Journal' }).click();
      const log = page.getByRole('dialog', { name: 'Journal des envois' });
      await log.getByTestId('delivery-row').nth(1).waitFor();
      expect(await log.getByTestId('delivery-row').first().textContent()).toContain('Test (ping)');
      const expenseRow = log.getByTestId('delivery-row').nth(1);
      expect(await expenseRow.textContent()).toContain('Dépense créée');
      expect(await expenseRow.textContent()).toContain('n° 1');
      await screenshot(page, 'webhooks-log-light');
    } finally {
      await context.close();
    }
  });

  it('« Renvoyer » a delivery and replays a period from the log', { timeout: 90_000 }, async () => {
    const hook = (await suite.session.rest('POST', '/api/webhooks', { url: `${base}/again`, events: ['expense.created'] })).body.data;
    await suite.session.rest('POST', '/api/expenses', {
      date: '2026-11-03',
      supplier: 'Bureau Vallée',
      category: 'fournitures',
      label: 'Agrafes',
      amount: 12,
      vat: [{ rate: 20, amount: 2 }],
      status: 'paid',
    });
    await expect.poll(() => received.filter((r) => r.path === '/again').length).toBe(1);
    await suite.session.rest('POST', `/api/webhooks/${hook.id}/test`);
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/settings/api');
      // The API reference below renders every path once loaded: clicks wait until the page is done with it.
      await page.getByText(/\d+ chemins · version/).waitFor({ timeout: 60_000 });
      const row = page.getByTestId('webhook-row').filter({ hasText: `${base}/again` });
      await row.getByRole('button', { name: 'Journal' }).click();
      const log = page.getByRole('dialog', { name: 'Journal des envois' });
      await log.getByTestId('delivery-row').nth(1).waitFor();
      const expenseRow = log.getByTestId('delivery-row').nth(1);
      expect(await expenseRow.textContent()).toContain('n° 1');

      // « Renvoyer »: the same event again, under a new delivery id; the ping has no such button.
      expect(await log.getByTestId('delivery-row').first().getByRole('button', { name: 'Renvoyer' }).count()).toBe(0);
      await expenseRow.getByRole('button', { name: 'Renvoyer' }).click();
      await page
        .getByTestId('snackbar')
        .getByText(/Renvoyé\s:\sréponse 200 en \d+ ms/)
        .waitFor();
      await expect.poll(() => received.filter((r) => r.path === '/again').length).toBe(3);
      const [first, again] = received.filter((r) => r.path === '/again' && r.body.includes('expense.created'));
      expect(JSON.parse(again?.body ?? '{}')).toMatchObject({ id: JSON.parse(first?.body ?? '{}').id, sequence: 1 });

      // The replay of a period: the form's default range (the last week) holds the expense's event.
      await log.getByRole('button', { name: 'Renvoyer la période' }).click();
      await page.getByTestId('snackbar').getByText('1 événement renvoyé').waitFor();
      await expect.poll(() => received.filter((r) => r.path === '/again').length).toBe(4);
      await log.getByLabel('Du').fill('2026-12-31');
      await log.getByLabel('Au (inclus)').fill('2026-01-01');
      await log.getByRole('button', { name: 'Renvoyer la période' }).click();
      await log
        .getByRole('alert')
        .getByText(/La fin de la période doit suivre son début/)
        .waitFor();
      await screenshot(page, 'webhooks-log-replay-light');
    } finally {
      await context.close();
    }
  });

  it('says when an endpoint fails, and when it was turned off after three days of failures, in light and dark', {
    timeout: 90_000,
  }, async () => {
    const hook = (await suite.session.rest('POST', '/api/webhooks', { url: `${base}/down`, events: ['payment.recorded'] })).body.data;
    await suite.session.rest('POST', `/api/webhooks/${hook.id}/test`);
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto('/settings/api');
      const failing = page.getByTestId('webhook-row').filter({ hasText: `${base}/down` });
      await failing.getByText(/En échec depuis le .* le webhook sera désactivé et les propriétaires prévenus par e-mail/).waitFor();
      await screenshot(page, 'webhooks-failing-light');
    } finally {
      await context.close();
    }
    // Three days of failures, as the scheduler would have seen them: the next failed attempt turns it off.
    const fourDaysAgo = new Date(Date.now() - 4 * 86_400_000).toISOString();
    await suite.server.app.connection.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: fourDaysAgo })
      .where('id', '=', hook.id)
      .execute();
    await suite.session.rest('POST', `/api/webhooks/${hook.id}/test`);
    await forEachLook(
      suite,
      async (page, { theme }) => {
        await page.goto('/settings/api');
        const row = page.getByTestId('webhook-row').filter({ hasText: `${base}/down` });
        await row.getByText(/Désactivé automatiquement le .* tous les envois ont échoué pendant 3 jours/).waitFor();
        await row.getByRole('button', { name: 'Réactiver' }).waitFor();
        await screenshot(page, `webhooks-${theme}`);
        if (theme === 'dark') {
          await row.getByRole('button', { name: 'Journal' }).click();
          await page.getByRole('dialog', { name: 'Journal des envois' }).getByText('{"error":"maintenance"}').first().waitFor();
          await screenshot(page, 'webhooks-log-dark');
          await dialogLayerReady(page);
          await page.keyboard.press('Escape');
          await row.getByRole('button', { name: 'Supprimer' }).click();
          await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click();
          await page.getByTestId('snackbar').getByText('Webhook supprimé').waitFor();
          await row.waitFor({ state: 'detached' });
        }
      },
      { looks: WIDE_LOOKS },
    );
  });
});
