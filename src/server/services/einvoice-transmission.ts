import type { Db } from '../db/connection';
import { parisDateOf } from '../../shared/paris-date';
import { formatDateShort } from '../../shared/format';
import { FLOW_STATES, reasonInFrench, type FlowState } from '../../shared/einvoice-flows';
import { LIFECYCLE_STATUSES, LIFECYCLE_STATUS_KEYS, type LifecycleStatus } from '../../shared/einvoice-lifecycle';
import type { DocumentEinvoice, FlowReason, Transmission } from '../../shared/schemas/einvoice-lifecycle';
import { findFlowOfDocument, type FlowRow } from '../db/queries/einvoice-flows';
import { listLifecycleRows } from '../db/queries/einvoice';

/** How a document's submission to the platform's API reads: its row mapped once, for every answer that shows it. */

function reasonsOf(row: FlowRow): FlowReason[] {
  let raw: unknown;
  try {
    raw = JSON.parse(row.reasons);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.map((r: { code?: unknown; message?: unknown; item?: unknown; level?: unknown }) => {
    const reason = { code: String(r.code ?? ''), message: String(r.message ?? '') };
    return {
      code: reason.code,
      platform_message: reason.message,
      item: String(r.item ?? ''),
      level: r.level === 'Warning' ? 'Warning' : 'Error',
      message: reasonInFrench(reason),
    };
  });
}

const isState = (s: string): s is FlowState => s in FLOW_STATES;

/** The submission as answered: the raw reason codes kept, each with its French meaning. */
export function transmissionOf(row: FlowRow): Transmission {
  const state = isState(row.state) ? row.state : 'pending';
  const ack = row.ack_status === 'Ok' || row.ack_status === 'Error' ? row.ack_status : 'Pending';
  return {
    state,
    state_label: FLOW_STATES[state],
    flow_id: row.flow_id,
    // A refusal at submission (HTTP 4xx) is an acknowledgement in error too, for whoever reads only this field.
    ack_status: state === 'error' ? 'Error' : ack,
    reasons: reasonsOf(row),
    error: row.last_error,
    attempts: row.attempts,
    next_attempt_at: state === 'pending' || state === 'submitted' ? row.next_attempt_at : null,
    submitted_at: row.submitted_at,
    acknowledged_at: row.acknowledged_at,
    syntax: row.syntax,
    profile: row.profile,
  };
}

const parisTime = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' });
const whenOf = (iso: string) => `le ${formatDateShort(parisDateOf(iso))} à ${parisTime.format(new Date(iso))}`;

/** One French sentence on where the submission stands, for the answer's `messages`. */
export function transmissionMessage(t: Transmission): string {
  const flow = t.flow_id ? ` (flux ${t.flow_id})` : '';
  switch (t.state) {
    case 'acknowledged':
      return `Déposée sur la plateforme agréée${flow}`;
    case 'submitted':
      return `Transmise à la plateforme agréée${flow}, en attente de son accusé de réception`;
    case 'error':
      return `Refusée par la plateforme agréée${flow} : ${t.reasons.map((r) => r.message).join(' ') || t.error}`;
    case 'to_resend':
      return `À renvoyer : ${t.error}`;
    default:
      return t.error && t.next_attempt_at
        ? `Pas encore transmise (${t.error}) : nouvel essai automatique ${whenOf(t.next_attempt_at)}`
        : 'En attente d’envoi à la plateforme agréée';
  }
}

const isStatus = (s: string): s is LifecycleStatus => (LIFECYCLE_STATUS_KEYS as readonly string[]).includes(s);

/**
 * What the document's own answer carries of its e-invoice in mode « Plateforme agréée »: the flow, its
 * acknowledgement and the lifecycle so far; null for a document never submitted through the API.
 */
export async function documentEinvoice(db: Db, organizationId: number, documentId: number): Promise<DocumentEinvoice | null> {
  const row = await findFlowOfDocument(db, { organizationId, documentId });
  if (!row) return null;
  const { state, flow_id, ack_status } = transmissionOf(row);
  const lifecycle = (await listLifecycleRows(db, { organizationId, documentId })).map((entry) => ({
    code: entry.code,
    label: isStatus(entry.status) ? LIFECYCLE_STATUSES[entry.status].label : entry.status,
    date: entry.date,
  }));
  return { state, flow_id, ack_status, lifecycle };
}
