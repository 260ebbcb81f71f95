import type { Db } from '../db/connection';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { canTransition, isLegalRecord, ISSUED_STATUS, paymentStatus, type StoredStatus } from '../../shared/document-status';
import { legalMentionTexts, missingMentions, sellerIdentity } from '../../shared/legal-mentions';
import { formatDocumentNumber } from '../../shared/numbering';
import { formatDateShort } from '../../shared/format';
import { statusLabel } from '../../shared/status';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { nextCounter } from '../db/queries/counters';
import { findDocumentItems, findDocumentRow, sumIssuedCredits, updateDocument } from '../db/queries/documents';
import { sumPayments } from '../db/queries/payments';
import { findCustomer } from '../db/queries/customers';
import { getAppSettings, getDocumentTemplate } from './settings';
import { getOrganizationProfile } from './organization';
import { customerSnapshotOf, getDocument, getDocumentRow, indexDocument, STALE, TYPE_NAMES, type DocumentRecord } from './documents';
import { formOfRow, fromUnits4, todayIso } from './document-record';

/**
 * An invoice's paid amount, what is left to pay and its status, from its payments and its issued credit notes:
 * run in the transaction that changed either. A credit note covering the whole invoice cancels it.
 */
export async function refreshInvoiceBalance(db: Db, organizationId: number, invoiceId: number): Promise<void> {
  const row = await findDocumentRow(db, { organizationId, id: invoiceId });
  if (!row || row.type !== 'invoice' || row.status === 'draft') return;
  const [paid, credited] = await Promise.all([
    sumPayments(db, { organizationId, documentId: invoiceId }),
    sumIssuedCredits(db, { organizationId, invoiceId }),
  ]);
  const due = row.total - row.deposits - credited;
  const status: StoredStatus = credited > 0 && credited >= row.total ? 'canceled' : paymentStatus(BigInt(paid), BigInt(due));
  await updateDocument(db, { organizationId, id: invoiceId, changes: { paid, amount_due: due - paid, status, updated_at: nowIso() } });
}

/** The series a document is numbered in: one per type; deposit invoices share the invoices' (CGI art. 242 nonies A). */
const seriesOf = (type: string) => `document:${type}`;

/**
 * Issues a draft: checks the legal mentions, takes the next number of its series in the same transaction as the
 * status change (no gap, no duplicate, even under concurrency: SQLite serialises write transactions), keeps a
 * snapshot of the seller and the customer as they are now, and the mentions printed on it.
 */
