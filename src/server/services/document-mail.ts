import type { Db } from '../db/connection';
import type { Env } from '../env';
import type { Mailer } from '../mail/mailer';
import type { PdfDeps } from '../pdf/document-pdf';
import { documentPdfFile } from './document-pdf-file';
import { smtpFailureMessage } from '../mail/smtp-errors';
import { findCustomer } from '../db/queries/customers';
import { DOCUMENT_TYPE_WORDS, renderEmailTemplate, type EmailValues } from '../../shared/email-template';
import { DOCUMENT_TYPE_TABLE, pdfFileName } from '../../shared/document-types';
import { capitalize, formatDateShort, formatMoney } from '../../shared/format';
import type { StoredDocument } from '../../shared/schemas/document-model';
import type { MailDraft, SendDocumentInput } from '../../shared/schemas/document-mail';
import { fail } from '../errors';
import { logger } from '../logger';
import { getStoredDocument } from './documents';
import { getAppSettings } from './settings';
import { organizationMailer } from './email-settings';
import { markSent } from './document-lifecycle';

export interface DocumentMailDeps {
  db: Db;
  env: Env;
  mailer: Mailer;
  pdf: PdfDeps;
}

const NOT_ISSUED = 'Émettez le document avant de l’envoyer : un brouillon n’a pas de numéro';

/** The public page of a document, the link every mail carries. */
export const shareLink = (env: Env, doc: Pick<StoredDocument, 'uuid'>) => `${env.appUrl}/share/${doc.uuid}`;

/** The placeholders of Paramètres → Envoi d'emails, filled with this document's values. */
export async function templateValues(deps: DocumentMailDeps, doc: StoredDocument, organizationName: string): Promise<EmailValues> {
  const { currency_format } = await getAppSettings(deps.db, doc.organization_id);
  const money = (amount: number) => formatMoney(amount, currency_format, doc.currency);
  return {
    document_type: DOCUMENT_TYPE_WORDS[doc.type],
    document_number: doc.number ?? '',
    customer_name: doc.customer?.name || doc.customer_name,
    organization_name: doc.seller?.name || organizationName,
    total: money(doc.totals.total),
    amount_due: money(doc.totals.amount_due),
    date: formatDateShort(doc.date),
    due_date: doc.maturity ? formatDateShort(doc.maturity) : '',
    link: shareLink(deps.env, doc),
  };
}

/** The mail's text always carries the link to the public page, even when the sender wrote a message without it. */
export const withLink = (text: string, link: string) =>
  text.includes(link) ? text : `${text.trimEnd()}\n\nConsulter le document en ligne : ${link}`;

async function issuedDocument(db: Db, organizationId: number, id: number): Promise<StoredDocument> {
  const doc = await getStoredDocument(db, organizationId, id);
  if (doc.status === 'draft') fail('CONFLICT', NOT_ISSUED);
  return doc;
}

/** What the send dialog opens with: the template of the document's type, filled in; the customer's address and contacts. */
export async function mailDraft(deps: DocumentMailDeps, organizationId: number, id: number): Promise<MailDraft> {
  const doc = await issuedDocument(deps.db, organizationId, id);
  const [{ settings, organizationName }, customer] = await Promise.all([
    organizationMailer(deps, organizationId),
    doc.customer_id ? findCustomer(deps.db, { organizationId, id: doc.customer_id }) : undefined,
  ]);
  const values = await templateValues(deps, doc, organizationName);
  const template = settings.templates[doc.type];
  return {
    // The customer's address as it is now (a corrected address serves), else the one frozen at issue.
    to: customer?.email || doc.customer?.email || '',
    contacts: (customer?.contacts ?? []).filter((c) => c.email !== '').map(({ name, role, email }) => ({ name, role, email })),
    subject: renderEmailTemplate(template.subject, values),
    message: renderEmailTemplate(template.body, values),
    attachment: pdfFileName(doc.type, doc.kind, doc.number ?? ''),
    link: values.link ?? '',
  };
}

/** The SMTP server's own answer, when it gave one, so that the user reads why (e.g. "550 mailbox unavailable"). */
export function serverAnswer(error: unknown): string {
  const response = (error as { response?: unknown } | null)?.response;
  return typeof response === 'string' && response.trim() !== '' ? ` (réponse du serveur : « ${response.trim().slice(0, 200)} »)` : '';
}

/**
 * Mails an issued document with its PDF attached (the one kept for an invoice or credit note) through the
 * organisation's SMTP server or the server's, and only once the SMTP server accepted it marks the document sent.
 * A refusal or a timeout is a 502 that says why; nothing is marked.
 */
export async function sendDocument(
  deps: DocumentMailDeps,
  organizationId: number,
  id: number,
  input: SendDocumentInput,
): Promise<{ messages: string; sentTo: string[] }> {
  const doc = await issuedDocument(deps.db, organizationId, id);
  const { settings, organizationName, from, replyTo, mailer, host } = await organizationMailer(deps, organizationId);
  const values = await templateValues(deps, doc, organizationName);
  const template = settings.templates[doc.type];
  const subject = input.subject || renderEmailTemplate(template.subject, values);
  const body = input.message?.trim() ? input.message : renderEmailTemplate(template.body, values);
  const pdf = await documentPdfFile({ ...deps.pdf, db: deps.db, dataDir: deps.env.dataDir }, doc);
  const cc = (input.cc ?? []).filter((a) => !input.to.includes(a));
  try {
    await mailer.send({
      to: input.to,
      cc: cc.length > 0 ? cc : undefined,
      from,
      replyTo,
      subject,
      text: withLink(body, values.link ?? ''),
      attachments: [{ filename: pdfFileName(doc.type, doc.kind, doc.number ?? ''), content: pdf, contentType: 'application/pdf' }],
    });
  } catch (error) {
    if (mailer.outboxDir) throw error; // writing the outbox failed: our fault, a 500
    logger.error(`document ${doc.id} of organization ${organizationId} not mailed: refused by ${host}`, error);
    fail(
      'BAD_GATEWAY',
      `L’e-mail n’est pas parti : ${smtpFailureMessage(error, host)}${serverAnswer(error)}. Le document n’est pas marqué envoyé.`,
    );
  }
  await markSent(deps.db, organizationId, doc.id);
  const recipients = [...input.to, ...cc].join(', ');
  const what = `${capitalize(DOCUMENT_TYPE_TABLE[doc.type].mailNoun)} ${doc.number}`;
  const messages = mailer.outboxDir
    ? `${what} : aucun serveur SMTP n’est configuré, l’e-mail pour ${recipients} est déposé dans la boîte d’envoi du serveur (${mailer.outboxDir})`
    : `${what} envoyé${DOCUMENT_TYPE_TABLE[doc.type].article.startsWith('une') ? 'e' : ''} par e-mail à ${recipients}`;
  return { messages, sentTo: [...input.to, ...cc] };
}
