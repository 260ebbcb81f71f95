import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { sellerIdentity } from '../helpers/documents';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp';
import { withServerDb } from '../helpers/database';
import { defaultEmailSettings } from '../../src/shared/schemas/email-settings';
import { defined } from '../../src/shared/defined';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const header = (m: ReceivedMail, name: string) => {
  const value = m.mail.headers.get(name);
  return value && typeof value === 'object' && 'text' in value ? value.text : String(value ?? '');
};

/** The token of the latest confirmation link mailed to `address`. */
async function mailedToken(address: string, after = 0): Promise<string> {
  const mail = await smtp.waitFor(
    (m) => smtp.received.indexOf(m) >= after && m.to.includes(address) && (m.mail.subject ?? '').startsWith('Confirmez'),
  );
  return defined(defined(mail.mail.text).match(/\/sender\/confirm\/([a-z2-7]+)/), 'link')[1] as string;
}

async function openLink(token: string) {
  const response = await fetch(`${server.url}/sender/confirm/${token}`);
  return { status: response.status, type: response.headers.get('content-type'), html: await response.text() };
}

async function saveSettings(session: Session, changes: Record<string, unknown>) {
  const current = (await session.rest('GET', '/api/settings/email')).body;
  return session.rest('PUT', '/api/settings/email', { ...current, ...changes });
}

const senderOf = async (session: Session) => (await session.rest('GET', '/api/settings/email/sender')).body;

/** An appointment with a customer who has an address, and its invitation sent: the mail as the customer gets it. */
async function invitation(session: Session, email: string): Promise<ReceivedMail> {
  const customer = await session.rest('POST', '/api/customers', { name: 'Atelier Leroy', email });
  const appointment = await session.rest('POST', '/api/appointments', {
    title: 'Point chantier',
    date: '2026-12-14',
    start: '10:00',
    end: '11:00',
    customer_id: customer.body.data.id,
  });
  expect(appointment.status, JSON.stringify(appointment.body)).toBe(201);
  const count = smtp.received.length;
  expect((await session.rest('POST', `/api/appointments/${appointment.body.data.id}/invite`)).status).toBe(200);
  return smtp.waitFor((m) => smtp.received.indexOf(m) >= count && m.to.includes(email));
}

const icsOf = (m: ReceivedMail) =>
  defined(m.mail.attachments.find((a) => a.filename === 'invitation.ics'))
    .content.toString('utf8')
    .replace(/\r\n[ \t]/g, '');

