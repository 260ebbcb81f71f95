import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { fail } from '../errors';
import { countryCode } from '../../shared/countries';
import { normalizeSiren } from '../../shared/identifiers';
import { parisDateOf } from '../../shared/paris-date';
import { formatDateShort } from '../../shared/format';
import { FLOW_STATES, reasonInFrench, type FlowState } from '../../shared/einvoice-flows';
import type { StoredDocument } from '../../shared/schemas/document-model';
import type { FlowReason, Transmission } from '../../shared/schemas/einvoice-lifecycle';
import { findFlowOfDocument, insertFlow, makeFlowDueNow, type FlowRow } from '../db/queries/einvoice-flows';
import { getEinvoicingSettings } from './einvoicing-settings';
import { lifecycleDocument } from './einvoice-lifecycle';
import type { FlowOutbox } from './einvoice-outbox';

const siren = (value: string | undefined) => normalizeSiren(value ?? '').slice(0, 9);

/**
 * Why a document does not go to the platform as an e-invoice, or null: the reform's e-invoicing covers sales between
 * businesses established in France, identified by their SIREN (sales to individuals and abroad are e-reported).
 */
export function flowRecipientProblem(doc: Pick<StoredDocument, 'seller' | 'customer'>): string | null {
  if (!/^\d{9}$/.test(siren(doc.seller?.siret)))
    return 'Votre SIREN manque sur la facture émise : la plateforme ne peut pas l’acheminer (Paramètres → Entreprise)';
  const customer = doc.customer;
  if (!customer || customer.type === 'individual' || !/^\d{9}$/.test(siren(customer.business_id)))
    return 'Ce client n’a pas de SIREN : une vente à un particulier relève du e-reporting, pas du dépôt sur la plateforme';
  if (countryCode(customer.address?.country ?? '') !== 'FR')
    return 'Ce client n’est pas établi en France : une vente à l’étranger relève du e-reporting, pas du dépôt sur la plateforme';
  return null;
}

/**
 * In the issuing transaction: queues the submission of an invoice or credit note to a French business when the
 * organisation reaches its platform through the API. Written with the issue, so an issued invoice is never left
 * unsent by a crash in between; the outbox sends it after the commit. True when queued.
 */
export async function queueFlowOnIssue(
  trx: Db,
  organizationId: number,
  doc: Pick<StoredDocument, 'id' | 'uuid' | 'type' | 'seller' | 'customer'>,
): Promise<boolean> {
  if (doc.type !== 'invoice' && doc.type !== 'credit') return false;
  if ((await getEinvoicingSettings(trx, organizationId)).mode !== 'afnor') return false;
  if (flowRecipientProblem(doc) !== null) return false;
  return insertFlow(trx, { organizationId, documentId: doc.id, trackingId: doc.uuid, now: nowIso() });
}

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

export async function getTransmission(db: Db, organizationId: number, documentId: number): Promise<Transmission | null> {
  const row = await findFlowOfDocument(db, { organizationId, documentId });
  return row ? transmissionOf(row) : null;
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

/**
 * « Transmettre » / « Renvoyer » (POST /api/documents/{id}/transmit): queues the document if it is not yet, makes a
 * refused or abandoned submission due again, and makes an attempt now. Never a second flow: a document already
 * submitted answers its flow (a second call only reads its acknowledgement), and a resubmission whose previous
 * outcome is unknown asks the platform by trackingId first (services/einvoice-outbox.ts).
 */
export async function transmitDocument(
  db: Db,
  outbox: FlowOutbox,
  organizationId: number,
  documentId: number,
): Promise<{ messages: string; data: Transmission }> {
  const doc = await lifecycleDocument(db, organizationId, documentId);
  const settings = await getEinvoicingSettings(db, organizationId);
  let row = await findFlowOfDocument(db, { organizationId, documentId });
  if (!row) {
    if (settings.mode !== 'afnor')
      fail(
        'CONFLICT',
        'Aucune plateforme agréée n’est configurée : choisissez « Plateforme agréée (API AFNOR XP Z12-013) » dans Paramètres → Facturation électronique',
      );
    const problem = flowRecipientProblem(doc);
    if (problem) fail('CONFLICT', problem);
    await insertFlow(db, { organizationId, documentId, trackingId: doc.uuid, now: outbox.now().toISOString() });
    row = await findFlowOfDocument(db, { organizationId, documentId });
    if (!row) fail('CONFLICT', 'La transmission n’a pas pu être enregistrée : réessayez');
  } else if (row.state === 'acknowledged') {
    return { messages: `Déjà déposée sur la plateforme agréée (flux ${row.flow_id})`, data: transmissionOf(row) };
  } else {
    const restart = row.state === 'error' || row.state === 'to_resend';
    await makeFlowDueNow(db, { id: row.id, now: outbox.now().toISOString(), restart });
  }
  await outbox.attemptNow(row.id);
  const after = await findFlowOfDocument(db, { organizationId, documentId });
  const data = transmissionOf(after ?? row);
  return { messages: transmissionMessage(data), data };
}
