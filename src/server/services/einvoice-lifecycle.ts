import type { Db } from '../db/connection';
import { formatDateShort } from '../../shared/format';
import { nowIso } from '../clock';
import { fail } from '../errors';
import {
  LIFECYCLE_STATUSES,
  LIFECYCLE_STATUS_KEYS,
  lifecycleConflict,
  lifecycleState,
  type LifecycleSource,
  type LifecycleStatus,
} from '../../shared/einvoice-lifecycle';
import type { LifecycleAnswer, LifecycleEntry } from '../../shared/schemas/einvoice-lifecycle';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { fromStoredUnits } from '../../shared/money';
import { hasEinvoice } from '../../shared/document-status';
import { findDocument } from '../db/queries/documents';
import { findSubmission, insertLifecycleRow, lastPaymentDate, listLifecycleRows, type LifecycleRow } from '../db/queries/einvoice';
import { appendAudit } from './audit';
import { findFlowOfDocument } from '../db/queries/einvoice-flows';
import { transmissionOf } from './einvoice-transmission';
import { documentNature, getStoredDocument } from './documents';
import { documentOf } from './pdf-archive';
import { todayIso } from './document-record';
import { queueCashedMessage } from './einvoice-status-out';

const isStatus = (s: string): s is LifecycleStatus => (LIFECYCLE_STATUS_KEYS as readonly string[]).includes(s);
const isSource = (s: string): s is LifecycleSource => s === 'platform' || s === 'user' || s === 'automatic';

function entryOf(row: LifecycleRow): LifecycleEntry {
  const status = isStatus(row.status) ? row.status : 'deposited';
  return {
    id: row.id,
    status,
    code: row.code,
    label: LIFECYCLE_STATUSES[status].label,
    date: row.date,
    reason: row.reason,
    source: isSource(row.source) ? row.source : 'platform',
    amount: row.amount === null ? null : fromStoredUnits(row.amount),
    created_at: row.created_at,
  };
}

/** Lifecycle statuses belong to issued invoices and credit notes: the documents that go through a platform. */
export async function lifecycleDocument(
  db: Db,
  organizationId: number,
  documentId: number,
): Promise<StoredDocument & { type: 'invoice' | 'credit' }> {
  const doc = await getStoredDocument(db, organizationId, documentId);
  if (!hasEinvoice(doc.type)) fail('CONFLICT', 'Seules les factures et les avoirs ont un cycle de vie de facture électronique');
  if (doc.status === 'draft') fail('CONFLICT', 'Émettez le document avant : un brouillon n’a pas de cycle de vie');
  return doc as StoredDocument & { type: 'invoice' | 'credit' };
}

async function entriesOf(db: Db, organizationId: number, documentId: number): Promise<LifecycleEntry[]> {
  return (await listLifecycleRows(db, { organizationId, documentId })).map(entryOf);
}

export async function getLifecycle(db: Db, organizationId: number, documentId: number): Promise<LifecycleAnswer> {
  await getStoredDocument(db, organizationId, documentId);
  const [data, submission, transmission] = await Promise.all([
    entriesOf(db, organizationId, documentId),
    findSubmission(db, { organizationId, documentId }),
    findFlowOfDocument(db, { organizationId, documentId }),
  ]);
  return {
    total: data.length,
    data,
    submission: submission ? { ...submission, xml_attached: submission.xml_attached === 1 } : null,
    transmission: transmission ? transmissionOf(transmission) : null,
  };
}

export interface StatusChange {
  status: LifecycleStatus;
  date: string;
  reason: string;
  source: LifecycleSource;
  amount?: number | null;
  /** The platform's id of the update it came from: recorded once. */
  platformUpdateId?: string;
}

/**
 * Appends one status to the document's history, in the caller's transaction, after checking it may follow (409 with
 * the reason otherwise), and logs it in the audit chain with it.
 */
