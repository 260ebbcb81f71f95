import fs from 'node:fs/promises';
import path from 'node:path';
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { resolveOutbound, type OutboundPolicy } from '../net/outbound-guard';
import { withFrenchSpaces } from '../../shared/typography';
import { onFirstUse } from '../on-first-use';

const nodemailer = onFirstUse<typeof Nodemailer>('nodemailer');

export type MailAddress = string | { name: string; address: string };

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface OutgoingMail {
  /** One address, or several (a document sent to a customer and its contacts). */
  to: string | string[];
  cc?: string[];
  subject: string;
  text: string;
  attachments?: MailAttachment[];
  /** Defaults to MAIL_FROM. */
  from?: MailAddress;
  replyTo?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** Where unsent mail lands when no SMTP server is configured (`.eml` files), else null. */
  outboxDir: string | null;
}

/**
 * Every mail, the product's own wording and the organisation's templates alike, prints its signs as the screens and
 * the documents do: no line of a mail client starts with « : » or « € ». Addresses and links stay as written.
 */
const typeset = (mail: OutgoingMail): OutgoingMail => ({
  ...mail,
  subject: withFrenchSpaces(mail.subject),
  text: withFrenchSpaces(mail.text),
});

function smtpMailer(transport: () => Transporter, from: MailAddress): Mailer {
  return {
    outboxDir: null,
    async send(mail) {
      await transport().sendMail({ ...typeset(mail), from: mail.from ?? from });
    },
  };
}

/** The transport built on the first mail sent (nodemailer is loaded then), then kept. */
function once(build: () => Transporter): () => Transporter {
  let built: Transporter | undefined;
  return () => {
    built ??= build();
    return built;
  };
}

/**
 * SMTP when SMTP_URL is set; otherwise nodemailer still builds the real RFC 822 message and we write it as an
 * .eml file under data/outbox/, where a developer opens it in any mail client.
 */
export function createMailer(config: { smtpUrl: string | undefined; from: string; dataDir: string }): Mailer {
  const { smtpUrl } = config;
  if (smtpUrl)
    return smtpMailer(
      once(() => nodemailer().createTransport(smtpUrl)),
      config.from,
    );
  const outboxDir = path.join(config.dataDir, 'outbox');
  const transport = once(() => nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    outboxDir,
    async send(mail) {
      const info = await transport().sendMail({ ...typeset(mail), from: mail.from ?? config.from });
      await fs.mkdir(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`;
      await fs.writeFile(path.join(outboxDir, name), info.message as Buffer);
    },
  };
}

/** The server an SMTP URL names: its host (an IPv6 address without brackets), its port, and whether TLS comes first. */
export function smtpAddressOf(smtpUrl: string): { host: string; port: number; secure: boolean } {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : secure ? 465 : 587, secure };
}

/**
 * Transport options from an SMTP URL an organisation typed. Built field by field rather than handing nodemailer
 * the URL, whose query string could switch transports (`?sendmail=true&path=…` runs a program). Short timeouts
 * (SMTP_TIMEOUT_SECONDS): someone is waiting in front of the settings page.
 */
function smtpOptionsFromUrl(smtpUrl: string, timeoutMs: number): SMTPTransport.Options & { host: string; port: number } {
  const url = new URL(smtpUrl);
  return {
    ...smtpAddressOf(smtpUrl),
    auth: url.username || url.password ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: 2 * timeoutMs,
  };
}

/**
 * A mailer on an organisation's own SMTP server (Paramètres → Envoi d'emails): an address a user typed, so each send
 * first passes the outbound guard and then connects to the very IP the guard checked (TLS still verifies the name).
 */
export function createMailerForUrl(smtpUrl: string, from: MailAddress, policy: OutboundPolicy, timeoutMs: number): Mailer {
  const options = smtpOptionsFromUrl(smtpUrl, timeoutMs);
  return {
    outboxDir: null,
    async send(mail) {
      const address = await resolveOutbound(options.host, options.port, policy);
      const transport = nodemailer().createTransport({ ...options, host: address, tls: { servername: options.host } });
      await smtpMailer(() => transport, from).send(mail);
    },
  };
}
