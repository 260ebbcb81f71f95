import type { DocumentType, ListType } from './schemas/document';
import { byType, DOCUMENT_TYPE_TABLE, LIST_TABLE } from './document-types';

/** Status display map, plus the estimate/order outcomes of the documents issue. */
export const STATUSES = {
  paid: { label: 'Payée', color: 'green' },
  partial: { label: 'Partiellement', color: 'teal' },
  pending: { label: 'En attente', color: 'orange' },
  overdue: { label: 'Exigible', color: 'red' },
  unpaid: { label: 'Impayée', color: 'amber' },
  draft: { label: 'Brouillon', color: 'gray' },
  sent: { label: 'Envoyé', color: 'blue' },
  canceled: { label: 'Annulé', color: 'gray' },
  active: { label: 'Activé', color: 'green' },
  accepted: { label: 'Accepté', color: 'green' },
  refused: { label: 'Refusé', color: 'red' },
  converted: { label: 'Converti', color: 'purple' },
  done: { label: 'Terminé', color: 'green' },
  /** A list filter, not a stored status: invoices still to be paid (unpaid or partly paid). */
  open: { label: 'À encaisser', color: 'amber' },
} as const satisfies Record<string, { label: string; color: string }>;
export type StatusCode = keyof typeof STATUSES;

/** Where a type names a status otherwise: an issued credit note waits for nothing (« Émis », not « En attente »). */
const TYPE_STATUS_LABELS: Partial<Record<DocumentType, Partial<Record<string, string>>>> = {
  credit: { pending: 'Émis', done: 'Soldé' },
};

export const statusLabel = (code: string, type?: DocumentType): string =>
  (type && TYPE_STATUS_LABELS[type]?.[code]) ?? (STATUSES as Record<string, { label: string }>)[code]?.label ?? code;

// Per-type labels, read off the one table (document-types.ts); these names stay for their many readers.
/** Editor title by type. */
export const EDITOR_TITLES: Record<ListType, string> = Object.fromEntries(
  Object.entries(LIST_TABLE).map(([type, info]) => [type, info.editorTitle]),
) as Record<ListType, string>;

/** One document of a type, for labels and menus ("Convertir en facture") and the search index. */
export const TYPE_LABELS: Record<DocumentType, { one: string; article: string }> = byType((t) => ({ one: t.one, article: t.article }));

/** Number label. */
export const NUMBER_LABELS: Record<DocumentType, string> = byType((t) => t.numberLabel);

/** Maturity label. */
export const maturityLabel = (type: DocumentType): string => DOCUMENT_TYPE_TABLE[type].maturityLabel;

/** The total amount is shown for these types only (not on delivery notes). */
export const showsTotal = (type: DocumentType): boolean => DOCUMENT_TYPE_TABLE[type].showsTotal;

/** Payment methods. */
export const PAYMENT_METHODS = {
  transfer: 'Virement bancaire',
  check: 'Chèque',
  card: 'Carte bancaire',
  cash: 'Espèces',
} as const;
export type PaymentMethod = keyof typeof PAYMENT_METHODS;

/** List bases. */
export const LIST_BASES: Record<ListType, string> = Object.fromEntries(
  Object.entries(LIST_TABLE).map(([type, info]) => [type, info.base]),
) as Record<ListType, string>;
