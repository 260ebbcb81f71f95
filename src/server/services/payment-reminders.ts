import type { Db } from '../db/connection';
import { findSettingValue, upsertSettingValue } from '../db/queries/settings';
import { findCustomer } from '../db/queries/customers';
import {
  claimReminder,
  countReminderList,
  type DueSpanWindow,
  finishReminder,
  listProposedReminders,
  listReminderPage,
  listRemindableInvoices,
  listRemindersOf,
  type PaymentReminderRow,
} from '../db/queries/payment-reminders';
import { listOrganizationIds } from '../db/queries/organizations';
import { documentPdfFile } from './document-pdf-file';
import { smtpFailureMessage } from '../mail/smtp-errors';
import { renderEmailTemplate } from '../../shared/email-template';
import { DOCUMENT_TYPE_TABLE, pdfFileName } from '../../shared/document-types';
import { fromStoredUnits } from '../../shared/money';
import { daysBetween, dueStep, dueStepSpans, nextStep } from '../../shared/reminders';
import { addDays } from '../../shared/payment-terms';
import {
  defaultReminderSettings,
  offsetLabel,
  reminderSettingsSchema,
  type ReminderRecord,
  type ReminderRow,
  type ReminderSettings,
  type ReminderList,
  type ReminderListQuery,
  type ReminderStep,
} from '../../shared/schemas/reminders';
import { pageWindow } from '../../shared/schemas/filters';
import { customerPartySchema } from '../../shared/schemas/document-parties';
import { fail } from '../errors';
import { logger } from '../logger';
import { appendAudit } from './audit';
import { documentOf } from './pdf-archive';
import { getStoredDocument } from './documents';
import { todayIso } from './document-record';
import { organizationMailer } from './email-settings';
import { serverAnswer, templateValues, withLink, type DocumentMailDeps } from './document-mail';
import { plural, pluralWord } from '../../shared/french';
import { isOpenStatus } from '../../shared/document-status';

const SETTINGS_KEY = 'reminders';

export async function getReminderSettings(db: Db, organizationId: number): Promise<ReminderSettings> {
  const raw = await findSettingValue(db, { organizationId, key: SETTINGS_KEY });
  if (raw === undefined) return defaultReminderSettings();
  const parsed = reminderSettingsSchema.safeParse(JSON.parse(raw));
  if (parsed.success) return parsed.data;
  logger.error(`stored reminder settings of organization ${organizationId} no longer validate; defaults served`, parsed.error);
  return defaultReminderSettings();
}

export async function saveReminderSettings(db: Db, organizationId: number, input: ReminderSettings): Promise<ReminderSettings> {
  await upsertSettingValue(db, { organizationId, key: SETTINGS_KEY, value: JSON.stringify(input) });
  return input;
}

const recordOf = (row: PaymentReminderRow): ReminderRecord => ({
  id: row.id,
  document_id: row.document_id,
  step: row.step,
  status: row.status,
  trigger: row.trigger,
  recipients: row.recipients,
  subject: row.subject,
  error: row.error,
  attempts: row.attempts,
  sent_at: row.sent_at,
  updated_at: row.updated_at,
});

/** The days (from the due date) of the steps that are on. */
const enabledOffsets = (steps: readonly ReminderStep[]) => steps.filter((step) => step.enabled).map((step) => step.offset_days);

/** The reminders recorded on one invoice, step order. */
const remindersOfInvoice = async (db: Db, organizationId: number, documentId: number) =>
  (await listRemindersOf(db, { organizationId, documentIds: [documentId] })).get(documentId) ?? [];

/** Steps that count as done: sent, or being sent right now. A failed step is tried again. */
const doneSteps = (rows: PaymentReminderRow[]) => rows.filter((r) => r.status !== 'failed').map((r) => r.step);

type Remindable = Awaited<ReturnType<typeof listRemindableInvoices>>[number];

/** The address a reminder goes to: the customer's as it is now, else the one frozen at issue. */
function emailOf(invoice: Pick<Remindable, 'customer_email' | 'customer_snapshot'>): string {
  if (invoice.customer_email) return invoice.customer_email;
  if (!invoice.customer_snapshot) return '';
  const party = customerPartySchema.safeParse(JSON.parse(invoice.customer_snapshot));
  return party.success ? (party.data.email ?? '') : '';
}

/**
 * The most ids `proposed` holds: the first ones in list order (the most overdue first). The button sends them one by
 * one from the browser, then reloads the list, which offers the next ones: a click never starts thousands of mails,
 * and the answer stays small at any size.
 */
export const PROPOSED_AT_MOST = 100;

