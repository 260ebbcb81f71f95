import { z } from 'zod';
import { RECEIVED_STATE_KEYS } from '../einvoice-received-states';

export {
  RECEIVED_PROBLEMS,
  RECEIVED_STATE_KEYS,
  RECEIVED_STATES,
  type ReceivedState,
} from '../einvoice-received-states';

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
