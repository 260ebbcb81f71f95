import { lockRow } from '../db/dialect';
import type { Db } from '../db/connection';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { canTransition, isLegalRecord, ISSUED_STATUS, paymentStatus, type StoredStatus } from '../../shared/document-status';
import { legalMentionTexts, missingMentions, sellerIdentity } from '../../shared/legal-mentions';
import { formatDocumentNumber } from '../../shared/numbering';
import { longPaymentTermWarning } from '../../shared/payment-terms';
import { capitalize, formatDateShort } from '../../shared/format';
import { statusLabel } from '../../shared/status';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { nextCounter, peekCounter } from '../db/queries/counters';
import { writeDocumentTaxes } from '../db/queries/document-taxes';
import { addToTurnoverDays } from '../db/queries/turnover-days';
import { findDocument, findLatestNumbered, findNumberHolder, updateDocument } from '../db/queries/documents';
import { sumDeposits, sumIssuedCredits } from '../db/queries/document-lists';
import { toUnits4, unitsToNumber } from '../../shared/money';
import { formatDecimal } from '../../shared/format';
import type { DocumentAnswer, StoredDocument } from '../../shared/schemas/document-model';
import { sumPayments } from '../db/queries/payments';
import { sumAllocatedToInvoice } from '../db/queries/credit-allocations';
import { settleCredit } from './credit-settlement';
import { findCustomer } from '../db/queries/customers';
import { findCurrencyRate } from '../db/queries/currencies';
import { getAppSettings, getDocumentTemplate } from './settings';
import { getOrganizationProfile } from './organization';
import { documentNature, getDocument, getStoredDocument, indexDocument, STALE } from './documents';
import { customerSnapshotOf } from './document-defaults';
import { todayIso } from './document-record';
import { DOCUMENT_MODIFIED } from '../../shared/schemas/document';
import { appendIssue } from './audit';
import { emitEvent } from './webhooks';
import { assertIssuedAsValidated, validateBeforeIssue } from './einvoice-xml';
import { syncCashedStatus } from './einvoice-lifecycle';
import { queueFlowOnIssue } from './einvoice-transmit';
import { kickFlowOutboxes } from './einvoice-outbox';
import { ownEndpointAtIssue } from './einvoice-own-directory';

/**
 * An invoice's paid amount, what is left to pay and its status, from its payments and the credit set against it: run in
 * the transaction that changed either. A credit note covering the whole invoice cancels it.
 */
export async function refreshInvoiceBalance(db: Db, organizationId: number, invoiceId: number): Promise<void> {
  const invoice = await findDocument(db, { organizationId, id: invoiceId });
  if (!invoice || !DOCUMENT_TYPE_TABLE[invoice.type].receivesPayments || invoice.status === 'draft') return;
  const [paidUnits, credited, allocated] = await Promise.all([
    sumPayments(db, { organizationId, documentId: invoiceId }),
    sumIssuedCredits(db, { organizationId, invoiceId }),
    sumAllocatedToInvoice(db, { organizationId, invoiceId }),
  ]);
  // Exact integer arithmetic on scale-4 units (shared/fixed.ts).
  const paid = BigInt(paidUnits);
  const total = toUnits4(invoice.totals.total);
  const creditedUnits = toUnits4(credited);
  // Only what was set against it (services/credit-settlement.ts), never more than was open: a credit note beyond what
  // is left to pay is available to the customer, not a negative amount due.
  const due = total - toUnits4(invoice.totals.deposits) - BigInt(allocated);
  const status: StoredStatus = creditedUnits > 0n && creditedUnits >= total ? 'canceled' : paymentStatus(paid, due);
  await updateDocument(db, {
    organizationId,
    id: invoiceId,
    changes: { balance: { paid: unitsToNumber(paid, 4), amount_due: unitsToNumber(due - paid, 4) }, status, updated_at: nowIso() },
  });
  // Encaissée follows the payments (recorded when fully paid, withdrawn when a reversal undoes it).
  await syncCashedStatus(db, organizationId, invoiceId, { status, paidUnits });
}

