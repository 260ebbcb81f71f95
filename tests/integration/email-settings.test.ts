import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../src/server/routers/_app';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, Session } from '../helpers/clients';
import { DEFAULT_EMAIL_TEMPLATES, defaultEmailSettings } from '../../src/shared/schemas/email-settings';
import { defined } from '../../src/shared/defined';

/** A real SMTP server on loopback that only lets jean@exemple.fr / s3cret in, and keeps what it receives. */
const received: { from: string; to: string[]; data: string }[] = [];
let smtp: SMTPServer;
let smtpPort: number;
let server: TestServer;

beforeAll(async () => {
  smtp = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      if (auth.username === 'jean@exemple.fr' && auth.password === 's3cret') return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => {
        received.push({
          from: String(session.envelope.mailFrom ? session.envelope.mailFrom.address : false),
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  server = await startTestServer(); // no SMTP_URL: the server's own mail goes to the outbox
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const storedRow = async (organizationId: number) => {
  const row = await withServerDb(server, (db) =>
    db.selectFrom('settings').select('value').where('organization_id', '=', organizationId).where('key', '=', 'email').executeTakeFirst(),
  );
  return row ? JSON.parse(row.value) : undefined;
};

const outboxMails = () => {
  const dir = path.join(server.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => ({ name: f, text: fs.readFileSync(path.join(dir, f), 'utf8') }));
};

/** Quoted-printable and encoded-word folding undone enough to read a mail's French text. */
const readable = (mail: string) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('GET /api/settings/email and emailSettings.get', () => {
  it('answers the defaults to a new organisation, the same on both doors', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('GET', '/api/settings/email');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(defaultEmailSettings());
    expect(answer.body).toMatchObject({ sender_name: '', reply_to: '', smtp_url: '' });
    expect(answer.body.templates.invoice.subject).toBe('Facture {document_number} de {organization_name}');
    expect(Object.keys(answer.body.templates)).toEqual(['invoice', 'estimate', 'proforma', 'order', 'delivery', 'credit', 'reminder']);
    expect(await session.trpc().emailSettings.get.query()).toEqual(answer.body);
  });

  it('is 401 when logged out, on every path', async () => {
    const anonymous = new Session(server.url);
    expect((await anonymous.rest('GET', '/api/settings/email')).status).toBe(401);
    expect((await anonymous.rest('PUT', '/api/settings/email', defaultEmailSettings())).status).toBe(401);
    expect((await anonymous.rest('POST', '/api/settings/email/test')).status).toBe(401);
  });
});

describe('PUT /api/settings/email and emailSettings.update', () => {
  it('saves, answers Mise à jour avec succès, reads back, and stays per organisation', async () => {
    const { session } = await registered(server.url);
    const { session: other } = await registered(server.url);
    const settings = defaultEmailSettings();
    settings.sender_name = 'Camille de Durand Conseil';
    settings.reply_to = 'compta@durand-conseil.fr';
    settings.templates.invoice.subject = 'Votre facture {document_number} ({total})';
    settings.templates.reminder.body = 'Bonjour {customer_name}, il reste {amount_due} à régler. {link}';
    const saved = await session.rest('PUT', '/api/settings/email', settings);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ messages: 'Mise à jour avec succès', data: settings });
    expect((await session.rest('GET', '/api/settings/email')).body).toEqual(settings);
    expect((await other.rest('GET', '/api/settings/email')).body).toEqual(defaultEmailSettings());

    const viaTrpc = await session.trpc().emailSettings.update.mutate({ ...settings, sender_name: 'Par tRPC' });
    expect(viaTrpc.data.sender_name).toBe('Par tRPC');
    expect((await session.rest('GET', '/api/settings/email')).body.sender_name).toBe('Par tRPC');
  });

  it('fills template types left out with their defaults', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/settings/email', {
      sender_name: 'X',
      reply_to: '',
      smtp_url: '',
      templates: { invoice: { subject: 'Facture', body: 'Bonjour' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.templates.invoice).toEqual({ subject: 'Facture', body: 'Bonjour' });
    expect(answer.body.data.templates.credit).toEqual(DEFAULT_EMAIL_TEMPLATES.credit);
  });

  it.each([
    ['a bad reply-to', { reply_to: 'compta@' }, /^Adresse de réponse : adresse e-mail invalide/],
    ['an http:// SMTP URL', { smtp_url: 'http://smtp.exemple.fr' }, /^Serveur SMTP : l’adresse doit commencer par smtp:\/\/ ou smtps:\/\//],
    ['an SMTP URL that is not one', { smtp_url: 'pas une adresse' }, /^Serveur SMTP : adresse invalide/],
    ['an SMTP URL with options in its query', { smtp_url: 'smtp://h.fr?sendmail=true&path=/bin/sh' }, /^Serveur SMTP : pas de paramètres/],
    [
      'an unknown placeholder in a subject',
      { templates: { invoice: { subject: 'Facture {numero}', body: 'Bonjour' } } },
      /^Objet \(Facture\) : variable inconnue \{numero\}/,
    ],
    [
      'unknown placeholders in a body',
      { templates: { reminder: { subject: 'Rappel', body: '{montant} dû le {echeance}' } } },
      /^Message \(Relance de paiement\) : variables inconnues \{montant\}, \{echeance\}/,
    ],
    ['an empty subject', { templates: { estimate: { subject: '  ', body: 'Bonjour' } } }, /^Objet \(Devis\) : ne peut pas être vide/],
    [
      'a subject on two lines',
      { templates: { credit: { subject: 'Avoir\nBcc: x@y.fr', body: 'Bonjour' } } },
      /^Objet \(Avoir\) : une seule ligne/,
    ],
    ['an unknown template type', { templates: { facture: { subject: 'x', body: 'y' } } }, /^Modèles d’e-mail : .*facture/],
    ['an unknown field', { signature: 'x' }, /signature/],
  ])('refuses %s with 400 naming the field, and changes nothing', async (_label, patch, message) => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/settings/email', { ...defaultEmailSettings(), ...patch });
    expect(answer.status).toBe(400);
    const messages = [answer.body.messages].flat();
    expect(messages.some((m: string) => message.test(m))).toBe(true);
    expect((await session.rest('GET', '/api/settings/email')).body).toEqual(defaultEmailSettings());
  });

  it('refuses the same on the tRPC door', async () => {
    const { session } = await registered(server.url);
    const error = await session
      .trpc()
      .emailSettings.update.mutate({ ...defaultEmailSettings(), reply_to: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
      httpStatus: 400,
      messages: expect.stringMatching(/^Adresse de réponse/),
    });
  });
});

describe('the SMTP password', () => {
  it('is never answered, and the mask sent back keeps the stored one', async () => {
    const { session, profile } = await registered(server.url);
    const url = `smtp://jean%40exemple.fr:s3cret@127.0.0.1:${smtpPort}`;
    const masked = `smtp://jean%40exemple.fr:********@127.0.0.1:${smtpPort}`;
    const saved = await session.rest('PUT', '/api/settings/email', { ...defaultEmailSettings(), smtp_url: url });
    expect(saved.body.data.smtp_url).toBe(masked);
    const read = await session.rest('GET', '/api/settings/email');
    expect(read.body.smtp_url).toBe(masked);
    expect(JSON.stringify(read.body)).not.toContain('s3cret');
    expect(JSON.stringify(await session.trpc().emailSettings.get.query())).not.toContain('s3cret');
    expect((await storedRow(profile.organization.id)).smtp_url).toBe(url);

    // The page sends back what it read: the password stays, and the mail still logs in with it.
    const again = await session.rest('PUT', '/api/settings/email', {
      ...read.body,
      sender_name: 'Durand Conseil (compta)',
      reply_to: 'compta@durand-conseil.fr',
    });
    expect(again.status).toBe(200);
    expect(again.body.data.smtp_url).toBe(masked);
    expect((await storedRow(profile.organization.id)).smtp_url).toBe(url);

    const test = await session.rest('POST', '/api/settings/email/test');
    expect(test).toMatchObject({ status: 200, body: { messages: `E-mail de test envoyé à ${profile.email}` } });
    const mail = defined(received.find((m) => m.to.includes(profile.email)));
    expect(mail.from).toBe('jean@exemple.fr'); // the login of the organisation's own server
    expect(mail.data).toMatch(/^From: "Durand Conseil \(compta\)" <jean@exemple\.fr>/m);
    expect(mail.data).toMatch(/^Reply-To: compta@durand-conseil\.fr/m);
    expect(mail.data).toMatch(/^Subject: \[Test\] Facture F2025-0042 de Durand Conseil SARL$/m);

    // A new password replaces it; an empty field drops the override.
    await session.rest('PUT', '/api/settings/email', { ...read.body, smtp_url: `smtp://jean%40exemple.fr:n0uveau@127.0.0.1:${smtpPort}` });
    expect((await storedRow(profile.organization.id)).smtp_url).toContain(':n0uveau@');
    await session.rest('PUT', '/api/settings/email', { ...read.body, smtp_url: '' });
    expect((await storedRow(profile.organization.id)).smtp_url).toBe('');
  });

  it('refuses the mask when no password is stored', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/settings/email', {
      ...defaultEmailSettings(),
      smtp_url: 'smtp://jean:********@smtp.exemple.fr',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toMatch(/^Serveur SMTP : aucun mot de passe n’est enregistré/);
  });
});

describe('POST /api/settings/email/test and emailSettings.sendTest', () => {
  it('without any SMTP server, writes the test mail to the outbox as .eml, to the user, from the sender name', async () => {
    const { session, profile } = await registered(server.url);
    await session.rest('PUT', '/api/settings/email', {
      ...defaultEmailSettings(),
      sender_name: 'Atelier Durand',
      reply_to: 'contact@atelier-durand.fr',
    });
    const before = outboxMails().length;
    const answer = await session.rest('POST', '/api/settings/email/test');
    // The message names the real folder, where whoever runs the server finds the .eml file.
    const inOutbox = `E-mail de test pour ${profile.email} : aucun serveur SMTP n’est configuré, l’e-mail est déposé dans la boîte d’envoi du serveur (${path.join(server.dataDir, 'outbox')})`;
    expect(answer).toMatchObject({ status: 200, body: { messages: inOutbox } });
    const mails = outboxMails();
    expect(mails).toHaveLength(before + 1);
    const mail = defined(mails.find((m) => m.text.includes(`To: ${profile.email}`) && m.text.includes('Subject: [Test]')));
    expect(mail.name).toMatch(/\.eml$/);
    expect(mail.text).toMatch(/^From: Atelier Durand <no-reply@facturier\.local>/m);
    expect(mail.text).toMatch(/^Reply-To: contact@atelier-durand\.fr/m);
    expect(readable(mail.text)).toContain('Facture F2025-0042');

    const viaTrpc = await session.trpc().emailSettings.sendTest.mutate();
    expect(viaTrpc.messages).toBe(inOutbox);
    expect(outboxMails()).toHaveLength(before + 2);
  });

  it('answers 502 with a French message when the SMTP server refuses, and keeps serving', async () => {
    const { session } = await registered(server.url);
    await session.rest('PUT', '/api/settings/email', {
      ...defaultEmailSettings(),
      smtp_url: `smtp://jean%40exemple.fr:mauvais@127.0.0.1:${smtpPort}`,
    });
    const refused = await session.rest('POST', '/api/settings/email/test');
    expect(refused.status).toBe(502);
    expect(refused.body.messages).toBe(
      'Le serveur SMTP 127.0.0.1 a refusé l’identifiant ou le mot de passe : vérifiez-les dans l’adresse du serveur SMTP',
    );

    const closed = await new Promise<number>((resolve) => {
      const probe = new SMTPServer({});
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.server.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    await session.rest('PUT', '/api/settings/email', { ...defaultEmailSettings(), smtp_url: `smtp://127.0.0.1:${closed}` });
    const unreachable = await session.rest('POST', '/api/settings/email/test');
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.messages).toMatch(/^Le serveur SMTP 127\.0\.0\.1 ne répond pas : vérifiez son nom, le port/);

    const error = await session
      .trpc()
      .emailSettings.sendTest.mutate()
      .catch((e: unknown) => e);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({ httpStatus: 502 });
    expect((await session.rest('GET', '/api/settings/email')).status).toBe(200);
  });
});
