import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserSuite, forEachLook, LOOKS, newPage, screenshot } from '../helpers/browser';
import { registered } from '../helpers/clients';
import { defined } from '../../src/shared/defined';

const suite = browserSuite();

/** What the screen shows without scrolling: the full page is long once the reference is open. */
async function viewport(page: Page, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

async function withKey(secret: string, path: string) {
  return fetch(`${suite.server.url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
}

describe('Paramètres → API', () => {
  it('creates a key shown once with a curl example, lists it by its prefix, and revokes it', { timeout: 90_000 }, async () => {
    const { context, page } = await suite.loggedIn();
    const chunks: string[] = [];
    page.on('request', (request) => chunks.push(new URL(request.url()).pathname));
    try {
      await page.goto('/');
      await page.getByTestId('side-drawer').waitFor();
      const isReferenceChunk = (p: string) => /\/assets\/api-reference-[\w-]+\.js$/.test(p);
      // The reference comes in its own chunk: the home page never fetches it, this page does.
      expect(chunks.filter(isReferenceChunk)).toEqual([]);
      await page.goto('/settings/api');
      await page.getByRole('region', { name: 'Clés d’API' }).getByText('Aucune clé d’API pour l’instant.').waitFor();
      await page.getByRole('region', { name: 'Référence de l’API' }).getByTestId('api-group').first().waitFor();

      // The empty name is refused before anything is sent.
      await page.getByRole('button', { name: 'Créer la clé' }).click();
      await page.getByText('Donnez un nom à la clé').waitFor();

      await page.getByLabel('Nom de la clé').fill('Synchronisation comptable');
      await page.getByText('Lecture et écriture', { exact: true }).click();
      await page.getByRole('button', { name: 'Créer la clé' }).click();
      const secret = defined(await page.getByTestId('api-key-secret').textContent(), 'secret').trim();
      expect(secret).toMatch(/^fk_live_[a-z2-7]{52}$/);
      const curl = defined(await page.getByTestId('curl-example').first().textContent(), 'curl');
      expect(curl).toContain(`curl ${suite.server.url}/api/customers`);
      expect(curl).toContain(`Authorization: Bearer ${secret}`);
      expect(curl).toContain('-X POST');
      const row = page.getByTestId('api-key-row');
      await row.getByText('Synchronisation comptable').waitFor();
      expect(await row.textContent()).toContain(`${secret.slice(0, 12)}…`);
      expect(await row.textContent()).toContain('Dernière utilisation\u00a0: jamais');
      await screenshot(page, 'api-keys-created');
      await viewport(page, 'api-keys-created-top');

      // The key works from outside the browser, as the curl example says.
      expect((await withKey(secret, '/api/customers')).status).toBe(200);

      await page.getByRole('button', { name: 'J’ai copié la clé' }).click();
      await page.reload();
      await row.getByText('Synchronisation comptable').waitFor();
      await row.getByText(/Dernière utilisation\s:\s\d/).waitFor();
      expect(await page.content()).not.toContain(secret);

      // The reference filters its paths, and shows the fields of one.
      await page.getByLabel('Filtrer les chemins').fill('api-keys');
      const operations = page.getByTestId('api-operation');
      await operations.filter({ hasText: 'DELETE' }).waitFor();
      expect(await operations.count()).toBe(3);
      await operations.filter({ hasText: 'POST' }).locator('summary').click();
      await operations.filter({ hasText: 'POST' }).getByText("'read' | 'write'").waitFor();
      await screenshot(page, 'api-reference');

      await row.getByRole('button', { name: 'Révoquer' }).click();
      await page.getByRole('alertdialog').getByText('Révoquer la clé « Synchronisation comptable » ?').waitFor();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Révoquer' }).click();
      await page.getByTestId('snackbar').getByText('Clé d’API révoquée').waitFor();
      await page.getByText('Aucune clé d’API pour l’instant.').waitFor();
      const refused = await withKey(secret, '/api/customers');
      expect(refused.status).toBe(401);
      expect((await refused.json()).messages).toBe('Cette clé d’API a été révoquée : créez-en une nouvelle dans Paramètres → API');

      expect(chunks.filter(isReferenceChunk).length).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it('reads well in dark mode, on a phone too', { timeout: 60_000 }, async () => {
    await suite.session.rest('POST', '/api/api-keys', { name: 'Export mensuel', scope: 'read' });
    await forEachLook(
      suite,
      async (page, { size }) => {
        const name = size === 'wide' ? 'api-settings-dark' : 'api-settings-dark-phone';
        await page.goto('/settings/api');
        await page.getByTestId('api-key-row').getByText('Export mensuel').waitFor();
        await page.getByLabel('Nom de la clé').fill('Tableau de bord');
        await page.getByRole('button', { name: 'Créer la clé' }).click();
        await page.getByTestId('api-key-secret').waitFor();
        await page.getByLabel('Filtrer les chemins').fill('customers');
        await page.getByTestId('api-operation').first().locator('summary').click();
        await screenshot(page, name);
        await viewport(page, `${name}-top`);
      },
      { looks: LOOKS.filter((l) => l.theme === 'dark') },
    );
  });

  it('tells a member, who may not manage keys, that the page is not theirs', { timeout: 60_000 }, async () => {
    const member = await registered(suite.server.url);
    await sql`update memberships set role = 'member' where user_id = ${member.profile.id}`.execute(suite.server.app.deps.db);
    const { context, page } = await newPage(suite.browser, suite.server.url);
    try {
      await context.addCookies([
        { name: 'session', value: defined(member.session.cookie?.split('=')[1], 'cookie'), url: suite.server.url },
      ]);
      await page.goto('/settings/api');
      // The settings pages a role may not use say so, rather than a form whose every action answers 403.
      await page.getByTestId('no-access').getByText('Vous n’avez pas accès à cette page').waitFor();
      expect(await page.getByRole('button', { name: 'Créer la clé' }).count()).toBe(0);
      await screenshot(page, 'api-settings-member');
    } finally {
      await context.close();
    }
  });
});