/** The series a document is numbered in: one per type; deposit invoices share the invoices' (CGI art. 242 nonies A). */
const seriesOf = (type: string) => `document:${type}`;

/**
 * Issues a draft: checks the legal mentions, takes the next number of its series in the same transaction as the
 * status change (no gap, no duplicate, even under concurrency: SQLite serialises write transactions), keeps a
 * snapshot of the seller and the customer as they are now, and the mentions printed on it.
 */
export async function issueDocument(
  db: Db,
  organizationId: number,
  id: number,
  options: { baseUpdatedAt?: string; userId?: number; confirmPaymentTerms?: boolean; dryRun?: boolean } = {},
): Promise<DocumentAnswer> {
  const { baseUpdatedAt, userId, confirmPaymentTerms, dryRun } = options;
  const doc = await getStoredDocument(db, organizationId, id);
  if (doc.status !== 'draft')
    fail(
      'CONFLICT',
      `${capitalize(DOCUMENT_TYPE_TABLE[doc.type].the)} est déjà émis${DOCUMENT_TYPE_TABLE[doc.type].feminine ? 'e' : ''} (n° ${doc.number})`,
    );
  // Save then issue issues what was just saved: not a version someone else saved in between (checked again below).
  if (baseUpdatedAt !== undefined && baseUpdatedAt !== doc.updated_at) fail('CONFLICT', DOCUMENT_MODIFIED);
  const [organization, settings, template, customer, corrects, nature, ownEndpoint] = await Promise.all([
    getOrganizationProfile(db, organizationId),
    getAppSettings(db, organizationId),
    getDocumentTemplate(db, organizationId),
    doc.customer_id ? findCustomer(db, { organizationId, id: doc.customer_id }) : undefined,
    doc.corrects_id ? findDocument(db, { organizationId, id: doc.corrects_id }) : undefined,
    documentNature(db, organizationId, doc),
    ownEndpointAtIssue(db, organizationId),
  ]);
  // The delivery address is frozen with the customer: what the invoice was sent with.
  const customerSnapshot = customer ? customerSnapshotOf(customer, doc.delivery_address) : null;
  const mentionInput = {
    type: doc.type,
    organization,
    settings,
    customer: customerSnapshot,
    date: doc.date,
    maturity: doc.maturity,
    items: doc.items,
    corrects_number: corrects?.number ?? null,
    vat_exemption: doc.vat_exemption,
    kind: doc.kind,
    nature,
  };
  const missing = missingMentions(mentionInput);
  if (missing.length > 0)
    fail(
      'BAD_REQUEST',
      missing.map((m) => `Mention obligatoire manquante : ${m}`),
    );
  // C. com. L441-10: a business customer's term past 60 days is issued only once the user confirmed it was agreed.
  const longTerm =
    doc.type === 'invoice'
      ? longPaymentTermWarning({ date: doc.date, maturity: doc.maturity, customerType: customerSnapshot?.type })
      : null;
  if (longTerm && !confirmPaymentTerms) fail('CONFLICT', `${longTerm}. Confirmez pour émettre.`);
  if (isLegalRecord(doc.type) && doc.date > todayIso())
    fail('CONFLICT', 'Date : une facture ou un avoir ne s’émet pas à une date future, la numérotation est chronologique');
  if (doc.type === 'invoice' && doc.totals.total < 0)
    fail('CONFLICT', 'Le total d’une facture ne peut être négatif : établissez plutôt un avoir');
  if (doc.type === 'credit' && doc.totals.total <= 0) fail('CONFLICT', 'Le total d’un avoir doit être positif');

  // Frozen from issue on: the parties and the mentions as printed (the lines and totals were stored at the last save).
  const frozen = {
    status: ISSUED_STATUS[doc.type],
    seller: {
      ...organization,
      // BT-34: the organisation's own directory line as read last, frozen as the customer's is.
      ...(ownEndpoint ?? {}),
      identity: sellerIdentity(organization),
      settings: {
        late_penalty_rate: settings.late_penalty_rate,
        recovery_indemnity: settings.recovery_indemnity,
        escompte: settings.escompte,
      },
    },
    customer: customerSnapshot,
    legal_mentions: legalMentionTexts(mentionInput),
    // The template in force now: a later change restyles documents issued afterwards, not this one.
    template,
  };
  const numberOf = (counter: number) =>
    formatDocumentNumber(template.numbering[doc.type], counter, {
      date: doc.date,
      customer_id: customer?.number ?? doc.customer_id,
      currency: doc.currency,
      order: doc.order_id,
    });
  // Kept so that reports and the FEC keep converting it as it was worth when issued: the rate the draft holds (a
  // credit note's is its invoice's), else the rate of the day in Paramètres → Devises.
  const exchangeRate = async (from: Db) =>
    doc.currency === settings.currency_format.currency
      ? '1'
      : (corrects?.exchange_rate ?? doc.exchange_rate ?? (await findCurrencyRate(from, { organizationId, code: doc.currency })) ?? null);
  // EN 16931 validation (seconds for thousands of lines) before the transaction, so that it holds no lock meanwhile.
  let validatedXml: string | undefined;
  if (isLegalRecord(doc.type) && !dryRun) {
    const counter = await peekCounter(db, { organizationId, name: seriesOf(doc.type) });
    const wouldBe: StoredDocument = { ...doc, ...frozen, number: numberOf(counter), counter, exchange_rate: await exchangeRate(db) };
    validatedXml = await validateBeforeIssue(db, organizationId, wouldBe);
  }

  let queued = false;
  await db.transaction().execute(async (trx) => {
    // Checked again inside the transaction that writes: a concurrent issue, edit or delete has either landed or waits
    // (on PostgreSQL, behind the row lock taken here).
    await lockRow(trx, 'documents', id);
    const fresh = await findDocument(trx, { organizationId, id });
    if (fresh?.status !== 'draft' || fresh.updated_at !== doc.updated_at) fail('CONFLICT', STALE);
    if (doc.type === 'credit' && corrects) await assertCreditFits(trx, organizationId, corrects, doc.totals.total, doc.id);
    if (doc.kind === 'deposit' && doc.origin_id) await assertDepositFits(trx, organizationId, doc.origin_id, doc.id);
    // Chronological numbering: an invoice may not be dated before the last one issued in its series.
    const latest = await findLatestNumbered(trx, { organizationId, type: doc.type });
    if (latest && latest.date > doc.date && isLegalRecord(doc.type)) {
      fail(
        'CONFLICT',
        `La date doit être postérieure ou égale à celle du dernier document émis (${latest.number}, ${formatDateShort(latest.date)}) : la numérotation est chronologique`,
      );
    }
    // A dry run (validate, then ask) stops before the number is taken: nothing is written.
    if (dryRun) return;
    const counter = await nextCounter(trx, { organizationId, name: seriesOf(doc.type) });
    const number = numberOf(counter);
    // Unique across every type of the organisation, not only within the series (CGI art. 242 nonies A).
    const holder = await findNumberHolder(trx, { organizationId, number });
    if (holder)
      fail(
        'CONFLICT',
        `Le numéro ${number} est déjà pris par ${DOCUMENT_TYPE_TABLE[holder.type].article} : ajoutez {year} ou un préfixe distinct à la numérotation (Paramètres → Apparence)`,
      );
    await updateDocument(trx, {
      organizationId,
      id,
      expected: { status: 'draft', updated_at: doc.updated_at },
      changes: { ...frozen, number, counter, exchange_rate: await exchangeRate(trx), issued_at: nowIso(), updated_at: nowIso() },
    });
    // What was just written must make the EN 16931 invoice validated above, or nothing of it commits.
    if (validatedXml !== undefined) await assertIssuedAsValidated(trx, organizationId, id, number, validatedXml);
    // Its VAT per rate as rows and its turnover added to its day, for the reports (migration 0038): with the number or
    // not at all.
    if (isLegalRecord(doc.type)) {
      await writeDocumentTaxes(trx, { organizationId, documentId: id });
      await addToTurnoverDays(trx, { organizationId, documentId: id });
    }
    if (DOCUMENT_TYPE_TABLE[doc.type].receivesPayments) await refreshInvoiceBalance(trx, organizationId, id);
    if (doc.type === 'credit') await settleCredit(trx, organizationId, id);
    // Logged in the issuing transaction, with the hash of the legal content as just stored.
    await appendIssue(trx, organizationId, id, userId);
    await emitEvent(trx, organizationId, 'document.issued', () => getDocument(trx, organizationId, id));
    // With the issue or not at all: an invoice issued to a French business through the platform's API is never left unsent.
    queued = await queueFlowOnIssue(trx, organizationId, { id, uuid: doc.uuid, type: doc.type, ...frozen });
  });
  if (queued) kickFlowOutboxes();
  if (dryRun) return getDocument(db, organizationId, id);
  await indexDocument(db, organizationId, id);
  return getDocument(db, organizationId, id);
}

