import type { DocumentType } from './schemas/document';
import { byType, DOCUMENT_TYPE_TABLE, type StoredStatus } from './document-types';

// The stored statuses sit beside the type table, which names them; re-exported here for their readers.
export { isStoredStatus, STORED_STATUSES, type StoredStatus } from './document-types';

/**
 * The status machine of each document type, enforced by the server and read by the screens to offer only the
 * actions that are allowed. `overdue` (Exigible) is never stored: it is an unpaid or partly paid invoice past
 * its maturity date, derived when read. `sent` (Envoyé) is recorded as `sent_at` beside the status.
 *
 * | type                | draft →  | then                                                            |
 * |---------------------|----------|-----------------------------------------------------------------|
 * | invoice             | unpaid   | unpaid ⇄ partial ⇄ paid by payments; unpaid/partial → canceled   |
 * |                     |          | by a credit note covering what is left                          |
 * | estimate, proforma  | pending  | pending → accepted / refused; accepted or refused → pending      |
 * |                     |          | (reopened); pending/accepted → converted by a conversion         |
 * | order, delivery     | pending  | pending ⇄ done; pending/done → converted by a conversion         |
 * | credit              | pending  | pending ⇄ done (refunded or set against an invoice)              |
 */

// The per-type facts below are read off the one table (document-types.ts).
/** The status a document takes when it is issued (leaves draft). */
export const ISSUED_STATUS: Record<DocumentType, StoredStatus> = byType((t) => t.issuedStatus);

/** Transitions a person asks for by hand (POST /api/documents/{id}/status). Payments and conversions move the rest. */
export const MANUAL_TRANSITIONS: Record<DocumentType, Partial<Record<StoredStatus, StoredStatus[]>>> = byType((t) => t.manualTransitions);

export const canTransition = (type: DocumentType, from: StoredStatus, to: StoredStatus): boolean =>
  MANUAL_TRANSITIONS[type][from]?.includes(to) ?? false;

/** What each type may be converted into (the documents issue §5); the new document keeps a link to its origin. */
export const CONVERSIONS: Record<DocumentType, DocumentType[]> = byType((t) => t.conversions);

/** Statuses from which a document may be converted (an issued one that is still live). */
export const CONVERTIBLE_FROM: Record<DocumentType, StoredStatus[]> = byType((t) => t.convertibleFrom);

/** Invoices and credit notes are legal records once issued (CGI art. 242 nonies A): never deleted, never re-priced. */
export const isLegalRecord = (type: DocumentType): boolean => DOCUMENT_TYPE_TABLE[type].legalRecord;

/** What can still be edited: drafts, and pending documents that are not legal records (the server refuses the rest). */
export const isEditable = (type: DocumentType, status: string): boolean =>
  status === 'draft' || (!isLegalRecord(type) && status === 'pending');

/** Payments are recorded on issued invoices that are still open or paid. */
export const PAYABLE_STATUSES: StoredStatus[] = ['unpaid', 'partial', 'paid'];

/** An invoice still to be paid, in whole or in part: what is owed, reminded, matched to a bank line, overdue. */
export const OPEN_STATUSES: StoredStatus[] = ['unpaid', 'partial'];
export const isOpenStatus = (status: string): boolean => (OPEN_STATUSES as readonly string[]).includes(status);

/** The types whose issued documents have an EN 16931 e-invoice: the ones the type table marks `einvoice`. */
export type EinvoiceType = 'invoice' | 'credit';
export const hasEinvoice = (type: DocumentType): type is EinvoiceType => DOCUMENT_TYPE_TABLE[type].einvoice;

/** The displayed status: an open invoice past its maturity date is overdue (Exigible). `today` is YYYY-MM-DD. */
export function effectiveStatus(
  doc: { type: DocumentType; status: StoredStatus; maturity: string | null },
  today: string,
): StoredStatus | 'overdue' {
  if (DOCUMENT_TYPE_TABLE[doc.type].receivesPayments && isOpenStatus(doc.status) && doc.maturity && doc.maturity < today) return 'overdue';
  return doc.status;
}

/** The invoice status that follows from what was paid: the payments decide, never a hand. */
export function paymentStatus(paidUnits: bigint, dueUnits: bigint): 'unpaid' | 'partial' | 'paid' {
  if (paidUnits <= 0n) return dueUnits <= 0n ? 'paid' : 'unpaid';
  return paidUnits >= dueUnits ? 'paid' : 'partial';
}

/** French labels of the manual actions, for buttons and messages. */
export const TRANSITION_LABELS: Partial<Record<StoredStatus, string>> = {
  accepted: 'Marquer accepté',
  refused: 'Marquer refusé',
  pending: 'Remettre en attente',
  done: 'Marquer terminé',
};

/** A credit note is not « en attente »: it is settled (refunded or set against an invoice) or not yet. */
const CREDIT_TRANSITION_LABELS: Partial<Record<StoredStatus, string>> = { pending: 'Marquer non soldé', done: 'Marquer soldé' };

export const transitionLabel = (to: StoredStatus, type: DocumentType): string =>
  (type === 'credit' ? CREDIT_TRANSITION_LABELS[to] : undefined) ?? TRANSITION_LABELS[to] ?? to;
