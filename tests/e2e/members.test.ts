import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, launchBrowser, newPage, screenshot } from '../helpers/browser';
import { startSmtpServer } from '../helpers/smtp';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, Session } from '../helpers/clients';
import { defined } from '../../src/shared/defined';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TestServer;
let browser: Browser;
let owner: Session;

beforeAll(async () => {
  // The app's own mails (verification, invitations) leave through a real SMTP server on loopback.
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
  browser = await launchBrowser();
  owner = new Session(server.url);
  const answer = await owner.rest('POST', '/api/auth/register', newUser({ organization: 'Atelier Fontaine' }));
  expect(answer.status).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
  expect(cspViolations).toEqual([]);
});

async function ownerPage() {
  const { context, page } = await newPage(browser, server.url);
  await context.addCookies([{ name: 'session', value: defined(owner.cookie?.split('=')[1], 'cookie'), url: server.url }]);
  return { context, page };
}

describe('Mon équipe', () => {
  it('invites a member by e-mail; they register through the link and see the limited menu', { timeout: 60_000 }, async () => {
    const email = 'louise.petit@exemple.fr';
    const { context, page } = await ownerPage();
    try {
      await page.goto('/settings/members');
      await page.getByLabel('Adresse e-mail').fill(email);
      await page.getByLabel('Rôle', { exact: true }).selectOption('member');
      await page.getByRole('button', { name: 'Envoyer l’invitation' }).click();
      await page.getByTestId('snackbar').getByText(`Invitation envoyée à ${email}`).waitFor();
      await page.getByTestId('invitation-row').getByText(email).waitFor();
      await screenshot(page, 'members-invited');
    } finally {
      await context.close();
    }

    const { mail } = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toMatch(/vous invite à rejoindre Atelier Fontaine sur Facturier/);
    const token = defined(/\/invitation\?token=([a-z2-7]+)/.exec(mail.text ?? '')?.[1], 'token in the mail');

    const invitee = await newPage(browser, server.url);
    try {
      const p = invitee.page;
      await p.goto(`/invitation?token=${token}`);
      await p.getByText('Atelier Fontaine').waitFor();
      expect(await p.getByLabel('Adresse e-mail').inputValue()).toBe(email);
      await screenshot(p, 'invitation-register');
      await p.getByLabel('Prénom').fill('Louise');
      await p.getByLabel('Nom', { exact: true }).fill('Petit');
      await p.getByLabel('Mot de passe', { exact: true }).fill('motdepasse-solide');
      await p.getByRole('button', { name: 'Créer mon compte et rejoindre' }).click();
      await p.waitForURL((url) => url.pathname === '/');
      const drawer = p.getByTestId('side-drawer');
      await drawer.getByRole('link', { name: 'Documents' }).waitFor();
      await p.getByText('Bienvenue dans l’espace de Atelier Fontaine').waitFor();
      expect(await drawer.getByRole('link', { name: 'Paramètres' }).count()).toBe(0);
      await screenshot(p, 'member-menu');
      // The same link cannot serve twice.
      await p.goto(`/invitation?token=${token}`);
      await p.getByRole('alert').getByText('Ce lien d’invitation est invalide, a expiré ou a déjà servi').waitFor();
    } finally {
      await invitee.context.close();
    }

    const again = await ownerPage();
    try {
      await again.page.goto('/settings/members');
      await again.page.getByTestId('member-row').getByText('Louise Petit').waitFor();
      expect(await again.page.getByTestId('member-row').count()).toBe(2);
      expect(await again.page.getByTestId('invitation-row').count()).toBe(0);
      await screenshot(again.page, 'members-settings');

      await again.page.goto('/settings/devices');
      await again.page.getByTestId('device-row').getByText('Cet appareil').waitFor();
      // This session was opened by the test's registration over fetch, not by a browser: no browser name to show.
      expect(await again.page.getByTestId('device-row').first().textContent()).toContain('Adresse 127.0.0.1');
      await screenshot(again.page, 'devices-settings');
    } finally {
      await again.context.close();
    }
  });

  it('an accountant sees no « Nouveau » button and no Paramètres entry', { timeout: 60_000 }, async () => {
    const email = 'compta@cabinet-leroy.fr';
    expect((await owner.rest('POST', '/api/members', { email, role: 'accountant' })).status).toBe(201);
    const { mail } = await smtp.waitFor((m) => m.to.includes(email));
    const token = defined(/\/invitation\?token=([a-z2-7]+)/.exec(mail.text ?? '')?.[1], 'token in the mail');
    const accountant = new Session(server.url);
    const accepted = await accountant.rest('POST', '/api/auth/invitation/accept', {
      token,
      first_name: 'Marc',
      last_name: 'Leroy',
      password: 'motdepasse-solide',
    });
    expect(accepted.body.role).toBe('accountant');
    const { context, page } = await newPage(browser, server.url);
    try {
      await context.addCookies([{ name: 'session', value: defined(accountant.cookie?.split('=')[1], 'cookie'), url: server.url }]);
      await page.goto('/customers');
      await page.getByRole('button', { name: 'Exporter' }).waitFor();
      expect(await page.getByRole('button', { name: 'Nouveau client' }).count()).toBe(0);
      await page.goto('/invoices');
      await page.getByRole('heading', { name: 'Factures' }).or(page.getByText('Pas encore de factures')).first().waitFor();
      expect(await page.getByRole('link', { name: 'Nouvelle facture' }).count()).toBe(0);
      expect(await page.getByTestId('side-drawer').getByRole('link', { name: 'Paramètres' }).count()).toBe(0);
      await screenshot(page, 'accountant-invoices');
    } finally {
      await context.close();
    }
  });
});
