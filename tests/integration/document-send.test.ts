import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { startSilentServer, startSmtpServer } from '../helpers/smtp';
import { keepPdf } from '../helpers/kept-pdf';
import { defaultEmailSettings } from '../../src/shared/schemas/email-settings';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let refusing: Awaited<ReturnType<typeof startSmtpServer>>;
let silent: Awaited<ReturnType<typeof startSilentServer>>;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  refusing = await startSmtpServer({ refuseRecipient: 'inconnu@boulangerie-martin.fr' });
  silent = await startSilentServer();
  // The server's own SMTP (SMTP_URL); organisations may set theirs in Paramètres → Envoi d'emails.
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, APP_URL: 'https://factures.exemple.fr' } });
});
afterAll(async () => {
  await server.close();
  await Promise.all([smtp.close(), refusing.close(), silent.close()]);
});

/** A customer with an address and two contacts (one without e-mail). */
async function customerWithContacts(session: Session): Promise<number> {
  await readyToInvoice(session);
  const answer = await session.rest('POST', '/api/customers', {
    name: 'Boulangerie Martin',
    business_id: '732 829 320',
    email: 'compta@boulangerie-martin.fr',
    address: { line1: '3 place du Marché', postal_code: '69002', city: 'Lyon' },
    contacts: [
      { name: 'Paul Martin', role: 'Gérant', email: 'paul@boulangerie-martin.fr' },
      { name: 'Standard', role: '', email: '', phone: '04 78 00 00 00' },
    ],
  });
  expect(answer.status).toBe(201);
  return answer.body.data.id;
}

/** An issued invoice whose PDF was kept at its issue, as in production. */
async function invoiceWithKeptPdf(session: Session, customerId: number) {
  const invoice = await issued(session, { customer_id: customerId, maturity: '2026-12-02', items: [line('Conseil', 2, 450)] });
  return { invoice, bytes: await keepPdf(server, invoice.id) };
}

const sentAt = async (session: Session, id: number) => (await session.rest('GET', `/api/documents/${id}`)).body.sent_at as string | null;

describe('GET /api/documents/{id}/send (the dialog’s draft)', () => {
  it('fills the organisation’s template with the document’s values, the customer’s address and its contacts with an e-mail', async () => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    const { invoice } = await invoiceWithKeptPdf(session, customerId);
    const answer = await session.rest('GET', `/api/documents/${invoice.id}/send`);
    expect(answer.status).toBe(200);
    const link = `https://factures.exemple.fr/share/${invoice.uuid}`;
    expect(answer.body).toEqual({
      to: 'compta@boulangerie-martin.fr',
      contacts: [{ name: 'Paul Martin', role: 'Gérant', email: 'paul@boulangerie-martin.fr' }],
      subject: `Facture ${invoice.number} d’Atelier Fontaine`,
      message: expect.stringContaining(
        `notre facture ${invoice.number} du 02/11/2026, d’un montant de 1080,00\u00a0€, à régler au plus tard le 02/12/2026`,
      ),
      attachment: `Facture-${invoice.number}.pdf`,
      link,
    });
    expect(answer.body.message).toContain(`Vous pouvez la consulter et la télécharger ici : ${link}`);
    expect(answer.body.message).toMatch(/^Bonjour Boulangerie Martin,/);
  });

  it('answers 409 for a draft and 404 for another organisation’s document', async () => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    const answer = await session.rest('GET', `/api/documents/${doc.id}/send`);
    expect(answer.status).toBe(409);
    expect(answer.body.messages).toBe('Émettez le document avant de l’envoyer : un brouillon n’a pas de numéro');
    const { session: other } = await registered(server.url);
    expect((await other.rest('GET', `/api/documents/${doc.id}/send`)).status).toBe(404);
  });
});

