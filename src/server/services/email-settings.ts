import net from 'node:net';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { findSettingValue, upsertSettingValue } from '../db/queries/settings';
import { findOrganizationName } from '../db/queries/organizations';
import { getUserContact } from '../db/queries/users';
import {
  defaultEmailSettings,
  emailSettingsSchema,
  SMTP_PASSWORD_MASK,
  type EmailSettings,
  type SenderState,
} from '../../shared/schemas/email-settings';
import { EMAIL_TEMPLATE_LABELS, renderEmailTemplate, sampleEmailValues } from '../../shared/email-template';
import { createMailerForUrl, type MailAddress, type Mailer, smtpAddressOf } from '../mail/mailer';
import { OUTBOUND_REFUSED, OutboundRefusedError, type OutboundPolicy, resolveOutbound } from '../net/outbound-guard';
import { smtpFailureMessage } from '../mail/smtp-errors';
import { fail, failField } from '../errors';
import { logger } from '../logger';
import { deName } from '../../shared/french';
import { organizationEmail } from './organization';
import {
  applySenderAddress,
  confirmedSenderAddress,
  newSenderToken,
  SENDER_LINK_HOURS,
  senderConfirmationLink,
  senderState,
} from './sender-address';

const EMAIL_KEY = 'email';

/** The stored settings, password included (server side only); defaults until the organisation saves. */
export async function getEmailSettings(db: Db, organizationId: number): Promise<EmailSettings> {
  const raw = await findSettingValue(db, { organizationId, key: EMAIL_KEY });
  if (raw === undefined) return defaultEmailSettings();
  const parsed = emailSettingsSchema.safeParse(JSON.parse(raw));
  if (parsed.success) return parsed.data;
  logger.error(`stored email settings of organization ${organizationId} no longer validate; defaults served`, parsed.error);
  return defaultEmailSettings();
}

/** The SMTP password is a secret: answers carry the mask in its place. */
function maskPassword(smtpUrl: string): string {
  if (smtpUrl === '') return smtpUrl;
  const url = new URL(smtpUrl);
  if (url.password === '') return smtpUrl;
  url.password = SMTP_PASSWORD_MASK;
  return url.href;
}

/** What the settings page and the REST door see. */
export async function getPublicEmailSettings(db: Db, organizationId: number): Promise<EmailSettings> {
  const settings = await getEmailSettings(db, organizationId);
  return { ...settings, smtp_url: maskPassword(settings.smtp_url) };
}

/** The mask sent back means "keep the stored password", whatever else of the URL changed. */
function restorePassword(submitted: string, stored: string): string {
  if (submitted === '') return submitted;
  const url = new URL(submitted);
  if (url.password !== SMTP_PASSWORD_MASK) return submitted;
  const storedPassword = stored === '' ? '' : new URL(stored).password;
  if (storedPassword === '') fail('BAD_REQUEST', 'Serveur SMTP : aucun mot de passe n’est enregistré, saisissez-le à la place de ********');
  url.password = storedPassword;
  return url.href;
}

/**
 * An SMTP server typed as an IP address is judged by the outbound guard when saved, with its one sentence (no DNS
 * answer can change it later); a name is judged at each connection, on the addresses it resolves to then.
 */
async function assertAllowedAddress(smtpUrl: string, policy: OutboundPolicy): Promise<void> {
  if (smtpUrl === '') return;
  const { host, port } = smtpAddressOf(smtpUrl);
  if (net.isIP(host) === 0) return;
  try {
    await resolveOutbound(host, port, policy);
  } catch (error) {
    if (error instanceof OutboundRefusedError) failField('smtp_url', OUTBOUND_REFUSED);
    throw error;
  }
}

interface MailDeps {
  db: Db;
  env: Env;
  mailer: Mailer;
}

/**
 * Saves the settings; a new sender address is recorded in the same transaction, waiting for the link then mailed
 * to it. A link that could not leave does not undo the save: the answer says why, and « Renvoyer le lien » retries.
 */
