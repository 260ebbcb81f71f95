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
        .getByText(/Test envoyé : réponse 200 en \d+ ms/)
        .waitFor();
      await section.getByRole('button', { name: 'Journal' }).click();
      const log = page.getByRole('dialog', { name: 'Journal des envois' });
      await log.getByTestId('delivery-row').nth(1).waitFor();
      expect(await log.getByTestId('delivery-row').first().textContent()).toContain('Test (ping)');
      expect(await log.getByTestId('delivery-row').nth(1).textContent()).toContain('Dépense créée');
      await screenshot(page, 'webhooks-log-light');
    } finally {
      await context.close();
    }
  });

  it('says when an endpoint was turned off after repeated failures, in light and dark', { timeout: 90_000 }, async () => {
    const hook = (await suite.session.rest('POST', '/api/webhooks', { url: `${base}/down`, events: ['payment.recorded'] })).body.data;
    for (let i = 0; i < 10; i++) await suite.session.rest('POST', `/api/webhooks/${hook.id}/test`);
    await forEachLook(
      suite,
      async (page, { theme }) => {
        await page.goto('/settings/api');
        const row = page.getByTestId('webhook-row').filter({ hasText: `${base}/down` });
        await row.getByText(/Désactivé automatiquement le .* après 10 échecs consécutifs/).waitFor();
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
