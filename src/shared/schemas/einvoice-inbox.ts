import { z } from 'zod';

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

export const receivedFlowSchema = z.object({
  id: z.number().int(),
  flow_id: z.string(),
  /**
   * 'invoice': a supplier's invoice; 'status': a lifecycle message about one of the organisation's invoices; 'report':
   * the platform's answer to one of its e-reporting flows.
   */
  kind: z.enum(['invoice', 'status', 'report']),
  name: z.string(),
  state: z.enum(RECEIVED_STATE_KEYS),
  state_label: z.string(),
  /** Why nothing (or not everything) was made of it, in French; '' when all went well. */
  reason: z.string(),
  expense_id: z.number().int().nullable(),
  document_id: z.number().int().nullable(),
  document_number: z.string().nullable(),
  /** 'invoice' or 'credit': where the document's page is. */
  document_type: z.enum(['invoice', 'credit']).nullable(),
  /** A lifecycle message's status code (200 … 213) and its label. */
  status_code: z.number().int().nullable(),
  status_label: z.string().nullable(),
  received_at: z.string(),
});
export type ReceivedFlow = z.infer<typeof receivedFlowSchema>;

export const inboxSchema = z.object({
  /** Whether the organisation reaches its platform through the API (« Synchroniser » has something to do). */
  connected: z.boolean(),
  last_sync_at: z.string().nullable(),
  /** Why the last synchronisation stopped, in French; '' when it went through. */
  last_error: z.string(),
  data: z.array(receivedFlowSchema),
});
export type Inbox = z.infer<typeof inboxSchema>;

/** What one synchronisation did: expenses created, statuses recorded, flows that need the user. */
export const syncReportSchema = z.object({
  invoices: z.number().int(),
  statuses: z.number().int(),
  errors: z.number().int(),
  duplicates: z.number().int(),
});
export type SyncReport = z.infer<typeof syncReportSchema>;
