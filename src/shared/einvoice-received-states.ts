// Kept apart from their schema (schemas/einvoice-inbox.ts, which re-exports them): the expenses list marks the flows
// needing the user's eyes, and its first load carries no zod.

/**
 * What became of an incoming flow from the Plateforme Agréée: a supplier invoice made into an expense (or found already
 * imported, or unreadable), a lifecycle message recorded on the invoice it names (or naming none of ours).
 */
export const RECEIVED_STATES = {
  imported: 'Dépense créée',
  duplicate: 'Déjà importée',
  unreadable: 'Illisible',
  applied: 'Statut enregistré',
  unknown_invoice: 'Facture inconnue',
  not_applied: 'Statut non enregistré',
} as const;
export type ReceivedState = keyof typeof RECEIVED_STATES;
export const RECEIVED_STATE_KEYS = Object.keys(RECEIVED_STATES) as [ReceivedState, ...ReceivedState[]];

/** The states that need the user's eyes: nothing was made of the flow. */
export const RECEIVED_PROBLEMS: readonly ReceivedState[] = ['unreadable', 'unknown_invoice', 'not_applied'];