export async function saveEmailSettings(
  deps: MailDeps,
  params: { organizationId: number; input: EmailSettings },
): Promise<{ messages: string; data: EmailSettings }> {
  const { organizationId, input } = params;
  await assertAllowedAddress(input.smtp_url, deps.env.outbound);
  const stored = await getEmailSettings(deps.db, organizationId);
  const settings = { ...input, smtp_url: restorePassword(input.smtp_url, stored.smtp_url) };
  const link = await deps.db.transaction().execute(async (trx) => {
    await upsertSettingValue(trx, { organizationId, key: EMAIL_KEY, value: JSON.stringify(settings) });
    return applySenderAddress(trx, { organizationId, previous: stored.sender_address, next: settings.sender_address });
  });
  const data = { ...settings, smtp_url: maskPassword(settings.smtp_url) };
  if (!link) return { messages: 'Mise à jour avec succès', data };
  const sent = await mailSenderConfirmation(deps, organizationId, link);
  return { messages: `Mise à jour avec succès. ${sent}`, data };
}

/** MAIL_FROM's bare address ('Facturier <no-reply@x.fr>' → 'no-reply@x.fr'). */
const addressOf = (from: string) => from.match(/<([^>]+)>/)?.[1] ?? from.trim();

/**
 * The From of an organisation's mail: its sender name (else its own name) on its confirmed sender address; without
 * one, on the SMTP login when its own server logs in with an e-mail address (most providers refuse any other
 * sender), else on MAIL_FROM's address.
 */
function senderOf(settings: EmailSettings, organizationName: string, mailFrom: string, confirmed: string | null): MailAddress {
  return { name: settings.sender_name || organizationName, address: confirmed ?? serverAddressOf(settings, mailFrom) };
}

/** The From address without a confirmed sender address of the organisation's own. */
function serverAddressOf(settings: EmailSettings, mailFrom: string): string {
  const login = settings.smtp_url ? decodeURIComponent(new URL(settings.smtp_url).username) : '';
  return login.includes('@') ? login : addressOf(mailFrom);
}

/** For error messages only: SMTP_URL is checked by its scheme alone, so it may not parse. */
function hostOf(smtpUrl: string): string {
  try {
    return new URL(smtpUrl).hostname;
  } catch {
    return '';
  }
}

/** The organisation's mailer and sender: its own SMTP server when set, else the server's (SMTP_URL or outbox). */
export async function organizationMailer(deps: MailDeps, organizationId: number) {
  const [settings, organizationName, confirmed, companyEmail] = await Promise.all([
    getEmailSettings(deps.db, organizationId),
    findOrganizationName(deps.db, { organizationId }),
    confirmedSenderAddress(deps.db, organizationId),
    organizationEmail(deps.db, organizationId),
  ]);
  const from = senderOf(settings, organizationName ?? '', deps.env.mailFrom, confirmed);
  const mailer = settings.smtp_url ? createMailerForUrl(settings.smtp_url, from, deps.env.outbound, deps.env.smtpTimeoutMs) : deps.mailer;
  const host = hostOf(settings.smtp_url || deps.env.smtpUrl || '');
  // Customers answer the business, never the no-reply address: the typed Reply-To, else the company's e-mail.
  const replyTo = settings.reply_to || companyEmail || undefined;
  return { settings, organizationName: organizationName ?? '', from, replyTo, mailer, host };
}

/** Where the typed sender address stands, for Paramètres → Envoi d'emails. */
export async function getSenderState(deps: Pick<MailDeps, 'db' | 'env'>, organizationId: number): Promise<SenderState> {
  const settings = await getEmailSettings(deps.db, organizationId);
  return senderState(deps.db, {
    organizationId,
    wanted: settings.sender_address,
    serverAddress: serverAddressOf(settings, deps.env.mailFrom),
  });
}

/** Says where mail that had no SMTP server to go through was left: the folder itself, to find it. */
export const outboxNote = (outboxDir: string) =>
  `aucun serveur SMTP n’est configuré, l’e-mail est déposé dans la boîte d’envoi du serveur (${outboxDir})`;

/**
 * Mails the confirmation link to the new sender address, from the From in use (the new one is not proven yet).
 * Answers a French sentence either way: a refusal is reported, not thrown, as what it follows is already saved.
 */
