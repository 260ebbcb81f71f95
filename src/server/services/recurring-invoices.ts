import type { Db } from '../db/connection';
import { documentInputSchema, type DocumentForm } from '../../shared/schemas/document';
import type { DocumentAnswer } from '../../shared/schemas/document-model';
import type { RecurringInvoiceModel, RecurringInvoiceRecord } from '../../shared/schemas/recurring-invoice';
import { sendDocumentInputSchema } from '../../shared/schemas/document-mail';
import { frequencyLabel, nextOccurrence, occurrencesBetween } from '../../shared/recurrence';
import { fillPeriod } from '../../shared/recurring-period';
import { fail } from '../errors';
import { logger } from '../logger';
import {
  claimOccurrence,
  deleteRecurringInvoice,
  findRecurringInvoice,
  insertRecurringInvoice,
  listRecurringInvoices,
  runsOf,
  setRecurringInvoicePaused,
  updateRecurringInvoice,
  updateRun,
  type StoredRecurringInvoice,
} from '../db/queries/recurring-invoices';
import type { IssueArchiver } from './issue-archive';
import { assertCurrencyEnabled } from './currencies';
import { checkCustomer, checkTaxRules } from './document-defaults';
import { documentSave } from '../../shared/document-save';
import { getDocument, indexDocument, prepareDraft } from './documents';
import { issueDocument } from './document-lifecycle';
import { mailDraft, sendDocument, type DocumentMailDeps } from './document-mail';
import { addDays } from '../../shared/payment-terms';

/** What making an occurrence needs: the database, and for issuing and sending the archiver and the mailer. */
export interface RecurringDeps extends DocumentMailDeps {
  issueArchiver: IssueArchiver;
}

export const RECURRING_NOT_FOUND = 'Facture régulière introuvable';
const FINISHED = 'Cette facture régulière est terminée : il ne reste aucune facture à générer';

/** The invoice form an occurrence makes: the model dated `date`, its period placeholders filled for `occurrence`. */
function occurrenceForm(r: StoredRecurringInvoice, occurrence: string, date: string): DocumentForm {
  const fill = (text: string) => fillPeriod(text, occurrence, r.frequency);
  // Parsed as any form is: what belongs to the schedule (frequency, mode…) is not a document field and is dropped.
  return documentInputSchema.parse({
    ...r,
    type: 'invoice',
    date,
    maturity: r.payment_days === null ? undefined : addDays(date, r.payment_days),
    sale_date: null,
    order_id: null,
    deposit_request: [],
    header: fill(r.header),
    note: fill(r.note),
    items: r.items.map((item) => ({ ...item, item: fill(item.item), description: fill(item.description) })),
  });
}

/** The model is checked as an invoice would be (customer of this organisation, currency, taxes); answers its total. */
async function checkModel(db: Db, organizationId: number, input: RecurringInvoiceModel): Promise<number> {
  const customer = await checkCustomer(db, organizationId, input.customer_id);
  if (!customer) fail('BAD_REQUEST', 'Client : choisissez le client à facturer');
  await assertCurrencyEnabled(db, organizationId, input.currency);
  const form = { ...input, type: 'invoice', date: input.start_date, deposit_request: [] } as DocumentForm;
  const rules = await checkTaxRules(db, organizationId, form, { mirrors: false });
  return documentSave(form, { vat: rules.vat }).totals.total;
}

async function answerOf(db: Db, organizationId: number, list: StoredRecurringInvoice[]): Promise<RecurringInvoiceRecord[]> {
  const runs = await runsOf(db, { organizationId, recurringIds: list.map((r) => r.id) });
  return list.map((r) => {
    const own = runs.filter((run) => run.recurring_id === r.id);
    const { organization_id: _o, ...fields } = r;
    return {
      ...fields,
      label: r.items[0]?.item || r.items[0]?.description || '',
      frequency_label: frequencyLabel(r),
      next_date: nextOccurrence(r, r.generated_until),
      last_generated_at: own.reduce<string | null>((last, run) => (last && last > run.created_at ? last : run.created_at), null),
      documents_count: own.filter((run) => run.document_id !== null).length,
      runs: own.map(({ recurring_id: _r, ...run }) => run),
    };
  });
}

export async function getRecurringInvoice(db: Db, organizationId: number, id: number): Promise<RecurringInvoiceRecord> {
  const found = await findRecurringInvoice(db, { organizationId, id });
  if (!found) fail('NOT_FOUND', RECURRING_NOT_FOUND);
  const [answer] = await answerOf(db, organizationId, [found]);
  if (!answer) fail('NOT_FOUND', RECURRING_NOT_FOUND);
  return answer;
}

export async function listRecurringInvoiceModels(db: Db, organizationId: number) {
  const data = await answerOf(db, organizationId, await listRecurringInvoices(db, organizationId));
  return { total: data.length, data };
}

export async function createRecurringInvoice(db: Db, organizationId: number, input: RecurringInvoiceModel) {
  const total = await checkModel(db, organizationId, input);
  const id = await insertRecurringInvoice(db, { organizationId, model: input, total });
  return getRecurringInvoice(db, organizationId, id);
}