export async function issueDocument(db: Db, organizationId: number, id: number): Promise<DocumentRecord> {
  const row = await getDocumentRow(db, organizationId, id);
  if (row.status !== 'draft')
    fail(
      'CONFLICT',
      `${capitalize(TYPE_NAMES[row.type].the)} est déjà émis${DOCUMENT_TYPE_TABLE[row.type].feminine ? 'e' : ''} (n° ${row.number})`,
    );
  const [items, organization, settings, template, customer, corrects] = await Promise.all([
    findDocumentItems(db, { documentId: id }),
    getOrganizationProfile(db, organizationId),
    getAppSettings(db, organizationId),
    getDocumentTemplate(db, organizationId),
    row.customer_id ? findCustomer(db, { organizationId, id: row.customer_id }) : undefined,
    row.corrects_id ? findDocumentRow(db, { organizationId, id: row.corrects_id }) : undefined,
  ]);
  const form = formOfRow(row, items);
  const customerSnapshot = customer ? customerSnapshotOf(customer) : null;
  const mentionInput = {
    type: row.type,
    organization,
    settings,
    customer: customerSnapshot,
    date: row.date,
    maturity: row.maturity,
    items: form.items,
    corrects_number: corrects?.number ?? null,
    vat_exemption: form.vat_exemption,
    kind: row.kind,
  };
  const missing = missingMentions(mentionInput);
  if (missing.length > 0)
    fail(
      'BAD_REQUEST',
      missing.map((m) => `Mention obligatoire manquante : ${m}`),
    );
  if (isLegalRecord(row.type) && row.date > todayIso())
    fail('CONFLICT', 'Date : une facture ou un avoir ne s’émet pas à une date future, la numérotation est chronologique');
  if (row.type === 'invoice' && row.total < 0) fail('CONFLICT', 'Le total d’une facture ne peut être négatif : établissez plutôt un avoir');
  if (row.type === 'credit' && row.total <= 0) fail('CONFLICT', 'Le total d’un avoir doit être positif');

  await db.transaction().execute(async (trx) => {
    // Checked again inside the transaction that writes: a concurrent issue, edit or delete has either landed or waits.
    const fresh = await findDocumentRow(trx, { organizationId, id });
    if (!fresh || fresh.status !== 'draft' || fresh.updated_at !== row.updated_at) fail('CONFLICT', STALE);
    if (row.type === 'credit' && corrects) await assertCreditFits(trx, organizationId, corrects, row.total, row.id);
    if (row.kind === 'deposit' && row.origin_id) await assertDepositFits(trx, organizationId, row.origin_id, row.id);
    // Chronological numbering: an invoice may not be dated before the last one issued in its series.
    const latest = await trx
      .selectFrom('documents')
      .select(['date', 'number'])
      .where('organization_id', '=', organizationId)
      .where('type', '=', row.type)
      .where('number', 'is not', null)
      .orderBy('counter', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (latest && latest.date > row.date && (row.type === 'invoice' || row.type === 'credit')) {
      fail(
        'CONFLICT',
        `La date doit être postérieure ou égale à celle du dernier document émis (${latest.number}, ${formatDateShort(latest.date)}) : la numérotation est chronologique`,
      );
    }
    const counter = await nextCounter(trx, { organizationId, name: seriesOf(row.type) });
    const number = formatDocumentNumber(template.numbering[row.type], counter, {
      date: row.date,
      customer_id: customer?.number ?? row.customer_id,
      currency: row.currency,
      order: row.order_id,
    });
    const clash = await trx
      .selectFrom('documents')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('type', '=', row.type)
      .where('number', '=', number)
      .executeTakeFirst();
    if (clash)
      fail(
        'CONFLICT',
        `Le numéro ${number} est déjà pris : ajoutez {year} ou un préfixe distinct à la numérotation (Paramètres → Apparence)`,
      );
    await updateDocument(trx, {
      organizationId,
      id,
      expected: { status: 'draft', updated_at: row.updated_at },
      changes: {
        number,
        counter,
        status: ISSUED_STATUS[row.type],
        seller_snapshot: JSON.stringify({
          ...organization,
          identity: sellerIdentity(organization),
          settings: {
            late_penalty_rate: settings.late_penalty_rate,
            recovery_indemnity: settings.recovery_indemnity,
            escompte: settings.escompte,
          },
        }),
        customer_snapshot: customerSnapshot ? JSON.stringify(customerSnapshot) : null,
        legal_mentions: JSON.stringify(legalMentionTexts(mentionInput)),
        issued_at: nowIso(),
        updated_at: nowIso(),
      },
    });
    if (row.type === 'invoice') await refreshInvoiceBalance(trx, organizationId, id);
    if (row.type === 'credit' && corrects) await refreshInvoiceBalance(trx, organizationId, corrects.id);
  });
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
  invoice: { id: number; number: string | null; total: number; deposits: number },
  creditTotal: number,
  creditId?: number,
): Promise<void> {
  const already = await sumIssuedCredits(db, { organizationId, invoiceId: invoice.id, exceptId: creditId });
  const left = invoice.total - invoice.deposits - already;
  if (creditTotal > left) {
    fail(
      'CONFLICT',
      `L’avoir (${fromUnits4(creditTotal).toFixed(2).replace('.', ',')}) dépasse ce qui reste à créditer sur la facture ${invoice.number} (${fromUnits4(left).toFixed(2).replace('.', ',')})`,
    );
  }
}

/** The deposits issued on an estimate or order never add up to more than its total. */
async function assertDepositFits(db: Db, organizationId: number, originId: number, depositId: number): Promise<void> {
  const origin = await findDocumentRow(db, { organizationId, id: originId });
  if (!origin) return;
  const issued = await db
    .selectFrom('documents')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), eb.val(0)).as('sum'))
    .where('organization_id', '=', organizationId)
    .where('origin_id', '=', originId)
    .where('kind', '=', 'deposit')
    .where((eb) => eb.or([eb('number', 'is not', null), eb('id', '=', depositId)]))
    .where('status', '!=', 'canceled')
    .executeTakeFirstOrThrow();
  if (Number(issued.sum) > origin.total) fail('CONFLICT', `Les acomptes dépasseraient le total du document d’origine (${origin.number})`);
}

const capitalize = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

/** A status asked for by hand, along MANUAL_TRANSITIONS (shared/document-status.ts); anything else is a 409. */
export async function changeStatus(db: Db, organizationId: number, id: number, to: StoredStatus): Promise<DocumentRecord> {
  const row = await getDocumentRow(db, organizationId, id);
  const from = row.status as StoredStatus;
  if (!canTransition(row.type, from, to)) {
    fail('CONFLICT', `Passage impossible de « ${statusLabel(from)} » à « ${statusLabel(to)} » pour ${TYPE_NAMES[row.type].a}`);
  }
  await updateDocument(db, { organizationId, id, changes: { status: to, updated_at: nowIso() } });
  return getDocument(db, organizationId, id);
}

/** Records that the document went to the customer (sent by e-mail or downloaded for them): 'Envoyé'. */
export async function markSent(db: Db, organizationId: number, id: number): Promise<DocumentRecord> {
  const row = await getDocumentRow(db, organizationId, id);
  if (row.status === 'draft') fail('CONFLICT', 'Émettez le document avant de l’envoyer : un brouillon n’a pas de numéro');
  if (!row.sent_at) await updateDocument(db, { organizationId, id, changes: { sent_at: nowIso(), updated_at: nowIso() } });
  return getDocument(db, organizationId, id);
}