async function mailSenderConfirmation(deps: MailDeps, organizationId: number, link: { address: string; token: string }): Promise<string> {
  const { organizationName, from, mailer, host } = await organizationMailer(deps, organizationId);
  const url = senderConfirmationLink(deps.env.appUrl, link.token);
  try {
    await mailer.send({
      to: link.address,
      from,
      subject: `Confirmez l’adresse d’expédition ${deName(organizationName)} sur Facturier`,
      text: [
        'Bonjour,',
        '',
        `${organizationName} souhaite envoyer ses factures, devis et autres e-mails depuis l’adresse ${link.address} avec Facturier.`,
        'Pour confirmer que cette adresse est bien la vôtre, ouvrez ce lien :',
        url,
        '',
        `Ce lien est valable ${SENDER_LINK_HOURS} heures. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : aucun e-mail ne partira en votre nom.`,
      ].join('\n'),
    });
  } catch (error) {
    logger.error(`sender confirmation of organization ${organizationId} not mailed`, error);
    const why = mailer.outboxDir
      ? `la boîte d’envoi du serveur (${mailer.outboxDir}) n’a pas pu être écrite`
      : smtpFailureMessage(error, host);
    return `Le lien de confirmation n’est pas parti : ${why}. Corrigez puis cliquez sur « Renvoyer le lien ».`;
  }
  const once = 'les e-mails partiront de cette adresse une fois le lien ouvert.';
  if (mailer.outboxDir)
    return `Aucun serveur SMTP n’est configuré : le lien de confirmation pour ${link.address} est déposé dans la boîte d’envoi du serveur (${mailer.outboxDir}) ; ${once}`;
  return `Un lien de confirmation a été envoyé à ${link.address} : ${once}`;
}

/** « Renvoyer le lien »: a fresh link for the address still waiting; the previous link no longer works. */
export async function resendSenderConfirmation(deps: MailDeps, organizationId: number): Promise<{ messages: string; data: SenderState }> {
  const state = await getSenderState(deps, organizationId);
  if (state.status === 'none') fail('BAD_REQUEST', 'Saisissez d’abord une adresse d’expédition et enregistrez-la');
  if (state.status === 'confirmed') fail('CONFLICT', `L’adresse d’expédition ${state.address} est déjà confirmée`);
  const link = await deps.db.transaction().execute((trx) => newSenderToken(trx, organizationId, state.address));
  const messages = await mailSenderConfirmation(deps, organizationId, link);
  return { messages, data: await getSenderState(deps, organizationId) };
}

/** Sends the invoice template, rendered with sample values, to the user's own address. A refusal is a 502. */
export async function sendTestEmail(deps: MailDeps, params: { organizationId: number; userId: number }): Promise<string> {
  const user = await getUserContact(deps.db, { userId: params.userId });
  if (!user) return fail('NOT_FOUND', 'Utilisateur introuvable');
  const { settings, organizationName, from, replyTo, mailer, host } = await organizationMailer(deps, params.organizationId);
  const values = sampleEmailValues('invoice', { organizationName, link: `${deps.env.appUrl}/share/3f6c1a52-8d3e-4b7a-9f0e-2c4d5e6f7a8b` });
  const template = settings.templates.invoice;
  const intro = `Ceci est un e-mail de test envoyé depuis Facturier (Paramètres → Envoi d'emails). Voici votre modèle « ${EMAIL_TEMPLATE_LABELS.invoice} » avec des valeurs d’exemple :`;
  try {
    await mailer.send({
      to: user.email,
      from,
      replyTo,
      subject: `[Test] ${renderEmailTemplate(template.subject, values)}`,
      text: `${intro}\n\n----------\n\n${renderEmailTemplate(template.body, values)}\n`,
    });
  } catch (error) {
    if (mailer.outboxDir) throw error; // writing the outbox failed: our fault, a 500
    logger.error(`test mail of organization ${params.organizationId} refused by ${host}`, error);
    fail('BAD_GATEWAY', smtpFailureMessage(error, host));
  }
  if (mailer.outboxDir) return `E-mail de test pour ${user.email} : ${outboxNote(mailer.outboxDir)}`;
  return `E-mail de test envoyé à ${user.email}`;
}
