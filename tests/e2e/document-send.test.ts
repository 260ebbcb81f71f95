import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, newPage, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { startSmtpServer } from '../helpers/smtp';
import { defaultEmailSettings } from '../../src/shared/schemas/email-settings';

const suite = browserSuite();
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());

/** The organisation sends through its own SMTP server (Paramètres → Envoi d'emails): here a real one on loopback. */
async function customerAndSmtp(): Promise<number> {
  await readyToInvoice(suite.session);
  const settings = await suite.session.rest('PUT', '/api/settings/email', {
    ...defaultEmailSettings(),
    smtp_url: `smtp://127.0.0.1:${smtp.port}`,
  });
  expect(settings.status).toBe(200);
  const customer = await suite.session.rest('POST', '/api/customers', {
    name: 'Boulangerie Martin',
    business_id: '732 829 320',
    email: 'compta@boulangerie-martin.fr',
    address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
    contacts: [{ name: 'Paul Martin', role: 'Gérant', email: 'paul@boulangerie-martin.fr' }],
  });
  expect(customer.status).toBe(201);
  return customer.body.data.id;
}

describe('sending a document by e-mail', () => {
  it('sends an issued invoice from its Aperçu: template prefilled, contact in copy, its PDF attached, then « Envoyé »', {
    timeout: 60_000,
  }, async () => {
    const customerId = await customerAndSmtp();
    const invoice = await issued(suite.session, { customer_id: customerId, maturity: '2026-12-02', items: [line('Conseil', 2, 450)] });
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto(`/invoices/${invoice.id}/view`);
      await page.getByRole('button', { name: 'Envoyer par e-mail' }).click();
      const dialog = page.getByRole('dialog', { name: `Envoyer ${invoice.number} par e-mail` });
      await expect.poll(() => dialog.getByLabel('Destinataire').inputValue()).toBe('compta@boulangerie-martin.fr');
      expect(await dialog.getByLabel('Objet').inputValue()).toBe(`Facture ${invoice.number} d’Atelier Fontaine`);
      expect(await dialog.getByLabel('Message').inputValue()).toContain(`/share/${invoice.uuid}`);
      // The kit's checkbox: a user clicks its label (the real checkbox under it is visually hidden).
      await dialog.getByText(/Paul Martin/).click();
      await expect.poll(() => dialog.getByRole('checkbox', { name: /Paul Martin/ }).isChecked()).toBe(true);
      await dialog.getByLabel('Objet').fill(`Votre facture ${invoice.number}`);
      await screenshot(page, 'document-send-dialog');
      await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
      await page
        .getByTestId('snackbar')
        .getByText(`Facture ${invoice.number} envoyée par e-mail à compta@boulangerie-martin.fr, paul@boulangerie-martin.fr`)
        .waitFor({ timeout: 30_000 });
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('Envoyé', { exact: true }).first().waitFor();

      const { mail, to } = await smtp.waitFor((m) => m.mail.subject === `Votre facture ${invoice.number}`);
      expect(to).toEqual(['compta@boulangerie-martin.fr', 'paul@boulangerie-martin.fr']);
      const [attachment] = mail.attachments;
      expect(attachment?.filename).toBe(`Facture-${invoice.number}.pdf`);
      expect(attachment?.content.subarray(0, 5).toString()).toBe('%PDF-');
      // The PDF attached is the one kept for the invoice: every download serves the same bytes.
      const downloaded = Buffer.from(await (await fetch(`${suite.server.url}/documents/download/${invoice.uuid}`)).arrayBuffer());
      expect(Buffer.compare(downloaded, attachment?.content ?? Buffer.alloc(0))).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('the editor’s « Enregistrer & … » menu', () => {
  it('« Enregistrer & envoyer par email » saves, then opens the send dialog; « Enregistrer & télécharger » saves, then downloads', {
    timeout: 60_000,
  }, async () => {
    const customerId = await customerAndSmtp();
    const estimate = await issued(suite.session, {
      type: 'estimate',
      customer_id: customerId,
      maturity: '2026-12-31',
      items: [line('Étude', 1, 300)],
    });
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto(`/estimates/${estimate.id}/edit`);
      await page.getByRole('button', { name: 'Autres façons d’enregistrer' }).click();
      await page.getByRole('menuitem', { name: 'Enregistrer & envoyer par email' }).click();
      const dialog = page.getByRole('dialog', { name: `Envoyer ${estimate.number} par e-mail` });
      await expect.poll(() => dialog.getByLabel('Objet').inputValue()).toBe(`Devis ${estimate.number} d’Atelier Fontaine`);
      expect(page.url()).toMatch(new RegExp(`/estimates/${estimate.id}/view\\?send=1$`));
      await dialog.getByRole('button', { name: 'Annuler' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await page.goto(`/estimates/${estimate.id}/edit`);
      await page.getByRole('button', { name: 'Autres façons d’enregistrer' }).click();
      const downloading = page.waitForEvent('download', { timeout: 30_000 });
      await page.getByRole('menuitem', { name: 'Enregistrer & télécharger' }).click();
      const file = await downloading;
      expect(file.suggestedFilename()).toBe(`Devis-${estimate.number}.pdf`);
      // Downloading is not sending.
      expect((await suite.session.rest('GET', `/api/documents/${estimate.id}`)).body.sent_at).toBeNull();
    } finally {
      await context.close();
    }
  });
});

describe('an estimate accepted online', () => {
  it('is accepted by the customer on its public page and shows as accepted in the app, with the conversion offered', {
    timeout: 60_000,
  }, async () => {
    const customerId = await customerAndSmtp();
    const estimate = await issued(suite.session, {
      type: 'estimate',
      customer_id: customerId,
      maturity: '2026-12-31',
      items: [line('Rénovation de la vitrine', 1, 2400)],
    });
    const visitor = await newPage(suite.browser, suite.server.url);
    try {
      const { page } = visitor;
      await page.goto(`/share/${estimate.uuid}`);
      await page.getByText('Ce devis vous convient ?').waitFor();
      await page.getByRole('button', { name: 'Accepter', exact: true }).click();
      const accept = page.getByRole('button', { name: 'Accepter le devis' });
      await page.getByLabel('Nom et prénom du signataire').fill('Paul Martin');
      expect(await accept.isDisabled()).toBe(true); // not before « Bon pour accord » is ticked
      await page.getByText('Bon pour accord', { exact: true }).click();
      await expect.poll(() => accept.isDisabled()).toBe(false);
      await screenshot(page, 'quote-accept-form');
      await accept.click();
      await page.getByText(/^Devis accepté par Paul Martin le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2} — « Bon pour accord »$/).waitFor();
      await screenshot(page, 'quote-accepted-public');
    } finally {
      await visitor.context.close();
    }

    const { context, page } = await suite.loggedIn();
    try {
      await page.goto(`/estimates/${estimate.id}/view`);
      const card = page.getByRole('region', { name: 'Réponse du client' });
      await card.getByText(/^Devis accepté en ligne par Paul Martin le .* — « Bon pour accord »$/).waitFor();
      await page.getByText('Accepté', { exact: true }).first().waitFor();
      await screenshot(page, 'quote-accepted-app');
      await card.getByRole('button', { name: 'Convertir en facture' }).click();
      await page.waitForURL(/\/invoices\/\d+\/edit$/);
    } finally {
      await context.close();
    }
  });
});
