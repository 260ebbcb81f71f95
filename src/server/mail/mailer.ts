import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** Where unsent mail lands when no SMTP server is configured (`.eml` files), else null. */
  outboxDir: string | null;
}

/**
 * SMTP when SMTP_URL is set; otherwise nodemailer still builds the real RFC 822 message and we write it as an
 * .eml file under data/outbox/, where a developer opens it in any mail client.
 */
export function createMailer(config: { smtpUrl: string | undefined; from: string; dataDir: string }): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      outboxDir: null,
      async send(mail) {
        await transport.sendMail({ from: config.from, ...mail });
      },
    };
  }
  const outboxDir = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    outboxDir,
    async send(mail) {
      const info = await transport.sendMail({ from: config.from, ...mail });
      await fs.mkdir(outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`;
      await fs.writeFile(path.join(outboxDir, name), info.message as Buffer);
    },
  };
}