/**
 * A credit note never credits more than what is left of the invoice after the other credit notes. A final invoice's
 * deposits were billed, and are credited, by their own deposit invoices.
 */
export async function assertCreditFits(
  db: Db,
  organizationId: number,
  invoice: { id: number; number: string | null; totals: { total: number; deposits: number } },
  creditTotal: number,
  creditId?: number,
): Promise<void> {
  const already = await sumIssuedCredits(db, { organizationId, invoiceId: invoice.id, exceptId: creditId });
  const left = toUnits4(invoice.totals.total) - toUnits4(invoice.totals.deposits) - toUnits4(already);
  if (toUnits4(creditTotal) > left) {
    fail(
      'CONFLICT',
      `L’avoir (${formatDecimal(creditTotal, 2)}) dépasse ce qui reste à créditer sur la facture ${invoice.number} (${formatDecimal(unitsToNumber(left, 4), 2)})`,
    );
  }
}

/** The deposits issued on an estimate or order never add up to more than its total. */
async function assertDepositFits(db: Db, organizationId: number, originId: number, depositId: number): Promise<void> {
  const origin = await findDocument(db, { organizationId, id: originId });
  if (!origin) return;
  const deposits = await sumDeposits(db, { organizationId, originId, includingId: depositId });
  if (toUnits4(deposits) > toUnits4(origin.totals.total))
    fail('CONFLICT', `Les acomptes dépasseraient le total du document d’origine (${origin.number})`);
}

