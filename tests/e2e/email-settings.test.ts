import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { chooseOption, look, launchBrowser, newPage, openLook, screenshot } from '../helpers/browser';
import { newUser, Session } from '../helpers/clients';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
let session: Session;
const user = newUser({ organization: 'Atelier Durand' });
beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', user);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The Subject header, its RFC 2047 Q-encoded words decoded. */
function subjectOf(mail: string): string {
  const raw = defined(defined(mail.match(/^Subject: (.*(?:\n[ \t].*)*)/m))[1]).replace(/\?=\s+=\?/g, '?==?');
  return raw.replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, q: string) =>
    Buffer.from(
      q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8'),
  );
}

describe('Paramètres → Envoi d’emails', () => {
  it('the preview follows the subject live, a chip inserts at the cursor, errors show under their field, saved values survive a reload, and a test mail goes out', async () => {
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([
      { name: 'session', value: defined(defined(session.cookie, 'session.cookie').split('=')[1]), url: server.url },
    ]);
    await page.goto('/settings/email');
    const subject = page.getByLabel('Objet', { exact: true });
    const preview = page.getByTestId('preview-subject');
    await subject.waitFor();
    expect(await preview.textContent()).toBe('Facture F2025-0042 d’Atelier Durand');
    expect(await page.getByTestId('preview-body').textContent()).toMatch(
      /^Bonjour Martin & Fils SARL,\n\nVeuillez trouver notre facture F2025-0042 du 15\/03\/2025, d’un montant de 1 250,00 €/,
    );

    await subject.fill('Votre facture {document_number} – ');
    expect(await preview.textContent()).toBe('Votre facture F2025-0042 – ');
    await page.getByRole('button', { name: '{total}' }).click();
    expect(await subject.inputValue()).toBe('Votre facture {document_number} – {total}');
    expect(await preview.textContent()).toBe('Votre facture F2025-0042 – 1 250,00 €');
    await page.getByText('Modifications non enregistrées').waitFor();
    expect(await page.getByRole('button', { name: 'Envoyer un e-mail de test' }).isDisabled()).toBe(true);

    // Errors under their fields, in French, naming the placeholder.
    await subject.fill('Votre facture {numero}');
    await page.getByLabel('Adresse de réponse').fill('compta@');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Adresse de réponse : adresse e-mail invalide (ex. contact@exemple.fr)').waitFor();
    await page.getByText(/^Objet \(Facture\)\s:\svariable inconnue \{numero\}/).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-email-errors');

    await page.getByLabel('Adresse de réponse').fill('compta@atelier-durand.fr');
    await subject.fill('Votre facture {document_number} – ');
    await page.getByRole('button', { name: '{total}' }).click();
    // The chip gives the focus back to the subject at the next frame: typing elsewhere before that would land in it.
    await expect.poll(() => subject.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByLabel('Nom de l’expéditeur').fill('Camille, Atelier Durand');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Mise à jour avec succès').waitFor();
    await page.getByText('Modifications non enregistrées').waitFor({ state: 'detached' });

    await page.reload();
    await subject.waitFor();
    expect(await subject.inputValue()).toBe('Votre facture {document_number} – {total}');
    expect(await preview.textContent()).toBe('Votre facture F2025-0042 – 1 250,00 €');
    expect(await page.getByLabel('Adresse de réponse').inputValue()).toBe('compta@atelier-durand.fr');
    expect((await session.rest('GET', '/api/settings/email')).body.templates.invoice.subject).toBe(
      'Votre facture {document_number} – {total}',
    );
    await screenshot(page, 'settings-email');

    // Another type: its own subject and preview.
    await chooseOption(page, 'Modèle', 'Relance de paiement');
    expect(await preview.textContent()).toBe('Rappel : facture F2025-0042 en attente de règlement');
    await chooseOption(page, 'Modèle', 'Facture');

    // No SMTP anywhere: the test mail lands in the outbox.
    await page.getByRole('button', { name: 'Envoyer un e-mail de test' }).click();
    const outbox = path.join(server.dataDir, 'outbox');
    await page
      .getByTestId('snackbar')
      .getByText(
        `E-mail de test pour ${user.email} : aucun serveur SMTP n’est configuré, l’e-mail est déposé dans la boîte d’envoi du serveur (${outbox})`,
      )
      .waitFor();
    const mails = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
    const test = defined(mails.find((m) => m.includes('Reply-To: compta@atelier-durand.fr')));
    // Mails carry the French no-break spaces the screens print (the preview shows the template as typed).
    expect(subjectOf(test)).toBe('[Test] Votre facture F2025-0042 – 1 250,00\u00a0€');
    expect(test).toMatch(/^From: "Camille, Atelier Durand" <no-reply@facturier\.local>$/m);
    await context.close();
  });

  it('« Adresse d’expédition »: saved, it shows « à confirmer » until the mailed link is opened, then « confirmée » (light and dark)', async () => {
    const login = async (opts: Parameters<typeof newPage>[2]) => {
      const opened = await newPage(browser, server.url, opts);
      await opened.context.addCookies([
        { name: 'session', value: defined(defined(session.cookie, 'session.cookie').split('=')[1]), url: server.url },
      ]);
      return opened;
    };
    const { context, page } = await openLook(login, look('light', 'wide'));
    await page.goto('/settings/email');
    const address = page.getByLabel('Adresse d’expédition');
    await address.waitFor();
    await page.getByText('Sans adresse d’expédition, vos e-mails partent de no-reply@facturier.local.').waitFor();

    await address.fill('factures@');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Adresse d’expédition : adresse e-mail invalide (ex. factures@exemple.fr)').waitFor();

    await address.fill('factures@atelier-durand.fr');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page
      .getByTestId('snackbar')
      // No SMTP server in this test: the link lands in the outbox, whose folder the message names.
      .getByText(/le lien de confirmation pour factures@atelier-durand\.fr est déposé dans la boîte d’envoi du serveur \(\/.*\/outbox\)/)
      .waitFor();
    const status = page.getByTestId('sender-status');
    await status.getByText('à confirmer', { exact: true }).waitFor();
    await status.getByText(/Ouvrez le lien envoyé à factures@atelier-durand\.fr/).waitFor();
    await status.getByText(/D’ici là, vos e-mails partent de no-reply@facturier\.local\./).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-email-sender-pending-light', { fullPage: false });

    // « Renvoyer le lien »: a new link, the previous one dies.
    await status.getByRole('button', { name: 'Renvoyer le lien' }).click();
    await page
      .getByTestId('snackbar')
      .getByText(/^Aucun serveur SMTP n’est configuré\s:\sle lien de confirmation pour factures@atelier-durand\.fr/)
      .waitFor();

    const outbox = path.join(server.dataDir, 'outbox');
    const links = fs
      .readdirSync(outbox)
      .sort()
      .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, ''))
      .filter((m) => m.includes('To: factures@atelier-durand.fr'))
      // The path only: APP_URL of a test server on an ephemeral port does not name the port.
      .map((m) => defined(m.match(/(\/sender\/confirm\/[a-z2-7]+)/))[1] as string);
    expect(links).toHaveLength(2);
    const stale = await page.goto(defined(links[0]));
    expect(stale?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Lien non valable' }).waitFor();

    const opened = await page.goto(defined(links[1]));
    expect(opened?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Adresse d’expédition confirmée' }).waitFor();
    await page.getByText('L’adresse factures@atelier-durand.fr est confirmée').waitFor();
    await screenshot(page, 'sender-confirmed-page-light', { fullPage: false });

    // The page's link leads to APP_URL, which a test server on an ephemeral port does not know: back by path.
    expect(await page.getByRole('link', { name: /Paramètres → Envoi d’emails/ }).getAttribute('href')).toMatch(/\/settings\/email$/);
    await page.goto('/settings/email');
    await status.getByText('confirmée', { exact: true }).waitFor();
    await status.getByText('Vos e-mails partent de factures@atelier-durand.fr.').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-email-sender-confirmed-light', { fullPage: false });
    await context.close();

    const dark = await openLook(login, look('dark', 'wide'));
    await dark.page.goto('/settings/email');
    // A fresh context loads every chunk again: on a loaded machine that takes longer than one click.
    await dark.page.getByLabel('Adresse d’expédition').waitFor({ timeout: 30_000 });
    await dark.page.getByTestId('sender-status').getByText('confirmée', { exact: true }).waitFor();
    await screenshot(dark.page, 'settings-email-sender-confirmed-dark', { fullPage: false });
    // A new address waits again, mail still going from the confirmed one.
    await dark.page.getByLabel('Adresse d’expédition').fill('compta@atelier-durand.fr');
    await dark.page.getByRole('button', { name: 'Enregistrer' }).click();
    const darkStatus = dark.page.getByTestId('sender-status');
    await darkStatus.getByText('à confirmer', { exact: true }).waitFor();
    await darkStatus.getByText(/D’ici là, vos e-mails partent de factures@atelier-durand\.fr\./).waitFor();
    await dark.page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(dark.page, 'settings-email-sender-pending-dark', { fullPage: false });
    // The link of the address in use, opened again, says so; the replaced one does not confirm anything.
    await dark.page.goto(defined(links[1]));
    await dark.page.getByRole('heading', { name: 'Adresse déjà confirmée' }).waitFor();
    await dark.page.goto(defined(links[0]));
    await dark.page.getByRole('heading', { name: 'Lien non valable' }).waitFor();
    await screenshot(dark.page, 'sender-confirm-invalid-dark', { fullPage: false });
    await dark.context.close();
  });
});