export async function appendStatus(
  db: Db,
  doc: Pick<StoredDocument, 'id' | 'organization_id' | 'type' | 'number' | 'currency'> & { totals: { total: number } },
  change: StatusChange,
  userId?: number,
): Promise<number> {
  if (!hasEinvoice(doc.type)) fail('CONFLICT', 'Seules les factures et les avoirs ont un cycle de vie');
  const entries = await entriesOf(db, doc.organization_id, doc.id);
  const conflict = lifecycleConflict(lifecycleState(entries), change.status, doc.type);
  if (conflict) fail('CONFLICT', conflict);
  const { code } = LIFECYCLE_STATUSES[change.status];
  const id = await insertLifecycleRow(db, {
    organizationId: doc.organization_id,
    documentId: doc.id,
    values: {
      status: change.status,
      code,
      date: change.date,
      reason: change.reason,
      source: change.source,
      amount: change.amount ?? null,
      platform_update_id: change.platformUpdateId ?? null,
      user_id: userId ?? null,
      created_at: nowIso(),
    },
  });
  await appendAudit(
    db,
    doc.organization_id,
    'einvoice_status',
    {
      document: documentOf(doc),
      lifecycle: { status: change.status, code, date: change.date, source: change.source, reason: change.reason },
    },
    userId,
  );
  return id;
}

/** A status recorded by hand (what the customer said, or what the platform showed elsewhere). */
export async function recordManualStatus(
  db: Db,
  organizationId: number,
  documentId: number,
  input: { status: LifecycleStatus; date?: string; reason: string },
  userId?: number,
): Promise<LifecycleAnswer> {
  const doc = await lifecycleDocument(db, organizationId, documentId);
  const date = input.date ?? todayIso();
  if (date > todayIso()) fail('BAD_REQUEST', 'Date : un statut ne se déclare pas à une date future');
  if (date < doc.date) fail('BAD_REQUEST', 'Date : un statut ne précède pas la date de la facture');
  await db.transaction().execute(async (trx) => {
    await appendStatus(trx, doc, { status: input.status, date, reason: input.reason, source: 'user' }, userId);
  });
  return getLifecycle(db, organizationId, documentId);
}

/**
 * Encaissée follows the payments of an invoice whose VAT is due on receipt (CGI art. 269, 2-c: services, unless the
 * seller opted for débits): recorded when it becomes fully paid, and withdrawn by an "Encaissement annulé" entry when
 * a reversed payment leaves it not fully paid again. Only what was recorded automatically is withdrawn automatically:
 * an Encaissée declared by hand stands until the user says otherwise. Runs in the transaction that changed the balance.
 */
export async function syncCashedStatus(
  db: Db,
  organizationId: number,
  invoiceId: number,
  balance: { status: string; paidUnits: number },
  userId?: number,
): Promise<void> {
  const invoice = await findDocument(db, { organizationId, id: invoiceId });
  if (invoice?.type !== 'invoice' || invoice.status === 'draft') return;
  if (invoice.seller?.vat_on_debits) return;
  if ((await documentNature(db, organizationId, invoice)) === 'goods') return;
  const entries = await entriesOf(db, organizationId, invoiceId);
  const state = lifecycleState(entries);
  if (state.closed) return;
  const fullyPaid = balance.status === 'paid' && balance.paidUnits > 0;
  // Encaissée is dated by the payment that settled the invoice: the last of those still standing.
  const settled = fullyPaid ? ((await lastPaymentDate(db, { organizationId, documentId: invoiceId })) ?? todayIso()) : null;
  const cashed = async (date: string) => {
    const entry = await appendStatus(
      db,
      invoice,
      { status: 'cashed', date, reason: '', source: 'automatic', amount: balance.paidUnits },
      userId,
    );
    // An invoice the platform carried tells it too, in the same transaction (the outbox sends it after the commit).
    await queueCashedMessage(db, invoice, entry, date);
  };
  if (settled && !state.cashed) await cashed(settled);
  else if (settled && state.cashedBy === 'automatic' && entries.findLast((e) => e.status === 'cashed')?.date !== settled) {
    // A correction moved the settling payment to another day: the Encaissée recorded for the old one is withdrawn
    // and declared again at the right date.
    const reason = `Paiement corrigé : l’encaissement est du ${formatDateShort(settled)}`;
    await appendStatus(db, invoice, { status: 'cash_withdrawn', date: todayIso(), reason, source: 'automatic' }, userId);
    await cashed(settled);
  } else if (!fullyPaid && state.cashed && state.cashedBy === 'automatic') {
    const reason = 'Un paiement a été annulé : la facture n’est plus entièrement payée';
    await appendStatus(db, invoice, { status: 'cash_withdrawn', date: todayIso(), reason, source: 'automatic' }, userId);
  }
}
