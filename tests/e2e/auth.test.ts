import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { dialogLayerReady, launchBrowser, newPage, screenshot } from '../helpers/browser';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const camille = {
  first: 'Camille',
  last: 'Durand',
  organization: 'Durand Conseil SARL',
  email: 'camille.durand@exemple.fr',
  password: 'motdepasse-solide',
};

async function register(page: import('playwright-core').Page, who = camille) {
  await page.goto('/auth/register');
  await page.getByLabel('Prénom').fill(who.first);
  await page.getByLabel('Nom', { exact: true }).fill(who.last);
  await page.getByLabel('Entreprise').fill(who.organization);
  await page.getByLabel('Adresse e-mail').fill(who.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
}

describe('authentication in a real browser', () => {
  it('the guard sends a logged-out visitor to /auth/login', async () => {
    const { page, context } = await newPage(browser, server.url);
    await page.goto('/');
    await page.waitForURL('**/auth/login');
    await expect(page.title()).resolves.toBe('Se connecter · Facturier');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Se connecter');
    expect(await page.locator('header').textContent()).toContain('Auth');
    await screenshot(page, 'e2e-login');
    await context.close();
  });

  it('checks the form with the shared schema before sending', async () => {
    const { page, context } = await newPage(browser, server.url);
    await register(page, { ...camille, email: 'pas-une-adresse', password: 'court' });
    await page.getByText('Adresse e-mail invalide').waitFor();
    await page.getByText('Le mot de passe doit contenir au moins 8 caractères').waitFor();
    expect(page.url()).toContain('/auth/register');
    await context.close();
  });

  it('register → logged in on Vue d’ensemble; logout asks first, then returns to /auth/login; login again', async () => {
    const { page, context } = await newPage(browser, server.url);
    await register(page);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: "Vue d'ensemble" }).waitFor();
    await page.getByRole('button', { name: 'Déplier le menu' }).click(); // wide screens start with the rail (SPEC §3)
    await page.getByText('Durand Camille').waitFor();
    await page.getByText(camille.email).waitFor();
    await screenshot(page, 'e2e-home');

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Êtes-vous sûr(e) de vouloir vous déconnecter ?').waitFor();
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${server.url}/`);

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('alertdialog').waitFor();
    await dialogLayerReady(page);
    await page.keyboard.press('Escape'); // Escape means cancel
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${server.url}/`);

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Oui' }).click();
    await page.waitForURL('**/auth/login');
    await page.goto('/');
    await page.waitForURL('**/auth/login'); // the session is gone server-side too

    await page.getByLabel('Adresse e-mail').fill(camille.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(camille.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByText('Bonjour Camille').waitFor();
    await context.close();
  });

  it('a wrong password shows the server’s French message and stays on the login page', async () => {
    const { page, context } = await newPage(browser, server.url);
    await page.goto('/auth/login');
    await page.getByLabel('Adresse e-mail').fill(camille.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill('pas-le-bon-mot-de-passe');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    const snackbar = page.getByTestId('snackbar');
    await snackbar.getByText('Adresse e-mail ou mot de passe incorrect').waitFor();
    expect(await snackbar.getAttribute('data-tone')).toBe('warning'); // SPEC §8: 401 is a warning
    expect(page.url()).toContain('/auth/login');
    await context.close();
  });

  it('a settings failure after login goes to /404 with SPEC’s message', async () => {
    const { page, context } = await newPage(browser, server.url);
    await page.goto('/auth/login');
    await page.getByLabel('Adresse e-mail').fill(camille.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill(camille.password);
    await page.route('**/api/trpc/settings.get**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL('**/404?**');
    await page.getByTestId('error-message').getByText("Une erreur s'est produite lors du chargement des paramètres").waitFor();
    await context.close();
  });

  it('an unknown route shows /404', async () => {
    const { page, context } = await newPage(browser, server.url);
    await page.goto('/nulle-part');
    await page.waitForURL('**/404');
    await page.getByText('Page introuvable').waitFor();
    await context.close();
  });

  it('forgot password → mailed link → new password → logged in', async () => {
    const { page, context } = await newPage(browser, server.url);
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await page.waitForURL('**/auth/password/forgot');
    await page.getByLabel('Adresse e-mail').fill(camille.email);
    await page.getByRole('button', { name: 'Envoyer le lien' }).click();
    await page.getByText(/un e-mail avec un lien de réinitialisation/).waitFor();

    const outbox = path.join(server.dataDir, 'outbox');
    const mail = defined(
      fs
        .readdirSync(outbox)
        .map((f) =>
          fs
            .readFileSync(path.join(outbox, f), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '='),
        )
        .find((m) => m.includes(`To: ${camille.email}`) && m.includes('/auth/password/reset')),
    );
    const link = defined(/http:\/\/\S+\/auth\/password\/reset\?token=[a-z2-7]+/.exec(mail))[0];
    await page.goto(new URL(link).pathname + new URL(link).search);
    await page.getByRole('heading', { name: 'Créer un nouveau mot de passe' }).waitFor();
    await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('un-nouveau-secret');
    await page.getByLabel('Confirmer le mot de passe', { exact: true }).fill('un-autre-secret');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await page.getByText('Les deux mots de passe ne correspondent pas').waitFor();
    await page.getByLabel('Confirmer le mot de passe', { exact: true }).fill('un-nouveau-secret');
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByText('Votre mot de passe a été modifié').waitFor();
    camille.password = 'un-nouveau-secret';
    await context.close();
  });

  it('the verification link activates the account', async () => {
    const { page, context } = await newPage(browser, server.url);
    const outbox = path.join(server.dataDir, 'outbox');
    const mail = defined(
      fs
        .readdirSync(outbox)
        .map((f) =>
          fs
            .readFileSync(path.join(outbox, f), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '='),
        )
        .find((m) => m.includes(`To: ${camille.email}`) && m.includes('/auth/verify_email')),
    );
    const token = defined(/verify_email\?token=([a-z2-7]+)/.exec(mail))[1];
    await page.goto(`/auth/verify_email?token=${token}`);
    await page.getByRole('heading', { name: 'Activation votre compte' }).waitFor();
    await page.getByText('Votre compte est activé').waitFor();
    await page.goto(`/auth/verify_email?token=${token}`);
    await page.getByText('Ce lien d’activation est invalide ou a expiré.').waitFor();
    await context.close();
  });
});