/** The settings' steps as due-date spans, for the database to count and page the list. */
export const dueSpanWindows = (steps: readonly ReminderStep[], today: string): DueSpanWindow[] =>
  dueStepSpans(steps).map(({ step, fromDaysLate, toDaysLate }) => ({
    offset: step.offset_days,
    maturityFrom: toDaysLate === null ? null : addDays(today, -toDaysLate),
    maturityTo: addDays(today, -fromDaysLate),
    proposed: step.mode === 'proposed',
  }));

/** One invoice of the Relances list, with its last reminder, the step to send now and the one after. */
function reminderRowOf(invoice: Remindable, own: PaymentReminderRow[], steps: readonly ReminderStep[], today: string): ReminderRow {
  const daysLate = daysBetween(invoice.maturity ?? today, today);
  const step = dueStep(steps, daysLate, doneSteps(own));
  const next = nextStep(steps, daysLate, doneSteps(own));
  const last = [...own].sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0];
  return {
    document_id: invoice.id,
    number: invoice.number ?? '',
    customer_name: invoice.customer_name,
    customer_email: emailOf(invoice),
    maturity: invoice.maturity ?? '',
    days_late: daysLate,
    amount_due: fromStoredUnits(invoice.amount_due),
    currency: invoice.currency,
    last_reminder: last ? recordOf(last) : null,
    due_step: step ? { offset_days: step.offset_days, mode: step.mode, label: offsetLabel(step.offset_days) } : null,
    next_step:
      next && invoice.maturity
        ? { offset_days: next.offset_days, label: offsetLabel(next.offset_days), date: addDays(invoice.maturity, next.offset_days) }
        : null,
  };
}

/**
 * A page of the Relances list: unpaid invoices past their due date, and those a step falls due for today (a reminder
 * before the due date), the most overdue first. The database counts the whole list and picks the page; only the
 * page's rows are built here, so the answer costs the same for ten open invoices as for a million.
 */
export async function listReminders(db: Db, organizationId: number, now: Date, query: ReminderListQuery): Promise<ReminderList> {
  const today = todayIso(now);
  const settings = await getReminderSettings(db, organizationId);
  const spans = dueSpanWindows(settings.steps, today);
  const { offset, limit } = pageWindow(query);
  const counts = await countReminderList(db, { organizationId, today, spans });
  const invoices = await listReminderPage(db, { organizationId, today, spans, offset, limit });
  const reminders = await listRemindersOf(db, { organizationId, documentIds: invoices.map((i) => i.id) });
  const proposed = await listProposedReminders(db, { organizationId, today, spans, limit: PROPOSED_AT_MOST });
  return {
    ...counts,
    // The database read the address from the snapshot's JSON; the check that builds the rows has the last word.
    proposed: proposed.filter((invoice) => emailOf(invoice) !== '').map((invoice) => invoice.id),
    data: invoices.map((invoice) => reminderRowOf(invoice, reminders.get(invoice.id) ?? [], settings.steps, today)),
  };
}

/** The reminders recorded on one invoice (its page). 404 for another organisation's document. */
export async function remindersOfDocument(db: Db, organizationId: number, documentId: number): Promise<ReminderRecord[]> {
  await getStoredDocument(db, organizationId, documentId);
  return (await remindersOfInvoice(db, organizationId, documentId)).map(recordOf);
}

const NOT_REMINDABLE = 'Seule une facture émise qui reste à payer peut être relancée';

/**
 * Sends the step due today for one invoice: its own template filled in, the PDF kept at issue attached, through the
 * organisation's SMTP or the server's. The (invoice, step) row is claimed first, so no step leaves twice; a mail the
 * SMTP server refuses is recorded as failed with why (tried again at a later run) and is never marked sent.
 */
