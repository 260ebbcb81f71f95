import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { chooseOption, launchBrowser, newPage, screenshot } from '../helpers/browser';
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
    await page.getByText(/^Objet \(Facture\) : variable inconnue \{numero\}/).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-email-errors');

    await page.getByLabel('Adresse de réponse').fill('compta@atelier-durand.fr');
    await subject.fill('Votre facture {document_number} – ');
    await page.getByRole('button', { name: '{total}' }).click();
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
    await page.getByTestId('snackbar').getByText(`E-mail de test envoyé à ${user.email}`).waitFor();
    const outbox = path.join(server.dataDir, 'outbox');
    const mails = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
    const test = defined(mails.find((m) => m.includes('Reply-To: compta@atelier-durand.fr')));
    expect(subjectOf(test)).toBe('[Test] Votre facture F2025-0042 – 1 250,00 €');
    expect(test).toMatch(/^From: "Camille, Atelier Durand" <no-reply@facturier\.local>$/m);
    await context.close();
  });
});
