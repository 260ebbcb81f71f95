import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, cspViolations, forEachLook, launchBrowser, newPage, screenshot, WIDE_LOOKS } from '../helpers/browser';
import { startSmtpServer } from '../helpers/smtp';
import { startTestServer, type TestServer } from '../helpers/server';
import { newUser, Session } from '../helpers/clients';
import { defined } from '../../src/shared/defined';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import type { Page } from 'playwright-core';

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

/** Opens browser pages logged in with a session's cookie (forEachLook gives them a theme and a size). */
const pagesOf = (session: Session) => async (opts: Parameters<typeof newPage>[2]) => {
  const opened = await newPage(browser, server.url, opts);
  await opened.context.addCookies([{ name: 'session', value: defined(session.cookie?.split('=')[1], 'cookie'), url: server.url }]);
  return opened;
};

/** The titles of the settings pages offered beside the current one. */
/** The settings menu's entries, once its page (a lazy chunk) has drawn it. */
async function settingsNav(page: Page): Promise<string[]> {
  const links = page.getByRole('navigation', { name: 'Paramètres' }).getByRole('link');
  await links.first().waitFor();
  return links.allTextContents();
}

const NO_ACCESS = 'Vous n’avez pas accès à cette page';

describe('Mon équipe', () => {
  it('invites a member by e-mail; they register through the link and see the limited menu', { timeout: 60_000 }, async () => {
    const email = 'louise.petit@exemple.fr';
    const { context, page } = await ownerPage();
    try {
      await page.goto('/settings/members');
      await page.getByLabel('Adresse e-mail').fill(email);
      await chooseOption(page, 'Rôle', 'Membre — documents, clients, articles, dépenses');
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
      await p.getByText('Bienvenue dans l’espace d’Atelier Fontaine').waitFor();
      await screenshot(p, 'member-menu');
      // The member's settings: the pages they may use, never the organisation's own settings.
      await drawer.getByRole('link', { name: 'Paramètres' }).click();
      await p.waitForURL((url) => url.pathname === '/settings/tags');
      expect(await settingsNav(p)).toEqual([
        'Étiquettes',
        'Comptes bancaires',
        'Mon équipe',
        'Appareils',
        'Comptabilité',
        'Journal',
        'Tâches planifiées',
      ]);
      await p.goto('/settings/general');
      await p.getByTestId('no-access').getByText(NO_ACCESS).waitFor();
      expect(await p.getByRole('button', { name: 'Enregistrer' }).count()).toBe(0);
      await screenshot(p, 'member-settings-forbidden');
      await p.goto('/settings/members');
      await p.getByTestId('member-row').getByText('Louise Petit').waitFor();
      expect(await p.getByRole('button', { name: 'Envoyer l’invitation' }).count()).toBe(0);
      expect(await p.getByRole('combobox', { name: /Rôle de/ }).count()).toBe(0);
      // The same link cannot serve twice.
      await p.goto(`/invitation?token=${token}`);
      await p.getByRole('alert').getByText('Ce lien d’invitation est invalide, a expiré ou a déjà servi').waitFor();
    } finally {
      await invitee.context.close();
    }

    // What a member does and does not do with the day's records, in both themes.
    const member = new Session(server.url);
    expect((await member.rest('POST', '/api/auth/login', { email, password: 'motdepasse-solide' })).status).toBe(200);
    const customer = (await owner.rest('POST', '/api/customers', { name: 'Boulangerie Morel' })).body.data;
    await forEachLook(
      pagesOf(member),
      async (page, { theme }) => {
        await page.goto(`/customers/${customer.id}`);
        await page.getByRole('heading', { name: 'Boulangerie Morel' }).waitFor();
        await page.getByRole('button', { name: 'Modifier' }).waitFor();
        // CONTRACT.md keeps deleting customers from members.
        expect(await page.getByRole('button', { name: 'Archiver' }).count()).toBe(0);
        await page.goto('/invoices');
        await page.getByRole('link', { name: 'Nouvelle facture' }).first().waitFor();
        await screenshot(page, `member-invoices-${theme}`);
        await page.goto('/invoices/new/add');
        await page.getByRole('button', { name: 'Enregistrer', exact: true }).waitFor();
        await screenshot(page, `member-editor-${theme}`);
        await page.goto('/settings/tags');
        await page.getByRole('navigation', { name: 'Paramètres' }).waitFor();
        await screenshot(page, `member-settings-${theme}`);
      },
      { looks: WIDE_LOOKS },
    );

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

  it('an accountant reads and exports, writes nothing: no « Nouveau », a read-only editor, the PDF, the FEC, a no-access page', {
    timeout: 60_000,
  }, async () => {
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
      await screenshot(page, 'accountant-invoices');
    } finally {
      await context.close();
    }

    // The owner's invoices: one issued, one draft. The accountant reads them, downloads the PDF, changes nothing.
    const { customerId } = await readyToInvoice(owner);
    const sold = await issued(owner, { customer_id: customerId, items: [line('Audit des comptes', 1, 800)] });
    const pending = await draft(owner, { customer_id: customerId, items: [line('Conseil', 2, 150)] });
    await forEachLook(
      pagesOf(accountant),
      async (p, { theme }) => {
        await p.goto('/invoices');
        await p.getByText(sold.number).first().waitFor();
        expect(await p.getByRole('link', { name: 'Nouvelle facture' }).count()).toBe(0);
        await p.getByRole('button', { name: `Actions facture ${sold.number}` }).click();
        await p.getByRole('menuitem', { name: 'Ouvrir' }).waitFor();
        expect((await p.getByRole('menuitem').allTextContents()).map((t) => t.trim())).toEqual(['Ouvrir', 'Copier le lien de partage']);
        await screenshot(p, `accountant-invoices-${theme}`);
        await p.keyboard.press('Escape');

        // The draft's editor, read-only: every field disabled, nothing to save or issue.
        await p.goto(`/invoices/${pending.id}/edit`);
        await p.getByRole('note').getByText('Lecture seule').waitFor();
        expect(await p.getByRole('button', { name: 'Enregistrer', exact: true }).count()).toBe(0);
        expect(await p.getByRole('button', { name: 'Enregistrer & émettre' }).count()).toBe(0);
        const form = p.locator('fieldset[data-read-only]');
        await form.waitFor();
        expect(await form.locator('input:enabled, textarea:enabled, select:enabled, button:enabled').count()).toBe(0);
        await screenshot(p, `accountant-editor-${theme}`);

        // The issued invoice: its PDF, no issuing, sending or payment.
        await p.goto(`/invoices/${sold.id}/view`);
        await p.getByRole('button', { name: 'Plus' }).click();
        await p.getByRole('menuitem', { name: 'Télécharger le PDF' }).waitFor();
        await p.keyboard.press('Escape');
        for (const name of ['Émettre', 'Modifier', 'Envoyer par e-mail', 'Enregistrer un paiement'])
          expect(await p.getByRole('button', { name, exact: true }).count(), name).toBe(0);

        // A page for creating, opened by its address, says so plainly.
        await p.goto('/invoices/new/add');
        await p.getByTestId('no-access').getByText(NO_ACCESS).waitFor();
        await screenshot(p, `accountant-forbidden-${theme}`);

        // Settings: the pages an accountant reads; the FEC to download, the accounts read-only.
        await p.getByTestId('side-drawer').getByRole('link', { name: 'Paramètres' }).click();
        await p.waitForURL((url) => url.pathname === '/settings/bank');
        expect(await settingsNav(p)).toEqual([
          'Comptes bancaires',
          'Mon équipe',
          'Appareils',
          'Comptabilité',
          'Journal',
          'Tâches planifiées',
        ]);
        await p.goto('/settings/accounting');
        await p.getByRole('button', { name: 'Télécharger le FEC' }).waitFor();
        expect(await p.getByRole('button', { name: 'Enregistrer', exact: true }).count()).toBe(0);
        expect(await p.getByRole('button', { name: 'Ajouter' }).count()).toBe(0);
        await screenshot(p, `accountant-settings-${theme}`);
        await p.goto('/settings/taxes');
        await p.getByTestId('no-access').getByText(NO_ACCESS).waitFor();
      },
      { looks: WIDE_LOOKS },
    );
  });
});