/** A status asked for by hand, along MANUAL_TRANSITIONS (shared/document-status.ts); anything else is a 409. */
export async function changeStatus(db: Db, organizationId: number, id: number, to: StoredStatus): Promise<DocumentAnswer> {
  const doc = await getStoredDocument(db, organizationId, id);
  if (!canTransition(doc.type, doc.status, to)) {
    fail(
      'CONFLICT',
      `Passage impossible de « ${statusLabel(doc.status, doc.type)} » à « ${statusLabel(to, doc.type)} » pour ${DOCUMENT_TYPE_TABLE[doc.type].article}`,
    );
  }
  await updateDocument(db, { organizationId, id, changes: { status: to, updated_at: nowIso() } });
  return getDocument(db, organizationId, id);
}

/** Records that the document went to the customer (sent by e-mail or downloaded for them): 'Envoyé'. */
export async function markSent(db: Db, organizationId: number, id: number): Promise<DocumentAnswer> {
  const doc: StoredDocument = await getStoredDocument(db, organizationId, id);
  if (doc.status === 'draft') fail('CONFLICT', 'Émettez le document avant de l’envoyer : un brouillon n’a pas de numéro');
  // Only the first time: a document mailed again was already sent.
  if (!doc.sent_at)
    await db.transaction().execute(async (trx) => {
      await updateDocument(trx, { organizationId, id, changes: { sent_at: nowIso(), updated_at: nowIso() } });
      await emitEvent(trx, organizationId, 'document.sent', () => getDocument(trx, organizationId, id));
    });
  return getDocument(db, organizationId, id);
}