/** The invoices already made stay as they are; a new model or schedule applies to the occurrences still to come. */
export async function editRecurringInvoice(db: Db, organizationId: number, id: number, input: RecurringInvoiceModel) {
  await getRecurringInvoice(db, organizationId, id);
  const total = await checkModel(db, organizationId, input);
  await updateRecurringInvoice(db, { organizationId, id, model: input, total });
  return getRecurringInvoice(db, organizationId, id);
}

/**
 * Resuming skips the occurrences that fell while paused (a paused subscription is not billed afterwards for the
 * months it was off): the mark moves to the last occurrence before `today`, so the schedule goes on from today.
 */
export async function pauseRecurringInvoice(db: Db, organizationId: number, id: number, paused: boolean, today: string) {
  const found = await getRecurringInvoice(db, organizationId, id);
  await setRecurringInvoicePaused(db, { organizationId, id, paused });
  if (!paused && found.paused) {
    const yesterday = addDays(today, -1);
    const missed = occurrencesBetween(found, found.generated_until, yesterday).at(-1);
    if (missed)
      await db
        .updateTable('recurring_invoices')
        .set({ generated_until: missed })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .execute();
  }
  return getRecurringInvoice(db, organizationId, id);
}

export async function removeRecurringInvoice(db: Db, organizationId: number, id: number) {
  await getRecurringInvoice(db, organizationId, id);
  await deleteRecurringInvoice(db, { organizationId, id });
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Makes one occurrence into an invoice, at most once: its key (recurring_id, occurrence_date) is taken in the
 * transaction that writes the draft, so a second process or a second run writes nothing (null). Then, as the mode
 * says, it is issued through the documents' issue service (number, frozen record, PDF kept) and mailed to the
 * customer. A refusal to issue or to send is kept on the run and never retried into a duplicate: the invoice stays
 * what it became (a draft, or issued).
 */
export async function makeOccurrence(
  deps: RecurringDeps,
  r: StoredRecurringInvoice,
  occurrence: string,
  today: string,
): Promise<{ document: DocumentAnswer; messages: string } | null> {
  const { db } = deps;
  const organizationId = r.organization_id;
  const write = await prepareDraft(db, organizationId, occurrenceForm(r, occurrence, today));
  const made = await db.transaction().execute(async (trx) => {
    const runId = await claimOccurrence(trx, { organizationId, recurringId: r.id, date: occurrence, status: 'draft' });
    if (runId === null) return null;
    const documentId = await write(trx);
    await updateRun(trx, { id: runId, documentId });
    return { runId, documentId };
  });
  if (!made) return null;
  const { runId, documentId } = made;
  await indexDocument(db, organizationId, documentId);
  let messages = 'Brouillon de facture créé, à vérifier avant de l’émettre';
  if (r.mode !== 'draft') {
    try {
      const issued = await issueDocument(db, organizationId, documentId);
      deps.issueArchiver.afterIssue(organizationId, documentId);
      await updateRun(db, { id: runId, status: 'issued' });
      messages = `Facture ${issued.number} émise`;
    } catch (error) {
      await updateRun(db, { id: runId, error: `Non émise : ${errorText(error)}` });
      return { document: await getDocument(db, organizationId, documentId), messages: `Brouillon créé, non émis : ${errorText(error)}` };
    }
  }
  if (r.mode === 'issue_and_send') {
    try {
      // The mail attaches the PDF being kept at this issue, once it is written, rather than printing a second one.
      await deps.issueArchiver.settled();
      const draft = await mailDraft(deps, organizationId, documentId);
      if (!draft.to) fail('BAD_REQUEST', 'le client n’a pas d’adresse e-mail');
      const sent = await sendDocument(deps, organizationId, documentId, sendDocumentInputSchema.parse({ to: [draft.to] }));
      await updateRun(db, { id: runId, status: 'sent' });
      messages = sent.messages;
    } catch (error) {
      logger.info({ recurring: r.id, occurrence, error: errorText(error) });
      await updateRun(db, { id: runId, error: `Non envoyée : ${errorText(error)}` });
      messages = `${messages}, mais non envoyée : ${errorText(error)}`;
    }
  }
  return { document: await getDocument(db, organizationId, documentId), messages };
}

/** « Générer maintenant »: the next occurrence, made today as the mode says; the schedule then goes on after it. */
export async function generateNow(deps: RecurringDeps, organizationId: number, id: number, today: string) {
  await getRecurringInvoice(deps.db, organizationId, id);
  const r = await findRecurringInvoice(deps.db, { organizationId, id });
  if (!r) fail('NOT_FOUND', RECURRING_NOT_FOUND);
  const next = nextOccurrence(r, r.generated_until);
  if (!next) fail('CONFLICT', FINISHED);
  const made = await makeOccurrence(deps, r, next, today);
  if (!made) fail('CONFLICT', 'Cette facture vient d’être générée par ailleurs : rechargez la page');
  return made;
}