export async function sendReminder(
  deps: DocumentMailDeps,
  organizationId: number,
  documentId: number,
  options: { trigger: 'automatic' | 'manual'; now: Date; userId?: number },
): Promise<{ messages: string; data: ReminderRecord }> {
  const doc = await getStoredDocument(deps.db, organizationId, documentId);
  if (!DOCUMENT_TYPE_TABLE[doc.type].receivesPayments || !isOpenStatus(doc.status) || doc.totals.amount_due <= 0)
    fail('CONFLICT', NOT_REMINDABLE);
  if (!doc.maturity) fail('CONFLICT', 'Cette facture n’a pas de date d’échéance : aucune relance n’est prévue');
  const settings = await getReminderSettings(deps.db, organizationId);
  const today = todayIso(options.now);
  const own = await remindersOfInvoice(deps.db, organizationId, documentId);
  const step = dueStep(settings.steps, daysBetween(doc.maturity, today), doneSteps(own));
  if (!step)
    fail(
      'CONFLICT',
      `Aucune relance n’est à envoyer aujourd’hui pour la facture ${doc.number} : la dernière étape due est déjà partie ou aucune n’est encore due`,
    );
  const customer = doc.customer_id ? await findCustomer(deps.db, { organizationId, id: doc.customer_id }) : undefined;
  const to = customer?.email || doc.customer?.email || '';
  if (!to) fail('CONFLICT', `Le client de la facture ${doc.number} n’a pas d’adresse e-mail : ajoutez-la sur sa fiche`);

  const nowIso = options.now.toISOString();
  const claimed = await claimReminder(deps.db, {
    organizationId,
    documentId,
    step: step.offset_days,
    trigger: options.trigger,
    now: nowIso,
  });
  if (!claimed) fail('CONFLICT', `La relance « ${offsetLabel(step.offset_days)} » de la facture ${doc.number} est déjà partie`);

  const { organizationName, from, replyTo, mailer, host } = await organizationMailer(deps, organizationId);
  const values = await templateValues(deps, doc, organizationName);
  const subject = renderEmailTemplate(step.subject, values);
  const failed = async (error: string) => {
    await finishReminder(deps.db, { id: claimed.id, status: 'failed', recipients: to, subject, error, sentAt: null, now: nowIso });
  };
  try {
    const pdf = await documentPdfFile({ ...deps.pdf, db: deps.db, dataDir: deps.env.dataDir }, doc);
    await mailer.send({
      to,
      from,
      replyTo,
      subject,
      text: withLink(renderEmailTemplate(step.body, values), values.link ?? ''),
      attachments: [{ filename: pdfFileName(doc.type, doc.kind, doc.number ?? ''), content: pdf, contentType: 'application/pdf' }],
    });
  } catch (error) {
    const reason = mailer.outboxDir
      ? `la boîte d’envoi du serveur n’a pas pu être écrite (${error instanceof Error ? error.message : String(error)})`
      : `${smtpFailureMessage(error, host)}${serverAnswer(error)}`;
    logger.error(`reminder ${step.offset_days} of document ${doc.id} (organization ${organizationId}) not mailed`, error);
    await failed(reason);
    fail('BAD_GATEWAY', `La relance n’est pas partie : ${reason}. Elle n’est pas marquée envoyée et sera retentée.`);
  }
  await deps.db.transaction().execute(async (trx) => {
    await finishReminder(trx, { id: claimed.id, status: 'sent', recipients: to, subject, error: '', sentAt: nowIso, now: nowIso });
    await appendAudit(
      trx,
      organizationId,
      'reminder',
      { document: documentOf(doc), reminder: { step: step.offset_days, trigger: options.trigger, recipients: to, subject } },
      options.userId,
    );
  });
  const row = (await remindersOfInvoice(deps.db, organizationId, documentId)).find((r) => r.id === claimed.id);
  const where = mailer.outboxDir
    ? ` (aucun serveur SMTP n’est configuré : déposée dans la boîte d’envoi du serveur, ${mailer.outboxDir})`
    : '';
  return { messages: `Relance de la facture ${doc.number} envoyée à ${to}${where}`, data: recordOf(row ?? claimed) };
}

/**
 * The scheduler's `payment-reminders` job: for every organisation, sends the automatic step due today of each unpaid
 * invoice (proposed steps wait for a click on the Relances list). A failure is recorded on its row and the run goes
 * on with the next invoice.
 */
export async function runPaymentReminders(deps: DocumentMailDeps, now: Date): Promise<string> {
  const today = todayIso(now);
  let sent = 0;
  let failures = 0;
  for (const organizationId of await listOrganizationIds(deps.db)) {
    const settings = await getReminderSettings(deps.db, organizationId);
    // Only an automatic step leaves without a click: none (the default), nothing to read; else only the invoices late
    // enough for the earliest of them (at 1,000,000 documents, reading them all held the server for seconds).
    const automatic = enabledOffsets(settings.steps.filter((step) => step.mode === 'automatic'));
    if (automatic.length === 0) continue;
    const maturityOnOrBefore = addDays(today, -Math.min(...automatic));
    const invoices = await listRemindableInvoices(deps.db, { organizationId, maturityOnOrBefore });
    const doneOf = await listRemindersOf(deps.db, { organizationId, documentIds: invoices.map((invoice) => invoice.id) });
    for (const invoice of invoices) {
      const step = dueStep(settings.steps, daysBetween(invoice.maturity ?? today, today), doneSteps(doneOf.get(invoice.id) ?? []));
      if (step?.mode !== 'automatic' || emailOf(invoice) === '') continue;
      try {
        await sendReminder(deps, organizationId, invoice.id, { trigger: 'automatic', now });
        sent += 1;
      } catch (error) {
        failures += 1;
        logger.info({ job: 'payment-reminders', document: invoice.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return `${plural(sent, 'relance')} ${pluralWord(sent, 'envoyée')}${failures > 0 ? `, ${plural(failures, 'échec')}` : ''}`;
}
