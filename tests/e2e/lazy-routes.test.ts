// Each page downloads its own chunk when first shown. A session from the login page to the editor and the
// statistics loads the right chunks at the right time with no console error; an old tab whose chunks are gone after a
// deploy gets a French notice with « Recharger la page » instead of a blank page.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, forEachLook, newPage, screenshot, WIDE_LOOKS } from '../helpers/browser';
import { registered } from '../helpers/clients';
import { chunkOf } from '../helpers/built-chunks';

const suite = browserSuite();

const CHUNKS = {
  shell: 'src/client/layouts/main-layout.tsx',
  home: 'src/client/routes/home-page.tsx',
  list: 'src/client/routes/documents/documents-page.tsx',
  editor: 'src/client/routes/documents/editor/document-editor-page.tsx',
  customerForm: 'src/client/routes/customers/customer-form-dialog.tsx',
  reports: 'src/client/routes/reports/reports-page.tsx',
  designer: 'src/client/routes/settings/document-settings/document-settings-page.tsx',
  agenda: 'src/client/routes/appointments/appointments-page.tsx',
};

/**
 * Every script the page asked for, and every error it logged or threw. Requests rather than responses: a page drawn
 * from a chunk has asked for it first, whereas Playwright may report the response only after the page is drawn (a
 * loaded CI machine once saw the documents' heading before the list chunk's response event).
 */
function watch(page: Page) {
  const scripts: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) scripts.push(url.pathname);
  });
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  const loaded = (key: keyof typeof CHUNKS) => scripts.includes(chunkOf(CHUNKS[key]));
  return { scripts, errors, loaded };
}

