import type { DocumentType, ListType } from './schemas/document';

/** SPEC §4 status display map, plus the estimate/order outcomes of the documents issue. */
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

export const statusLabel = (code: string): string => (STATUSES as Record<string, { label: string }>)[code]?.label ?? code;

/** SPEC §2 editor title by type. */
export const EDITOR_TITLES: Record<ListType, string> = {
  invoice: 'Nouvelle facture',
  estimate: 'Nouveau devis',
  proforma: 'Créer une proforma',
  order: 'Créer un bon de commande',
  delivery: 'Créer un bon de livraison',
  credit: 'Créer un avoir',
  recurring: 'Créer une facture régulière',
};

/** One document of a type, for labels and menus ("Convertir en facture") and the search index. */
export const TYPE_LABELS: Record<DocumentType, { one: string; article: string }> = {
  invoice: { one: 'Facture', article: 'une facture' },
  estimate: { one: 'Devis', article: 'un devis' },
  proforma: { one: 'Proforma', article: 'une proforma' },
  order: { one: 'Bon de commande', article: 'un bon de commande' },
  delivery: { one: 'Bon de livraison', article: 'un bon de livraison' },
  credit: { one: 'Avoir', article: 'un avoir' },
};

/** SPEC §9 number label. */
export const NUMBER_LABELS: Record<DocumentType, string> = {
  invoice: 'Facture n°',
  estimate: 'Devis n°',
  proforma: 'Pro forma n°',
  order: 'Commande n°',
  delivery: 'Livraison n°',
  credit: 'Crédit n°',
};

/** SPEC §9 maturity label. */
export function maturityLabel(type: DocumentType): string {
  if (type === 'estimate' || type === 'proforma') return "Valide jusqu'au";
  if (type === 'delivery' || type === 'order') return 'Date de livraison';
  return "Date d'échéance";
}

/** SPEC §9: the total amount is shown for these types only (not on delivery notes). */
export const showsTotal = (type: DocumentType): boolean => type !== 'delivery';

/** SPEC §9 payment methods. */
export const PAYMENT_METHODS = {
  transfer: 'Virement bancaire',
  check: 'Chèque',
  card: 'Carte bancaire',
  cash: 'Espèces',
} as const;
export type PaymentMethod = keyof typeof PAYMENT_METHODS;

/** SPEC §2 list bases. */
export const LIST_BASES: Record<ListType, string> = {
  invoice: '/invoices',
  estimate: '/estimates',
  proforma: '/proformas',
  order: '/orders',
  delivery: '/deliveries',
  credit: '/credits',
  recurring: '/recurring',
};
