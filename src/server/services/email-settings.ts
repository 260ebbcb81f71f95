import net from 'node:net';
import type { Db } from '../db/connection';
import type { Env } from '../env';
import { findSettingValue, upsertSettingValue } from '../db/queries/settings';
import { findOrganizationName } from '../db/queries/organizations';
import { getUserContact } from '../db/queries/users';
import { defaultEmailSettings, emailSettingsSchema, SMTP_PASSWORD_MASK, type EmailSettings } from '../../shared/schemas/email-settings';
import { EMAIL_TEMPLATE_LABELS, renderEmailTemplate, sampleEmailValues } from '../../shared/email-template';
import { createMailerForUrl, type MailAddress, type Mailer, smtpOptionsFromUrl } from '../mail/mailer';
import { OUTBOUND_REFUSED, OutboundRefusedError, type OutboundPolicy, resolveOutbound } from '../net/outbound-guard';
import { smtpFailureMessage } from '../mail/smtp-errors';
import { fail, failField } from '../errors';
import { logger } from '../logger';

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
  const { host, port } = smtpOptionsFromUrl(smtpUrl);
  if (net.isIP(host) === 0) return;
  try {
    await resolveOutbound(host, port, policy);
  } catch (error) {
    if (error instanceof OutboundRefusedError) failField('smtp_url', OUTBOUND_REFUSED);
    throw error;
  }
}

export async function saveEmailSettings(
  db: Db,
  params: { organizationId: number; input: EmailSettings; outbound: OutboundPolicy },
): Promise<EmailSettings> {
  const { organizationId, input } = params;
  await assertAllowedAddress(input.smtp_url, params.outbound);
  const stored = await getEmailSettings(db, organizationId);
  const settings = { ...input, smtp_url: restorePassword(input.smtp_url, stored.smtp_url) };
  await upsertSettingValue(db, { organizationId, key: EMAIL_KEY, value: JSON.stringify(settings) });
  return { ...settings, smtp_url: maskPassword(settings.smtp_url) };
}

/** MAIL_FROM's bare address ('Facturier <no-reply@x.fr>' → 'no-reply@x.fr'). */
const addressOf = (from: string) => from.match(/<([^>]+)>/)?.[1] ?? from.trim();

/**
 * The From of an organisation's mail: its sender name (else its own name) on MAIL_FROM's address, or on the SMTP
 * login when its own server logs in with an e-mail address, as most providers refuse any other sender.
 */
function senderOf(settings: EmailSettings, organizationName: string, mailFrom: string): MailAddress {
  const login = settings.smtp_url ? decodeURIComponent(new URL(settings.smtp_url).username) : '';
  return { name: settings.sender_name || organizationName, address: login.includes('@') ? login : addressOf(mailFrom) };
}

/** For error messages only: SMTP_URL is checked by its scheme alone, so it may not parse. */
function hostOf(smtpUrl: string): string {
  try {
    return new URL(smtpUrl).hostname;
  } catch {
    return '';
  }
}

interface MailDeps {
  db: Db;
  env: Env;
  mailer: Mailer;
}

/** The organisation's mailer and sender: its own SMTP server when set, else the server's (SMTP_URL or outbox). */
export async function organizationMailer(deps: MailDeps, organizationId: number) {
  const [settings, organizationName] = await Promise.all([
    getEmailSettings(deps.db, organizationId),
    findOrganizationName(deps.db, { organizationId }),
  ]);
  const from = senderOf(settings, organizationName ?? '', deps.env.mailFrom);
  const mailer = settings.smtp_url ? createMailerForUrl(settings.smtp_url, from, deps.env.outbound) : deps.mailer;
  const host = hostOf(settings.smtp_url || deps.env.smtpUrl || '');
  return { settings, organizationName: organizationName ?? '', from, mailer, host };
}

/** Sends the invoice template, rendered with sample values, to the user's own address. A refusal is a 502. */
export async function sendTestEmail(deps: MailDeps, params: { organizationId: number; userId: number }): Promise<string> {
  const user = await getUserContact(deps.db, { userId: params.userId });
  if (!user) return fail('NOT_FOUND', 'Utilisateur introuvable');
  const { settings, organizationName, from, mailer, host } = await organizationMailer(deps, params.organizationId);
  const values = sampleEmailValues('invoice', { organizationName, link: `${deps.env.appUrl}/share/3f6c1a52-8d3e-4b7a-9f0e-2c4d5e6f7a8b` });
  const template = settings.templates.invoice;
  const intro = `Ceci est un e-mail de test envoyé depuis Facturier (Paramètres → Envoi d'emails). Voici votre modèle « ${EMAIL_TEMPLATE_LABELS.invoice} » avec des valeurs d’exemple :`;
  try {
    await mailer.send({
      to: user.email,
      from,
      replyTo: settings.reply_to || undefined,
      subject: `[Test] ${renderEmailTemplate(template.subject, values)}`,
      text: `${intro}\n\n----------\n\n${renderEmailTemplate(template.body, values)}\n`,
    });
  } catch (error) {
    if (mailer.outboxDir) throw error; // writing the outbox failed: our fault, a 500
    logger.error(`test mail of organization ${params.organizationId} refused by ${host}`, error);
    fail('BAD_GATEWAY', smtpFailureMessage(error, host));
  }
  return `E-mail de test envoyé à ${user.email}`;
}