describe('the sender address of Paramètres → Envoi d’emails', () => {
  it('refuses a malformed address in French, beside its field, and saves nothing', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/settings/email', { ...defaultEmailSettings(), sender_address: 'factures@' });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toContain('Adresse d’expédition : adresse e-mail invalide (ex. factures@exemple.fr)');
    expect(Object.keys(answer.body.fields)).toEqual(['sender_address']);
    expect(await senderOf(session)).toMatchObject({ address: '', status: 'none' });
    const crlf = await session.rest('PUT', '/api/settings/email', {
      ...defaultEmailSettings(),
      sender_address: 'factures@exemple.fr\r\nBcc: tous@exemple.fr',
    });
    expect(crlf.status).toBe(400);
  });

  it('mails a link, keeps the previous From until it is opened, then sends from it with the Reply-To and as the ICS organizer', async () => {
    const { session } = await registered(server.url);
    await session.rest('PUT', '/api/organization', { ...sellerIdentity, name: 'Atelier Fontaine', email: 'contact@atelier-fontaine.fr' });

    // No address yet: the server's From, and the company's e-mail to reply to.
    expect(await senderOf(session)).toEqual({
      address: '',
      status: 'none',
      expires_at: null,
      expired: false,
      in_use: 'no-reply@facturier.local',
    });
    const before = await invitation(session, 'client1@exemple.fr');
    expect(before.from).toBe('no-reply@facturier.local');
    expect(header(before, 'reply-to')).toBe('contact@atelier-fontaine.fr');

    const count = smtp.received.length;
    const saved = await saveSettings(session, {
      sender_address: 'Factures@Atelier-Fontaine.fr',
      sender_name: 'Atelier Fontaine — Facturation',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.messages).toBe(
      'Mise à jour avec succès. Un lien de confirmation a été envoyé à factures@atelier-fontaine.fr : les e-mails partiront de cette adresse une fois le lien ouvert.',
    );
    const token = await mailedToken('factures@atelier-fontaine.fr', count);
    const link = defined(smtp.received.find((m) => m.to.includes('factures@atelier-fontaine.fr')));
    expect(link.from).toBe('no-reply@facturier.local'); // the new address is not proven yet
    expect(link.mail.text).toContain('Ce lien est valable 48 heures');

    const pending = await senderOf(session);
    expect(pending).toMatchObject({
      address: 'factures@atelier-fontaine.fr',
      status: 'pending',
      expired: false,
      in_use: 'no-reply@facturier.local',
    });
    const waiting = await invitation(session, 'client2@exemple.fr');
    expect(waiting.from).toBe('no-reply@facturier.local');

    const opened = await openLink(token);
    expect(opened.status).toBe(200);
    expect(opened.type).toBe('text/html; charset=utf-8');
    expect(opened.html).toContain('<html lang="fr">');
    expect(opened.html).toContain('Adresse d’expédition confirmée');
    expect(opened.html).toContain('L’adresse factures@atelier-fontaine.fr est confirmée');
    expect(await senderOf(session)).toMatchObject({ status: 'confirmed', in_use: 'factures@atelier-fontaine.fr' });
    const twice = await openLink(token);
    expect(twice.status).toBe(200);
    expect(twice.html).toContain('Adresse déjà confirmée');

    // The customer's mail: From the confirmed address under the sender name, Reply-To the company, ICS organizer.
    const after = await invitation(session, 'client3@exemple.fr');
    expect(after.from).toBe('factures@atelier-fontaine.fr');
    expect(header(after, 'from')).toBe('"Atelier Fontaine — Facturation" <factures@atelier-fontaine.fr>');
    expect(header(after, 'reply-to')).toBe('contact@atelier-fontaine.fr');
    expect(icsOf(after)).toContain('ORGANIZER;CN="Atelier Fontaine — Facturation":mailto:factures@atelier-fontaine.fr');

    // A Reply-To typed in the settings wins over the company's e-mail; the test mail carries both too.
    await saveSettings(session, { reply_to: 'compta@atelier-fontaine.fr' });
    const test = await session.rest('POST', '/api/settings/email/test');
    expect(test.status).toBe(200);
    const testMail = await smtp.waitFor((m) => (m.mail.subject ?? '').startsWith('[Test]') && m.from === 'factures@atelier-fontaine.fr');
    expect(header(testMail, 'reply-to')).toBe('compta@atelier-fontaine.fr');
  });

  it('a new address waits for its own link (mail keeps the confirmed one); resend replaces the link; an expired link confirms nothing', async () => {
    const { session, profile } = await registered(server.url);
    let count = smtp.received.length;
    await saveSettings(session, { sender_address: 'un@exemple.fr' });
    expect((await openLink(await mailedToken('un@exemple.fr', count))).status).toBe(200);

    count = smtp.received.length;
    await saveSettings(session, { sender_address: 'deux@exemple.fr' });
    const first = await mailedToken('deux@exemple.fr', count);
    const link = defined(smtp.received.slice(count).find((m) => m.to.includes('deux@exemple.fr')));
    expect(link.from).toBe('un@exemple.fr'); // sent from the previous, confirmed, From
    expect(await senderOf(session)).toMatchObject({ address: 'deux@exemple.fr', status: 'pending', in_use: 'un@exemple.fr' });

    count = smtp.received.length;
    const resent = await session.rest('POST', '/api/settings/email/sender/resend');
    expect(resent.status).toBe(200);
    expect(resent.body.messages).toMatch(/^Un lien de confirmation a été envoyé à deux@exemple\.fr/);
    expect(resent.body.data).toMatchObject({ status: 'pending', in_use: 'un@exemple.fr' });
    const second = await mailedToken('deux@exemple.fr', count);
    expect(second).not.toBe(first);
    const replaced = await openLink(first);
    expect(replaced.status).toBe(404);
    expect(replaced.html).toContain('Lien non valable');
    expect(replaced.html).toContain('Ce lien de confirmation n’est pas valable');

    // 48 hours later the link says it expired, and nothing changed.
    await withServerDb(server, (db) =>
      db
        .updateTable('sender_addresses')
        .set({ expires_at: '2020-01-01T00:00:00.000Z' })
        .where('organization_id', '=', profile.organization.id)
        .where('confirmed_at', 'is', null)
        .execute(),
    );
    const expired = await openLink(second);
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('Lien expiré');
    expect(expired.html).toContain('l’adresse deux@exemple.fr n’est pas confirmée');
    expect(await senderOf(session)).toMatchObject({ status: 'pending', expired: true, in_use: 'un@exemple.fr' });

    // Back to the address in use: confirmed at once, no new link; cleared: the server's From again.
    count = smtp.received.length;
    const back = await saveSettings(session, { sender_address: 'un@exemple.fr' });
    expect(back.body.messages).toBe('Mise à jour avec succès');
    expect(await senderOf(session)).toMatchObject({ status: 'confirmed', in_use: 'un@exemple.fr' });
    const resendConfirmed = await session.rest('POST', '/api/settings/email/sender/resend');
    expect(resendConfirmed.status).toBe(409);
    expect(resendConfirmed.body.messages).toBe('L’adresse d’expédition un@exemple.fr est déjà confirmée');
    await saveSettings(session, { sender_address: '' });
    expect(await senderOf(session)).toMatchObject({ status: 'none', in_use: 'no-reply@facturier.local' });
    const resendNone = await session.rest('POST', '/api/settings/email/sender/resend');
    expect(resendNone.status).toBe(400);
    expect(resendNone.body.messages).toBe('Saisissez d’abord une adresse d’expédition et enregistrez-la');
    expect(smtp.received.length).toBe(count);
  });

  it('answers a French page to an unknown or malformed link, and the API door says why in JSON', async () => {
    const unknown = await openLink('a'.repeat(52));
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('Lien non valable');
    const malformed = await openLink('<script>');
    expect(malformed.status).toBe(404);
    expect(malformed.html).not.toContain('<script>');

    const api = (token: string) =>
      fetch(`${server.url}/api/sender/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect(await api('pas un jeton')).toMatchObject({
      status: 400,
      body: { messages: 'Lien de confirmation : jeton invalide (copiez le lien entier reçu par e-mail)' },
    });
    const gone = await api('a'.repeat(52));
    expect(gone.status).toBe(404);
    expect(gone.body.messages).toMatch(/^Ce lien de confirmation n’est pas valable/);

    const { session } = await registered(server.url);
    const count = smtp.received.length;
    await saveSettings(session, { sender_address: 'api@exemple.fr' });
    const confirmed = await api(await mailedToken('api@exemple.fr', count));
    expect(confirmed).toEqual({
      status: 200,
      body: { messages: expect.stringMatching(/^L’adresse api@exemple\.fr est confirmée/), address: 'api@exemple.fr' },
    });
  });

  it('keeps the sender to the organisation’s managers: a signed-out caller gets 401', async () => {
    const anonymous = await fetch(`${server.url}/api/settings/email/sender`);
    expect(anonymous.status).toBe(401);
    const resend = await fetch(`${server.url}/api/settings/email/sender/resend`, { method: 'POST' });
    expect(resend.status).toBe(401);
  });
});