describe('POST /api/documents/{id}/send', () => {
  it('mails the invoice through the server’s SMTP with its kept PDF attached, byte for byte, then marks it sent', async () => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    await session.rest('PUT', '/api/settings/email', {
      ...defaultEmailSettings(),
      sender_name: 'Atelier Fontaine (compta)',
      reply_to: 'compta@atelier-fontaine.fr',
    });
    const { invoice, bytes } = await invoiceWithKeptPdf(session, customerId);
    expect(await sentAt(session, invoice.id)).toBeNull();

    const answer = await session.rest('POST', `/api/documents/${invoice.id}/send`, {
      to: 'compta@boulangerie-martin.fr',
      cc: ['paul@boulangerie-martin.fr'],
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { messages: `Facture ${invoice.number} envoyée par e-mail à compta@boulangerie-martin.fr, paul@boulangerie-martin.fr` },
    });
    const { mail, to } = await smtp.waitFor((m) => m.mail.subject === `Facture ${invoice.number} d’Atelier Fontaine`);
    expect(to).toEqual(['compta@boulangerie-martin.fr', 'paul@boulangerie-martin.fr']);
    expect(mail.from?.value).toEqual([{ name: 'Atelier Fontaine (compta)', address: 'no-reply@facturier.local' }]);
    expect(mail.replyTo?.text).toBe('compta@atelier-fontaine.fr');
    expect(mail.cc && !Array.isArray(mail.cc) ? mail.cc.text : '').toBe('paul@boulangerie-martin.fr');
    expect(mail.text).toContain(`Veuillez trouver notre facture ${invoice.number} du 02/11/2026`);
    expect(mail.text).toContain(`https://factures.exemple.fr/share/${invoice.uuid}`);
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments;
    expect(attachment?.filename).toBe(`Facture-${invoice.number}.pdf`);
    expect(attachment?.contentType).toBe('application/pdf');
    expect(Buffer.compare(attachment?.content ?? Buffer.alloc(0), bytes)).toBe(0);

    const sent = await sentAt(session, invoice.id);
    expect(sent).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const listed = await session.rest('GET', '/api/documents?type=invoice&status=sent');
    expect(listed.body.data.map((d: { id: number }) => d.id)).toEqual([invoice.id]);
  });

  it('sends the subject and message as edited, adds the share link when the message lost it, on the tRPC door too', async () => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    const { invoice } = await invoiceWithKeptPdf(session, customerId);
    const answer = await session.trpc().documentMail.send.mutate({
      id: invoice.id,
      to: 'paul@boulangerie-martin.fr; compta@boulangerie-martin.fr',
      subject: 'Votre facture de novembre',
      message: 'Bonjour Paul,\n\nVoici la facture de novembre.\n\nCamille',
    });
    expect(answer.sent_to).toEqual(['paul@boulangerie-martin.fr', 'compta@boulangerie-martin.fr']);
    const { mail } = await smtp.waitFor((m) => m.mail.subject === 'Votre facture de novembre');
    expect(mail.text).toBe(
      `Bonjour Paul,\n\nVoici la facture de novembre.\n\nCamille\n\nConsulter le document en ligne\u00a0: https://factures.exemple.fr/share/${invoice.uuid}`,
    );
  });

  it.each([
    ['an invalid address', { to: 'compta@' }, 'Destinataire : adresse e-mail invalide « compta@ » (ex. client@exemple.fr)'],
    ['no address', { to: '  ' }, 'Destinataire : indiquez au moins une adresse e-mail (ex. client@exemple.fr)'],
    ['no to at all', {}, 'Destinataire'],
    ['an invalid copy', { to: 'a@b.fr', cc: ['paul@', 'ok@b.fr'] }, 'Copie : adresse e-mail invalide « paul@ » (ex. client@exemple.fr)'],
    ['a header slipped into an address', { to: 'a@b.fr\nBcc: x@y.fr' }, 'Destinataire : adresse e-mail invalide'],
    ['a subject on two lines', { to: 'a@b.fr', subject: 'Facture\nBcc: x@y.fr' }, 'Objet : une seule ligne'],
    ['a subject too long', { to: 'a@b.fr', subject: 'x'.repeat(201) }, 'Objet : 200 caractères au plus'],
  ])('refuses %s with a 400 naming the field, sends nothing and marks nothing', async (_label, body, message) => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    const { invoice } = await invoiceWithKeptPdf(session, customerId);
    const before = smtp.received.length;
    const answer = await session.rest('POST', `/api/documents/${invoice.id}/send`, body);
    expect(answer.status).toBe(400);
    expect([answer.body.messages].flat().some((m: string) => m.startsWith(message))).toBe(true);
    expect(smtp.received.length).toBe(before);
    expect(await sentAt(session, invoice.id)).toBeNull();
  });

  it('answers 409 for a draft, 404 for another organisation’s document, 401 without a session', async () => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    const doc = await draft(session, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    const answer = await session.rest('POST', `/api/documents/${doc.id}/send`, { to: 'a@b.fr' });
    expect(answer.status).toBe(409);
    expect(answer.body.messages).toBe('Émettez le document avant de l’envoyer : un brouillon n’a pas de numéro');
    const { session: other } = await registered(server.url);
    const foreign = await other.rest('POST', `/api/documents/${doc.id}/send`, { to: 'a@b.fr' });
    expect(foreign).toMatchObject({ status: 404, body: { messages: 'Document introuvable' } });
    const anonymous = await fetch(`${server.url}/api/documents/${doc.id}/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'a@b.fr' }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('says why when the organisation’s SMTP server refuses the recipient (502), and marks nothing sent', async () => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    await session.rest('PUT', '/api/settings/email', { ...defaultEmailSettings(), smtp_url: `smtp://127.0.0.1:${refusing.port}` });
    const { invoice } = await invoiceWithKeptPdf(session, customerId);
    const answer = await session.rest('POST', `/api/documents/${invoice.id}/send`, { to: 'inconnu@boulangerie-martin.fr' });
    expect(answer.status).toBe(502);
    expect(answer.body.messages).toMatch(
      /^L’e-mail n’est pas parti : Le serveur SMTP 127\.0\.0\.1 a refusé l’expéditeur ou le destinataire \(code 550\).*réponse du serveur : « 550 5\.1\.1 Mailbox unavailable ».*Le document n’est pas marqué envoyé\.$/,
    );
    expect(refusing.received).toHaveLength(0);
    expect(await sentAt(session, invoice.id)).toBeNull();
  });

  it('says so when the SMTP server does not answer in time (502), and marks nothing sent', async () => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    await session.rest('PUT', '/api/settings/email', { ...defaultEmailSettings(), smtp_url: `smtp://127.0.0.1:${silent.port}` });
    const { invoice } = await invoiceWithKeptPdf(session, customerId);
    const answer = await session.rest('POST', `/api/documents/${invoice.id}/send`, { to: 'compta@boulangerie-martin.fr' });
    expect(answer.status).toBe(502);
    expect(answer.body.messages).toBe(
      'L’e-mail n’est pas parti : Le serveur SMTP 127.0.0.1 n’a pas répondu à temps : vérifiez le port et le choix entre smtps:// (port 465) ou smtp:// (port 587). Le document n’est pas marqué envoyé.',
    );
    expect(await sentAt(session, invoice.id)).toBeNull();
  });
});

describe('downloading', () => {
  it('no longer marks a document sent', async () => {
    const { session } = await registered(server.url);
    const customerId = await customerWithContacts(session);
    const { invoice, bytes } = await invoiceWithKeptPdf(session, customerId);
    const download = await fetch(`${server.url}/documents/download/${invoice.uuid}`);
    expect(download.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await download.arrayBuffer()), bytes)).toBe(0);
    expect(await sentAt(session, invoice.id)).toBeNull();
  });
});