describe('pages in their own chunks', () => {
  it('login → dashboard → documents → editor → statistics: each chunk when its page comes, no console error', async () => {
    const { user } = await registered(suite.server.url);
    const { page, context } = await newPage(suite.browser, suite.server.url);
    const seen = watch(page);

    await page.goto('/auth/login');
    await page.getByRole('button', { name: 'Se connecter' }).waitFor();
    await page.waitForLoadState('networkidle');
    // The login page draws without the shell, the editor, the designer, the charts or the agenda.
    for (const key of Object.keys(CHUNKS) as (keyof typeof CHUNKS)[]) expect(seen.loaded(key), key).toBe(false);

    await page.getByLabel('Adresse e-mail').fill(user.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('heading', { level: 1, name: "Vue d'ensemble" }).waitFor();
    expect(seen.loaded('shell')).toBe(true);
    expect(seen.loaded('home')).toBe(true);
    expect(seen.loaded('reports')).toBe(false);

    await page.getByTestId('side-drawer').getByRole('link', { name: 'Documents' }).click();
    await page.getByRole('heading', { level: 1, name: 'Factures' }).waitFor();
    expect(seen.loaded('list')).toBe(true);

    await page.getByRole('link', { name: 'Nouvelle facture' }).first().click();
    await page.waitForURL('**/invoices/new/add');
    await page.getByRole('heading', { level: 1, name: 'Nouvelle facture' }).waitFor();
    await page.getByRole('combobox', { name: 'Client' }).waitFor();
    expect(seen.loaded('editor')).toBe(true);

    await page.getByTestId('side-drawer').getByRole('link', { name: 'Statistiques' }).click();
    await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
    await page.getByText('Aucune facture émise sur cette période').waitFor();
    expect(seen.loaded('reports')).toBe(true);
    // Pages not visited stay on the server.
    expect(seen.loaded('designer')).toBe(false);
    expect(seen.loaded('agenda')).toBe(false);
    // The editor's new-customer form is fetched only when asked for, and saves the customer.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Nouvelle facture' }).waitFor();
    expect(seen.loaded('customerForm')).toBe(false);
    await page.getByRole('button', { name: 'Nouveau client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
    await dialog.getByLabel('Nom', { exact: true }).fill('Ébénisterie Roux');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(seen.loaded('customerForm')).toBe(true);
    // The customer just created is the document's, by name, though the search results did not hold it yet.
    expect(await page.getByRole('combobox', { name: 'Client' }).inputValue()).toMatch(/^Ébénisterie Roux — /);

    expect(seen.errors).toEqual([]);
    await context.close();
  });

  it('a chunk gone since the tab opened: a French notice and « Recharger la page », which brings the page back', async () => {
    await forEachLook(
      suite,
      async (page, { theme }) => {
        await page.goto('/');
        await page.getByRole('heading', { level: 1, name: "Vue d'ensemble" }).waitFor();
        // What an old tab meets after a deploy: the statistics' chunk is no longer on the server.
        const reports = chunkOf(CHUNKS.reports);
        await page.route(`**${reports}`, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Fichier introuvable' }));
        await page.getByTestId('side-drawer').getByRole('link', { name: 'Statistiques' }).click();
        const notice = page.getByRole('alert').filter({ hasText: 'Cette page n’a pas pu être chargée' });
        await notice.waitFor();
        expect(await notice.textContent()).toContain('Une nouvelle version de Facturier a peut-être été installée');
        // The shell stays: the menu and the title are still there around the notice.
        await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
        await screenshot(page, `lazy-chunk-error-${theme}`);

        await page.unroute(`**${reports}`);
        await notice.getByRole('button', { name: 'Recharger la page' }).click();
        await page.getByText('Aucune facture émise sur cette période').waitFor();
        expect(await page.getByRole('alert').filter({ hasText: 'Cette page n’a pas pu être chargée' }).count()).toBe(0);
      },
      { looks: WIDE_LOOKS },
    );
  });

  it('the login page’s theme tooltip, drawn without Ark: shown on hover and on keyboard focus, light and dark', async () => {
    await forEachLook(
      (opts) => newPage(suite.browser, suite.server.url, opts),
      async (page, { theme }) => {
        // While the form's chunk is on its way the card holds a spinner about the form's size: no jump when it lands.
        const login = chunkOf('src/client/routes/auth/login-page.tsx');
        let release = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        await page.route(`**${login}`, async (route) => {
          await held;
          await route.continue();
        });
        await page.goto('/auth/login');
        const card = page.locator('section[aria-labelledby="auth-title"]');
        await card.getByRole('status', { name: 'Chargement de la page' }).waitFor();
        const waiting = await card.boundingBox();
        await screenshot(page, `lazy-login-loading-${theme}`);
        release();
        await page.getByRole('button', { name: 'Se connecter' }).waitFor();
        const drawn = await card.boundingBox();
        expect(Math.abs((drawn?.height ?? 0) - (waiting?.height ?? 0))).toBeLessThan(40);
        const next = theme === 'dark' ? 'Claire' : 'Sombre';
        const toggle = page.getByRole('button', { name: `Thème : passer en ${next.toLowerCase()}` });
        const tip = page.getByRole('tooltip', { name: next });
        expect(await tip.isVisible()).toBe(false);
        await toggle.hover();
        await tip.waitFor({ state: 'visible' });
        expect(await toggle.getAttribute('aria-describedby')).toBe(await tip.getAttribute('id'));
        await screenshot(page, `lazy-login-tooltip-${theme}`);
        await page.mouse.move(600, 600);
        await tip.waitFor({ state: 'hidden' });
        // Keyboard focus (:focus-visible) shows it too: step off the toggle and back with the keyboard.
        await toggle.focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab');
        await tip.waitFor({ state: 'visible' });
        if (theme === 'light') {
          // « Aider » downloads the help dialog on first use; it opens at once and closes as before, twice.
          for (let round = 0; round < 2; round++) {
            await page.getByRole('button', { name: 'Aider' }).click();
            const dialog = page.getByRole('dialog', { name: 'Aide' });
            await dialog.waitFor();
            await dialog.getByRole('button', { name: 'Compris' }).click();
            await dialog.waitFor({ state: 'hidden' });
          }
        }
      },
      { looks: WIDE_LOOKS },
    );
  });
});
